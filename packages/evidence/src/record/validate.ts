import { err, ok, type Result } from "neverthrow";
import type { z } from "zod";
import { RECORD_RULES, type RecordFault, type RecordRule } from "./fault.js";
import { compareCodePoints } from "./canonical.js";
import { parseJson } from "./json.js";
import { isJsonNumber, type JsonValue } from "./number.js";
import { CONTENT_FIELDS, EvidenceRecord } from "./schema.js";
import { findCredential, isRecordText } from "./text.js";
import { isValidCanonicalUrl } from "./url.js";

type Path = readonly PropertyKey[];
type Finding = { readonly rule: RecordRule; readonly path: Path };
type Plain = { readonly [key: string]: unknown };

const ORDER: readonly string[] = Object.keys(RECORD_RULES);

function isPlain(v: unknown): v is Plain {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !isJsonNumber(v);
}

function isRule(message: string): message is RecordRule {
  return ORDER.includes(message);
}

/** `checks[1].result` style, as a user would point at the field. */
function fieldName(path: Path): string {
  return path.map((p, i) => (typeof p === "number" ? `[${p}]` : `${i === 0 ? "" : "."}${String(p)}`)).join("");
}

function valueAt(root: unknown, path: Path): unknown {
  return path.reduce<unknown>((v, p) => (isPlain(v) || Array.isArray(v) ? (v as Record<PropertyKey, unknown>)[p] : undefined), root);
}

/** The rule a missing or extra key breaks: the one of the object that holds the key set. */
function keySetRule(parent: Path): RecordRule {
  const name = fieldName(parent);
  if (name === "") return "content-fields";
  if (name === "previous_attempt.key") return "previous-key";
  if (name === "previous_attempt") return "previous-attempt";
  if (name.startsWith("checks[")) return "check-result";
  return name === "author" ? "author" : "deployment";
}

function fromIssue(issue: z.core.$ZodIssue, raw: unknown): Finding {
  const path = issue.path;
  if (issue.code === "unrecognized_keys") return { rule: keySetRule(path), path };
  if (path.length > 0 && valueAt(raw, path) === undefined) return { rule: keySetRule(path.slice(0, -1)), path };
  return { rule: isRule(issue.message) ? issue.message : "content-fields", path };
}

/** The rules that compare fields with each other: the previous attempt's identity and URL. */
function crossFindings(raw: Plain): Finding[] {
  const previous = raw["previous_attempt"];
  if (!isPlain(previous) || !isPlain(previous["key"])) return [];
  const key = previous["key"];
  const samePr =
    isJsonNumber(key["pr"]) && isJsonNumber(raw["pr"]) && key["pr"].kind === "int" && raw["pr"].kind === "int" && key["pr"].value === raw["pr"].value;
  const identity = key["repo"] === raw["repo"] && samePr && key["task"] === raw["task"] && key["attempt"] !== raw["attempt"] && isRecordText(key["attempt"]);
  const url = previous["canonical_url"];
  const repo = typeof raw["repo"] === "string" ? raw["repo"] : "";
  return [
    ...(identity ? [] : [{ rule: "previous-identity" as const, path: ["previous_attempt", "key"] }]),
    ...(url === null || isValidCanonicalUrl(url, repo) ? [] : [{ rule: "previous-url" as const, path: ["previous_attempt", "canonical_url"] }]),
  ];
}

/** A missing content field (the first in the reference's order) or else an extra one is named. */
function contentFieldsFinding(raw: unknown): Finding | undefined {
  if (!isPlain(raw)) return { rule: "content-fields", path: [] };
  const fields: readonly string[] = CONTENT_FIELDS;
  const missing = CONTENT_FIELDS.find((k) => !Object.hasOwn(raw, k));
  const extra = Object.keys(raw)
    .filter((k) => !fields.includes(k))
    .sort(compareCodePoints)[0];
  const named = missing ?? extra;
  return named === undefined ? undefined : { rule: "content-fields", path: [named] };
}

function credentialFault(record: EvidenceRecord): RecordFault | undefined {
  for (const [i, check] of record.checks.entries()) {
    for (const part of ["command", "result"] as const) {
      const kind = findCredential(check[part]);
      if (kind) return { code: "credential-in-check", field: `checks[${i}].${part}`, kind };
    }
  }
  return undefined;
}

/**
 * Checks a JSON value against every rule of `evidence-record-v1`, reporting the first broken
 * rule in the reference's order with the field it concerns; then refuses credentials in checks.
 */
export function validateRecord(value: JsonValue): Result<EvidenceRecord, RecordFault> {
  const raw: unknown = value;
  const keySet = contentFieldsFinding(raw);
  const parsed = keySet ? undefined : EvidenceRecord.safeParse(raw);
  const findings: Finding[] = keySet ? [keySet] : [...(parsed?.error?.issues ?? []).map((i) => fromIssue(i, raw)), ...crossFindings(raw as Plain)];
  const first = findings.sort((a, b) => ORDER.indexOf(a.rule) - ORDER.indexOf(b.rule))[0];
  if (first) return err({ code: "invalid-record", rule: first.rule, field: fieldName(first.path) });
  const record = parsed?.data;
  if (!record) throw new Error("validateRecord: schema passed without data");
  const credential = credentialFault(record);
  return credential ? err(credential) : ok(record);
}

/** Makes a record from JSON text: lossless parse, then `validateRecord`. */
export function parseRecordJson(text: string): Result<EvidenceRecord, RecordFault> {
  return parseJson(text).andThen(validateRecord);
}
