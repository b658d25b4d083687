import { err, ok, type Result } from "neverthrow";
import { shownValue } from "../record/fault.js";
import type { EvidenceRecord } from "../record/schema.js";
import { contentHash, keyHash, markerLine, recordKey } from "../record/hash.js";
import { parseRecordJson } from "../record/validate.js";
import { isValidCanonicalUrl } from "../record/url.js";
import type { SavedRecord } from "../store/envelope.js";
import { grantInt, isGrantedAuthority } from "./authority.js";
import type { PublishFault } from "./fault.js";

// Every value a transport hands back is re-checked here at run time: a transport may return
// anything, and anything unexpected leaves the evidence pending.

const COMMENT_KEYS = ["author_id", "author_login", "body", "id", "pr", "repo", "url"];

type Fields = Readonly<Record<string, unknown>>;

function isFields(x: unknown): x is Fields {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

function malformed(field: string, comment: unknown): Result<never, PublishFault> {
  const id = isFields(comment) && typeof comment.id === "number" ? comment.id : null;
  return err({ code: "malformed-comment", field, commentId: id });
}

/** The authority must be one `grantPublication` made, allow publishing, and vouch for exactly this record. */
export function checkAuthority(record: SavedRecord, authority: unknown): Result<void, PublishFault> {
  if (!isGrantedAuthority(authority) || authority.allowPublish !== true) return err({ code: "not-authorized" });
  const pairs: ReadonlyArray<readonly [string, boolean]> = [
    ["repo", authority.repo === record.repo],
    ["pr", grantInt(authority.pr) === record.pr.value],
    ["task", authority.task === record.task],
    ["attempt", authority.attempt === record.attempt],
    ["author.id", grantInt(authority.authorId) === record.author.id.value],
    ["author.login", authority.authorLogin === record.author.login],
    ["content_sha256", authority.contentSha256 === record.content_sha256],
  ];
  const wrong = pairs.find(([, same]) => !same);
  return wrong === undefined ? ok(undefined) : err({ code: "authority-mismatch", field: wrong[0] });
}

/** The identity the transport writes as must be the record's author, id and login. */
export function checkAuthor(record: EvidenceRecord, actor: unknown): Result<void, PublishFault> {
  const expected = `${record.author.login} (id ${record.author.id.value})`;
  const a = isFields(actor) ? actor : {};
  const actual = `${shownValue(a.login)} (id ${shownValue(a.id)})`;
  const same = Object.keys(a).sort().join() === "id,login" && typeof a.id === "bigint" && a.id === record.author.id.value && a.login === record.author.login;
  return same ? ok(undefined) : err({ code: "author-mismatch", expected, actual });
}

/** Checks one comment is well formed, on this PR, by this author, for this key; returns its content. */
export function ownComment(comment: unknown, record: EvidenceRecord): Result<EvidenceRecord, PublishFault> {
  if (!isFields(comment) || Object.keys(comment).sort().join() !== COMMENT_KEYS.join()) return malformed("keys", comment);
  const c = comment;
  if (typeof c.id !== "number" || !Number.isSafeInteger(c.id) || c.id <= 0) return malformed("id", c);
  if (!isValidCanonicalUrl(c.url, record.repo)) return malformed("url", c);
  if (c.repo !== record.repo) return malformed("repo", c);
  if (typeof c.pr !== "number" || !Number.isSafeInteger(c.pr) || BigInt(c.pr) !== record.pr.value) return malformed("pr", c);
  if (typeof c.author_id !== "bigint" || c.author_id !== record.author.id.value) return malformed("author_id", c);
  if (c.author_login !== record.author.login) return malformed("author_login", c);
  const prefix = `${markerLine(keyHash(recordKey(record)))}\n`;
  if (typeof c.body !== "string" || !c.body.startsWith(prefix)) return malformed("marker", c);
  const content = parseRecordJson(c.body.slice(prefix.length));
  if (content.isErr()) return malformed("content", c);
  const sameKey = keyHash(recordKey(content.value)) === keyHash(recordKey(record));
  const sameAuthor = content.value.author.id.value === record.author.id.value && content.value.author.login === record.author.login;
  return sameKey && sameAuthor ? ok(content.value) : malformed("content identity", c);
}

/** A complete lookup's own comments (at most one); foreign-author comments are ignored, never touched. */
export function ownMatches(lookup: unknown, record: EvidenceRecord): Result<LookupVerdict, PublishFault> {
  const l = isFields(lookup) ? lookup : {};
  const shaped = Object.keys(l).sort().join() === "absence_confirmed,complete,matches" && typeof l.absence_confirmed === "boolean" && Array.isArray(l.matches);
  if (!shaped || l.complete !== true) return err({ code: "lookup-incomplete" });
  const own: OwnMatch[] = [];
  for (const comment of l.matches as readonly unknown[]) {
    if (!isFields(comment) || typeof comment.author_id !== "bigint") return malformed("author_id", comment);
    if (comment.author_id !== record.author.id.value) continue;
    const content = ownComment(comment, record);
    if (content.isErr()) return err(content.error);
    own.push({ id: comment.id as number, body: comment.body as string, contentSha256: contentHash(content.value) });
  }
  if (own.length > 1) return err({ code: "ambiguous-own-comments", ids: own.map((c) => c.id) });
  return ok({ own: own[0] ?? null, absenceConfirmed: l.absence_confirmed === true });
}

/** What a complete lookup says: the one own comment, if any, and whether absence is confirmed. */
export interface LookupVerdict {
  readonly own: OwnMatch | null;
  /**
   * The listing is authoritative (complete, earlier writes settled): with `own` null, no own
   * comment exists. Foreign matches neither set nor clear it; they are never adopted.
   */
  readonly absenceConfirmed: boolean;
}

/** The one own comment a lookup found, reduced to what `publish` decides on. */
export interface OwnMatch {
  readonly id: number;
  readonly body: string;
  readonly contentSha256: string;
}

/** The readback must be our comment, with the id we wrote and exactly the body we wrote. */
export function checkReadback(readback: unknown, record: EvidenceRecord, commentId: number, body: string): Result<string, PublishFault> {
  const mismatch = (field: string): Result<never, PublishFault> => err({ code: "readback-mismatch", commentId, field });
  const own = ownComment(readback, record);
  if (own.isErr()) return mismatch(own.error.code === "malformed-comment" ? own.error.field : own.error.code);
  const r = readback as Fields;
  if (r.id !== commentId) return mismatch("id");
  if (r.body !== body) return mismatch("body");
  return ok(r.url as string);
}
