import { oneLine } from "@decay/portable";
import { isIntegerLiteral, isJsonNumber, MAX_INT_DIGITS } from "./number.js";
import type { CredentialKind } from "./text.js";

/**
 * The rules a record is checked against, in the order the Python reference checks them; the
 * value is the reference's message, so a refusal reads exactly as the reference's would.
 */
export const RECORD_RULES = {
  "content-fields": "invalid content fields",
  schema: "invalid evidence schema",
  repo: "invalid repo",
  pr: "invalid PR",
  task: "invalid task",
  attempt: "invalid attempt",
  "merge-sha": "invalid merge SHA",
  deployment: "invalid deployment identity",
  timestamp: "invalid timestamp",
  "production-status": "invalid production status",
  author: "invalid author",
  "checks-required": "checks/results required",
  "check-result": "invalid check result",
  "previous-attempt": "invalid previous attempt",
  "previous-key": "invalid previous attempt key",
  "previous-identity": "previous attempt identity mismatch",
  "previous-hash": "invalid previous content hash",
  "previous-url": "invalid previous canonical URL",
} as const;

/** One rule of `RECORD_RULES`. */
export type RecordRule = keyof typeof RECORD_RULES;

/** How each kind of credential is named in a sentence. */
const CREDENTIAL_NAMES: Readonly<Record<CredentialKind, string>> = {
  "github-token": "a GitHub token",
  "aws-access-key": "an AWS access key id",
  "slack-token": "a Slack token",
  "private-key": "a private key",
};

/**
 * Why a JSON text or an evidence record was refused; `path`, once the text is known to come from a
 * file (a record file, standard input, an envelope), names it.
 */
export type RecordFault = (
  | { readonly code: "invalid-json"; readonly detail: string; readonly line: number; readonly column: number }
  | { readonly code: "duplicate-key"; readonly key: string; readonly line: number; readonly column: number }
  | { readonly code: "number-out-of-range"; readonly text: string }
  | { readonly code: "nesting-too-deep"; readonly limit: number; readonly line: number; readonly column: number }
  | { readonly code: "invalid-record"; readonly rule: RecordRule; readonly field: string }
  | { readonly code: "credential-in-check"; readonly field: string; readonly kind: CredentialKind }
) & { readonly path?: string };

/** The fault as read from the file `path`, so its sentence names the file. */
export function inFile(fault: RecordFault, path: string): RecordFault {
  return { ...fault, path };
}

/** The most characters of the record's own text (a key, a field name, a number) a message quotes. */
const QUOTE_LIMIT = 80;

/** `text` cut after QUOTE_LIMIT characters (never inside a surrogate pair), then `…` and its length. */
function clip(text: string): string {
  if (text.length <= QUOTE_LIMIT) return text;
  const end = /[\uD800-\uDBFF]/.test(text.charAt(QUOTE_LIMIT - 1)) ? QUOTE_LIMIT - 1 : QUOTE_LIMIT;
  return `${text.slice(0, end)}… (${text.length} characters)`;
}

/**
 * Any value as a message shows it, without ever calling its own `toString` (`{"toString": 0}`
 * throws): a string clipped, a number or boolean as written, else what kind of value it is.
 */
export function shownValue(value: unknown): string {
  if (typeof value === "string") return clip(value);
  if (typeof value === "bigint" || typeof value === "number" || typeof value === "boolean") return String(value);
  if (value === null || value === undefined) return "null";
  if (isJsonNumber(value)) return String(value.value);
  if (Array.isArray(value)) return "a list";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/** The one place a record fault becomes a sentence, led by the file it names, if any. */
export function describeRecordFault(fault: RecordFault): string {
  return fault.path === undefined ? faultSentence(fault) : `${fault.path}: ${faultSentence(fault)}`;
}

function faultSentence(fault: RecordFault): string {
  switch (fault.code) {
    case "invalid-json":
      return `invalid JSON at line ${fault.line}, column ${fault.column}: ${oneLine(fault.detail, QUOTE_LIMIT)}`;
    case "duplicate-key":
      return `invalid JSON at line ${fault.line}, column ${fault.column}: duplicate key ${clip(JSON.stringify(fault.key))}`;
    case "number-out-of-range":
      // An integer literal is out of range only past the digits the reference reads.
      return isIntegerLiteral(fault.text)
        ? `invalid JSON: the integer ${clip(fault.text)} has more than ${MAX_INT_DIGITS} digits, more than the reference (Python's json.loads) reads`
        : `invalid JSON: the number ${clip(fault.text)} is out of range for a float`;
    case "nesting-too-deep":
      return `invalid JSON at line ${fault.line}, column ${fault.column}: arrays and objects nested deeper than ${fault.limit}`;
    case "invalid-record":
      return `${RECORD_RULES[fault.rule]} (field ${fault.field === "" ? "<record>" : clip(fault.field)})`;
    case "credential-in-check":
      return `credential in check (field ${clip(fault.field)}): looks like ${CREDENTIAL_NAMES[fault.kind]}; remove it from the record`;
  }
}
