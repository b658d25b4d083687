import { decodeStrictUtf8 } from "@decay/portable";
import { err, ok, type Result } from "neverthrow";
import { z } from "zod";
import { inFile, type RecordFault, shownValue } from "../record/fault.js";
import { contentHash, recordToJson } from "../record/hash.js";
import { isJsonNumber, jsonInt, type JsonValue } from "../record/number.js";
import { CONTENT_FIELDS, recordFields, type EvidenceRecord } from "../record/schema.js";
import { validateRecord } from "../record/validate.js";
import { isValidCanonicalUrl } from "../record/url.js";
import type { StoreFault } from "./fault.js";

const SHA256 = /^[0-9a-f]{64}$/;

/** The keys a saved record adds to the 12 content fields (the reference's `PUBLICATION_KEYS`). */
export const PUBLICATION_FIELDS = ["content_sha256", "evidence_status", "canonical_url", "local_pending_path", "history"] as const;

const publicationFields = {
  content_sha256: z.string().regex(SHA256),
  evidence_status: z.enum(["evidence-pending", "published"]),
  canonical_url: z.string().nullable(),
  local_pending_path: z.string(),
  history: z.array(z.string().regex(SHA256)),
} as const;

/** A record as the store keeps it: the content plus where it stands in publication. */
export const SavedRecord = z.strictObject({ ...recordFields, ...publicationFields });
/** A record as the store keeps it. */
export type SavedRecord = z.infer<typeof SavedRecord>;

/** One `<key_hash>.json` file: the saved record and the state of its canonical comment write. */
export const Envelope = z.strictObject({
  record: SavedRecord,
  write_state: z.enum(["never", "uncertain", "confirmed"]),
  comment_id: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).nullable(),
  reason: z.string().nullable(),
});
/** One `<key_hash>.json` file. */
export type Envelope = z.infer<typeof Envelope>;

type Fields = { readonly [key: string]: JsonValue };

function isFields(x: JsonValue): x is Fields {
  return typeof x === "object" && x !== null && !Array.isArray(x) && !isJsonNumber(x);
}

function sameKeys(x: Fields, keys: readonly string[]): boolean {
  const own = Object.keys(x);
  return own.length === keys.length && keys.every((k) => Object.hasOwn(x, k));
}

/** The 12 content fields of a saved record, as a record. */
export function contentOf(saved: SavedRecord): EvidenceRecord {
  return Object.fromEntries(CONTENT_FIELDS.map((k) => [k, saved[k]])) as EvidenceRecord;
}

/** The envelope as the JSON the reference writes (numbers keep their identity). */
export function envelopeToJson(envelope: Envelope): JsonValue {
  const r = envelope.record;
  const content = recordToJson(contentOf(r)) as Fields;
  const record: Fields = {
    ...content,
    content_sha256: r.content_sha256,
    evidence_status: r.evidence_status,
    canonical_url: r.canonical_url,
    local_pending_path: r.local_pending_path,
    history: [...r.history],
  };
  const id = envelope.comment_id === null ? null : jsonInt(envelope.comment_id);
  return { record, write_state: envelope.write_state, comment_id: id, reason: envelope.reason };
}

type Decoded = Result<Envelope, StoreFault | RecordFault>;

/**
 * Checks a parsed envelope exactly as the reference's `load` does, in its order: key sets,
 * content, content hash, path (`pathFor` of its key, and `local_pending_path`), write state,
 * comment id, status, canonical URL, history. Beyond the reference, `reason` must be a string or
 * null, and the fields must agree (see `inconsistency`).
 */
export function decodeEnvelope(value: JsonValue, path: string, pathFor: (record: EvidenceRecord) => string): Decoded {
  const bad = (field: string, detail: string): Decoded => err({ code: "invalid-envelope", path, field, detail });
  if (!isFields(value) || !sameKeys(value, ["record", "write_state", "comment_id", "reason"])) {
    return bad("", "expected exactly record, write_state, comment_id, reason");
  }
  const raw = value.record;
  if (raw === undefined || !isFields(raw) || !sameKeys(raw, [...CONTENT_FIELDS, ...PUBLICATION_FIELDS])) {
    return bad("record", "expected the 12 content fields and the 5 publication fields");
  }
  const content = validateRecord(Object.fromEntries(CONTENT_FIELDS.map((k) => [k, raw[k] ?? null])));
  if (content.isErr()) return err(inFile(content.error, path));
  const record = content.value;
  const digest = contentHash(record);
  if (raw.content_sha256 !== digest) {
    return err({
      code: "content-hash-mismatch",
      path,
      expected: digest,
      actual: typeof raw.content_sha256 === "string" ? raw.content_sha256 : `${shownValue(raw.content_sha256)}, not a string`,
    });
  }
  const expected = pathFor(record);
  if (path !== expected || raw.local_pending_path !== path) return err({ code: "envelope-path-mismatch", path, expected });
  const rest = decodeState(value, raw, record, path);
  return rest.isErr() ? bad(rest.error.field, rest.error.detail) : ok(rest.value);
}

/** The publication half of an envelope, checked in the reference's order after the content. */
function decodeState(value: Fields, raw: Fields, record: EvidenceRecord, path: string): Result<Envelope, { field: string; detail: string }> {
  const fail = (field: string, detail: string) => err({ field, detail });
  const writeState = publicationCheck(Envelope.shape.write_state, value.write_state);
  if (writeState === undefined) return fail("write_state", "expected never, uncertain or confirmed");
  const id = value.comment_id;
  const commentId =
    id === null ? null : isJsonNumber(id) && id.kind === "int" && id.value > 0n && id.value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(id.value) : undefined;
  if (commentId === undefined) return fail("comment_id", "expected a positive integer or null");
  const status = publicationCheck(publicationFields.evidence_status, raw.evidence_status);
  if (status === undefined) return fail("record.evidence_status", "expected evidence-pending or published");
  const url = raw.canonical_url;
  if (url !== null && !isValidCanonicalUrl(url, record.repo)) return fail("record.canonical_url", "not a canonical https URL on the record's host");
  const history = publicationCheck(publicationFields.history, raw.history);
  if (history === undefined) return fail("record.history", "expected a list of 64-hex content hashes");
  const reason = publicationCheck(Envelope.shape.reason, value.reason);
  if (reason === undefined) return fail("reason", "expected a string or null");
  const broken = inconsistency(status, url as string | null, writeState, commentId);
  if (broken !== undefined) return fail(broken.field, broken.detail);
  const saved: SavedRecord = {
    ...record,
    content_sha256: contentHash(record),
    evidence_status: status,
    canonical_url: url as string | null,
    local_pending_path: path,
    history,
  };
  return ok({ record: saved, write_state: writeState, comment_id: commentId, reason });
}

/**
 * The rules between fields (beyond the reference): `published` only with its canonical URL, a
 * confirmed write and the comment's id; a pending record claims no URL; a confirmed write names
 * its comment. So no hand edit can make a record read as published with nothing behind it.
 */
function inconsistency(
  status: SavedRecord["evidence_status"],
  url: string | null,
  writeState: Envelope["write_state"],
  commentId: number | null,
): { field: string; detail: string } | undefined {
  if (status === "published") {
    if (url === null) return { field: "record.canonical_url", detail: "a published record needs its canonical URL" };
    if (writeState !== "confirmed") return { field: "write_state", detail: "a published record's write is confirmed" };
    if (commentId === null) return { field: "comment_id", detail: "a published record names its comment" };
  } else if (url !== null) {
    return { field: "record.canonical_url", detail: "a pending record has no canonical URL" };
  }
  if (writeState === "confirmed" && commentId === null) return { field: "comment_id", detail: "a confirmed write names its comment" };
  return undefined;
}

function publicationCheck<T>(schema: z.ZodType<T>, value: JsonValue | undefined): T | undefined {
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/**
 * Bytes as strict UTF-8 text without a byte order mark, the one rule for every text this package
 * reads (the reference refuses a BOM): else why not, `not-utf8` or `bom`.
 */
export function utf8WithoutBom(bytes: Uint8Array): Result<string, "not-utf8" | "bom"> {
  const text = decodeStrictUtf8(bytes, { bom: "keep" });
  if (text.isErr()) return err("not-utf8");
  return text.value.charCodeAt(0) === 0xfeff ? err("bom") : ok(text.value);
}

/**
 * Decodes a file's bytes as strict UTF-8 without a byte order mark (`utf8WithoutBom`); anything
 * else is an invalid envelope at `path`.
 */
export function decodeUtf8(bytes: Uint8Array, path: string): Result<string, StoreFault> {
  return utf8WithoutBom(bytes).mapErr(
    (why): StoreFault => ({
      code: "invalid-envelope",
      path,
      field: "",
      detail: why === "bom" ? "the file starts with a UTF-8 byte order mark (BOM)" : "not UTF-8 text",
    }),
  );
}
