import { z } from "zod";
import type { RecordRule } from "./fault.js";
import { isJsonNumber, type JsonInt, type JsonNumber } from "./number.js";
import { isRecordText, isSingleLineText, MAX_TEXT_CODE_POINTS, recordTextPattern } from "./text.js";

/** The record's `schema` value. */
export const RECORD_SCHEMA_ID = "evidence-record-v1";

/** The 12 content fields, in the order the reference checks them. */
export const CONTENT_FIELDS = [
  "schema",
  "repo",
  "pr",
  "task",
  "attempt",
  "merge_sha",
  "deployment",
  "timestamp",
  "production_status",
  "author",
  "checks",
  "previous_attempt",
] as const;

/** The four fields that identify one attempt. */
export const KEY_FIELDS = ["repo", "pr", "task", "attempt"] as const;

const REPO = /^[a-z0-9.-]+\/[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;
const MERGE_SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
const SHA256 = /^[0-9a-f]{64}$/;

function positiveInt(rule: RecordRule) {
  return z.custom<JsonInt>((v) => isJsonNumber(v) && v.kind === "int" && v.value > 0n, { error: rule }).meta({ type: "integer", minimum: 1 });
}

function text(rule: RecordRule, oneLine = false) {
  return z
    .string({ error: rule })
    .refine(oneLine ? isSingleLineText : isRecordText, { error: rule })
    .meta({ maxLength: MAX_TEXT_CODE_POINTS, pattern: recordTextPattern(oneLine) });
}

/** A finite, non-negative number; a huge int counts when it converts to a finite float. */
function isTimestamp(v: unknown): v is JsonNumber {
  if (!isJsonNumber(v)) return false;
  if (v.kind === "int") return v.value >= 0n && Number.isFinite(Number(v.value));
  return Number.isFinite(v.value) && v.value >= 0;
}

/** The key of one attempt: `{repo, pr, task, attempt}`. */
export const RecordKey = z.strictObject({
  repo: z.string(),
  pr: z.custom<JsonInt>((v) => isJsonNumber(v) && v.kind === "int").meta({ type: "integer" }),
  task: z.string(),
  attempt: z.string(),
});
/** The key of one attempt. */
export type RecordKey = z.infer<typeof RecordKey>;

const PreviousKey = z.strictObject(
  {
    repo: z.string({ error: "previous-identity" }),
    pr: positiveInt("previous-identity"),
    task: z.string({ error: "previous-identity" }),
    attempt: text("previous-identity"),
  },
  { error: "previous-key" },
);

/** The link from a new attempt to the retained earlier one. */
export const PreviousAttempt = z.strictObject(
  {
    key: PreviousKey,
    content_sha256: z.string({ error: "previous-hash" }).regex(SHA256, { error: "previous-hash" }),
    canonical_url: z.string({ error: "previous-url" }).nullable().meta({ format: "uri" }),
  },
  { error: "previous-attempt" },
);
/** The link from a new attempt to the retained earlier one. */
export type PreviousAttempt = z.infer<typeof PreviousAttempt>;

/** The fields of an `evidence-record-v1` record, each with the rule it breaks. */
export const recordFields = {
  schema: z.literal(RECORD_SCHEMA_ID, { error: "schema" }),
  repo: z.string({ error: "repo" }).regex(REPO, { error: "repo" }),
  pr: positiveInt("pr"),
  task: text("task", true),
  attempt: text("attempt", true),
  merge_sha: z.string({ error: "merge-sha" }).regex(MERGE_SHA, { error: "merge-sha" }),
  deployment: z.strictObject({ id: text("deployment"), version: text("deployment") }, { error: "deployment" }),
  timestamp: z.custom<JsonNumber>(isTimestamp, { error: "timestamp" }).meta({ type: "number", minimum: 0 }),
  production_status: z.enum(["succeeded", "failed", "unknown"], { error: "production-status" }),
  author: z.strictObject({ id: positiveInt("author"), login: text("author") }, { error: "author" }),
  checks: z
    .array(z.strictObject({ command: text("check-result"), result: text("check-result") }, { error: "check-result" }), {
      error: "checks-required",
    })
    .min(1, { error: "checks-required" }),
  previous_attempt: PreviousAttempt.nullable(),
} as const;

/**
 * An `evidence-record-v1` record: the schema is the type. Cross-field rules (the previous
 * attempt's identity and URL, credentials in checks) are applied by `validateRecord`.
 */
export const EvidenceRecord = z.strictObject(recordFields).meta({
  title: "evidence-record-v1",
  description: "Post-merge task evidence. Numbers keep int/float identity; see docs/evidence-record.md.",
});
/** An `evidence-record-v1` record. */
export type EvidenceRecord = z.infer<typeof EvidenceRecord>;
