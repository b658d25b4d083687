/**
 * Text rules of the evidence record, as the Python reference judges them: whitespace is what
 * Python's `str.isspace`/`str.strip` see (not JavaScript's `trim`), lengths are in code points.
 */

/** Every code point Python 3.11's `str.isspace()` is true for (and so `str.strip()` removes). */
export const PYTHON_WHITESPACE: ReadonlySet<number> = new Set([
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008,
  0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
]);

/** The longest text field, in code points (a lone surrogate counts as one, as in Python). */
export const MAX_TEXT_CODE_POINTS = 65536;

/**
 * The reference's `_text`: a string with at least one non-whitespace character, at most
 * 65536 code points, and no control character below U+0020 other than LF and TAB (so CR is
 * refused everywhere).
 */
export function isRecordText(value: unknown): value is string {
  if (typeof value !== "string") return false;
  // By UTF-16 unit, a surrogate pair counted once: iterating code points as strings made one
  // short-lived string per character, which on a record of megabytes was most of its cost.
  let count = 0;
  let visible = false;
  for (let i = 0; i < value.length; i += 1) {
    const unit = value.charCodeAt(i);
    if (unit < 0x20 && unit !== 0x0a && unit !== 0x09) return false;
    // A lone surrogate is one code point, as in Python; neither it nor an astral one is whitespace.
    if (!visible && !PYTHON_WHITESPACE.has(unit)) visible = true;
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i += 1;
    }
    count += 1;
    if (count > MAX_TEXT_CODE_POINTS) return false;
  }
  return visible;
}

/** A task or attempt: record text on one line (only LF counts as a line break). */
export function isSingleLineText(value: unknown): value is string {
  return isRecordText(value) && !value.includes("\n");
}

/** The kinds of credential a check command or result must never hold. */
export type CredentialKind = "github-token" | "aws-access-key" | "slack-token" | "private-key";

const CREDENTIALS: readonly { readonly kind: CredentialKind; readonly pattern: RegExp }[] = [
  { kind: "github-token", pattern: /gh[pousr]_[A-Za-z0-9]|github_pat_[A-Za-z0-9_]/ },
  { kind: "aws-access-key", pattern: /AKIA[0-9A-Z]{12}/ },
  { kind: "slack-token", pattern: /xox[bp]-[A-Za-z0-9]/ },
  { kind: "private-key", pattern: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/ },
];

/** The first obvious credential in `text`, or `undefined`. The secret itself is never returned. */
export function findCredential(text: string): CredentialKind | undefined {
  return CREDENTIALS.find((c) => c.pattern.test(text))?.kind;
}

const hex4 = (cp: number) => `\\u${cp.toString(16).padStart(4, "0")}`;

/**
 * The text rule (less the length) as an ECMAScript pattern for the JSON Schema export:
 * allowed characters, then at least one that is neither Python whitespace nor a control.
 */
export function recordTextPattern(oneLine: boolean): string {
  const allowed = oneLine ? "[^\\u0000-\\u0008\\u000a-\\u001f]" : "[^\\u0000-\\u0008\\u000b-\\u001f]";
  const spaces = [...PYTHON_WHITESPACE]
    .filter((cp) => cp > 0x20)
    .map(hex4)
    .join("");
  return `^${allowed}*[^\\u0000-\\u0020${spaces}]${allowed}*$`;
}
