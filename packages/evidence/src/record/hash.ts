import { sha256Hex as sha256 } from "@decay/portable";
import { canonicalJson } from "./canonical.js";
import type { JsonValue } from "./number.js";
import { CONTENT_FIELDS, type EvidenceRecord, type RecordKey } from "./schema.js";

/** Lower-case hex SHA-256 of the UTF-8 bytes of `text`. */
export function sha256Hex(text: string): string {
  return sha256(text);
}

/** The content object of a record: exactly its 12 fields, as JSON. */
export function recordToJson(record: EvidenceRecord): JsonValue {
  return Object.fromEntries(CONTENT_FIELDS.map((k) => [k, record[k]])) as JsonValue;
}

/** The key of the record's attempt. */
export function recordKey(record: EvidenceRecord): RecordKey {
  return { repo: record.repo, pr: record.pr, task: record.task, attempt: record.attempt };
}

/** A key as JSON: `{repo, pr, task, attempt}`. */
export function keyToJson(key: RecordKey): JsonValue {
  return { repo: key.repo, pr: key.pr, task: key.task, attempt: key.attempt };
}

/** SHA-256 of the canonical JSON of a key: names the envelope and the comment marker. */
export function keyHash(key: RecordKey): string {
  return sha256Hex(canonicalJson(keyToJson(key)));
}

/** SHA-256 of the canonical JSON of the record's content: its payload identity. */
export function contentHash(record: EvidenceRecord): string {
  return sha256Hex(canonicalJson(recordToJson(record)));
}

/** The first line of an evidence comment. */
export function markerLine(hash: string): string {
  return `<!-- agentflow-evidence:v1 ${hash} -->`;
}

/** The exact comment body: the marker line, a newline, then the canonical content JSON. */
export function commentBody(record: EvidenceRecord): string {
  return `${markerLine(keyHash(recordKey(record)))}\n${canonicalJson(recordToJson(record))}`;
}
