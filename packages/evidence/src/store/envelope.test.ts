import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { canonicalJson } from "../record/canonical.js";
import { keyHash, recordKey } from "../record/hash.js";
import { parseJson } from "../record/json.js";
import type { JsonValue } from "../record/number.js";
import { decodeEnvelope, Envelope, envelopeToJson } from "./envelope.js";
import { pendingEnvelope, sampleRecord } from "../../test/support/testkit.js";

const ROOT = "/home/.decay/evidence/repo-000000000000";
const pathFor = (r: Parameters<typeof recordKey>[0]): string => `${ROOT}/${keyHash(recordKey(r))}.json`;
const RECORD = sampleRecord();
const URL = "https://forge.test/owner/repo/pull/23#issuecomment-7";
const PATH = pathFor(RECORD);
const VALID = canonicalJson(envelopeToJson(pendingEnvelope({ pathFor }, RECORD)));
const decodeText = (text: string) => parseJson(text).andThen((v) => decodeEnvelope(v, PATH, pathFor));

type Obj = { [k: string]: JsonValue };

/** The valid envelope with the value at `path` (a chain of object keys) replaced. */
function replaced(path: readonly string[], value: JsonValue): string {
  const root = JSON.parse(VALID) as Obj;
  let at: Obj = root;
  for (const k of path.slice(0, -1)) at = at[k] as Obj;
  at[path[path.length - 1] ?? ""] = value as never;
  return JSON.stringify(root);
}

const FIELDS: readonly (readonly string[])[] = [
  ["record"],
  ["write_state"],
  ["comment_id"],
  ["reason"],
  ...["content_sha256", "evidence_status", "canonical_url", "local_pending_path", "history", "pr", "task", "timestamp", "author", "checks"].map((k) => [
    "record",
    k,
  ]),
];

describe("decodeEnvelope", () => {
  test("the valid envelope decodes, matches the Envelope schema's shape, and encodes back to the same text", () => {
    const decoded = decodeText(VALID)._unsafeUnwrap();
    expect(canonicalJson(envelopeToJson(decoded))).toBe(VALID);
    expect(Object.keys(Envelope.shape).sort()).toEqual(Object.keys(decoded).sort());
  });

  test("any JSON text: a fault, never a throw", () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        expect(decodeText(text).isErr()).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  test("a content_sha256 that is no string is a hash mismatch naming its kind (an object whose toString is 0 threw)", () => {
    const cases: [JsonValue, string][] = [
      [{ toString: 0 } as never, "an object"],
      [["x"], "a list"],
      [true, "true"],
      [null, "null"],
    ];
    for (const [value, kind] of cases) {
      const fault = decodeText(replaced(["record", "content_sha256"], value))._unsafeUnwrapErr();
      expect(fault).toMatchObject({ code: "content-hash-mismatch", actual: `${kind}, not a string` });
    }
  });

  test("one field replaced by any JSON value: a fault, or an envelope holding exactly what the file says", () => {
    fc.assert(
      fc.property(fc.constantFrom(...FIELDS), fc.jsonValue(), (field, value) => {
        const text = replaced(field, value as JsonValue);
        const result = decodeText(text);
        if (result.isOk()) expect(canonicalJson(envelopeToJson(result.value))).toBe(canonicalJson(parseJson(text)._unsafeUnwrap()));
      }),
      { numRuns: 500 },
    );
  });

  test("a published claim needs its URL, a confirmed write and the comment id; a pending record has no URL", () => {
    const edited = (status: string, url: string | null, state: string, id: number | null) => {
      const root = JSON.parse(VALID) as Obj;
      Object.assign(root, { write_state: state, comment_id: id });
      Object.assign(root.record as Obj, { evidence_status: status, canonical_url: url });
      return decodeText(JSON.stringify(root));
    };
    expect(edited("published", URL, "confirmed", 7).isOk()).toBe(true);
    const refusals: [ReturnType<typeof edited>, string][] = [
      [edited("published", null, "never", null), "record.canonical_url"],
      [edited("published", URL, "never", 7), "write_state"],
      [edited("published", URL, "uncertain", 7), "write_state"],
      [edited("published", URL, "confirmed", null), "comment_id"],
      [edited("evidence-pending", URL, "confirmed", 7), "record.canonical_url"],
      [edited("evidence-pending", null, "confirmed", null), "comment_id"],
    ];
    for (const [result, field] of refusals) expect(result._unsafeUnwrapErr()).toMatchObject({ code: "invalid-envelope", path: PATH, field });
  });

  test("property: the publication fields decode exactly when they agree, and a decoded published record was confirmed", () => {
    const states = fc.record({
      status: fc.constantFrom("published", "evidence-pending"),
      url: fc.constantFrom(null, URL),
      state: fc.constantFrom("never", "uncertain", "confirmed"),
      id: fc.constantFrom(null, 7),
    });
    fc.assert(
      fc.property(states, ({ status, url, state, id }) => {
        const root = JSON.parse(VALID) as Obj;
        Object.assign(root, { write_state: state, comment_id: id });
        Object.assign(root.record as Obj, { evidence_status: status, canonical_url: url });
        const published = url !== null && state === "confirmed" && id !== null;
        const agree = (status === "published" ? published : url === null) && (state !== "confirmed" || id !== null);
        const result = decodeText(JSON.stringify(root));
        expect(result.isOk()).toBe(agree);
        if (result.isOk() && result.value.record.evidence_status === "published") expect(published).toBe(true);
      }),
    );
  });
});
