import type { AssumptionsFault } from "./faults.js";

const HIDDEN = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Zl}\p{Zp}\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000\ufffd]/gu;

// Names that are one name after NFC look alike: which form each is written in tells them apart.
function form(name: string): string {
  if (name === name.normalize("NFC")) return "NFC";
  return name === name.normalize("NFD") ? "NFD" : "neither NFC nor NFD";
}

/** The most characters of a value a message quotes; a longer value is cut, with its length. */
export const QUOTE_LIMIT = 80;

/**
 * Quotes a value with every invisible or control character written as U+XXXX, so it can be seen.
 * At most `QUOTE_LIMIT` characters are quoted; a longer value is cut there, followed by an
 * ellipsis and its full length (a 100 MB value is never echoed).
 */
export function show(value: string): string {
  const head = value.length <= QUOTE_LIMIT ? value : cut(value);
  const quoted = `"${head.replace(HIDDEN, (ch) => `<${codePoint(ch.codePointAt(0) ?? 0)}>`)}"`;
  return head === value ? quoted : `${quoted}… (${value.length} characters)`;
}

// The first QUOTE_LIMIT characters, never splitting a surrogate pair.
function cut(value: string): string {
  const end = /[\uD800-\uDBFF]/.test(value.charAt(QUOTE_LIMIT - 1)) ? QUOTE_LIMIT - 1 : QUOTE_LIMIT;
  return value.slice(0, end);
}

/** `U+XXXX` for a code point. */
export function codePoint(cp: number): string {
  return `U+${cp.toString(16).toUpperCase().padStart(4, "0")}`;
}

// The members of a fault union whose `code` admits C (a member may carry several codes).
type Having<F, C> = F extends { readonly code: infer K } ? (C extends K ? F : never) : never;
type Renderers = { readonly [C in AssumptionsFault["code"]]: (fault: Having<AssumptionsFault, C>) => string };

// One sentence per fault code; the mapped type makes a code without a sentence a compile error.
const SENTENCES: Renderers = {
  "plan-not-utf8": (fault) => `the assumptions file is not valid UTF-8: the bytes ${fault.value} cannot be decoded`,
  "cr-line-endings": () => "line endings are CR only; convert to LF or CRLF",
  "plan-empty": () => "the assumptions file holds no rows: an empty plan is never a passing plan",
  "plan-too-large": (fault) =>
    `the assumptions file holds more than ${fault.limit} rows (this line is one more): a plan that large is refused before it is checked; split it into plans of at most ${fault.limit} rows`,
  "comment-with-tab": (fault) => `a comment line holds a TAB, so it is ambiguous between a comment and a row: ${show(fault.value)}`,
  "unknown-kind": (fault) => `unknown kind ${show(fault.value)} (expected exists, absent, contains, lacks or unchanged)`,
  "field-count": (fault) => `${fault.kind} takes ${fault.expected} TAB-separated fields, this row has ${fault.actual}`,
  "bad-digest": (fault) => `the digest ${show(fault.value)} is not 64 hexadecimal digits`,
  "literal-blank": () => "the literal is blank",
  "literal-padded": (fault) => `the literal ${show(fault.value)} is padded with whitespace`,
  "literal-line-break": (fault) => `the literal ${show(fault.value)} holds a line-breaking character`,
  "path-empty": () => "the path is empty",
  "path-backslash": (fault) => `the path ${show(fault.path)} holds a backslash`,
  "path-absolute": (fault) => `the path ${show(fault.path)} is absolute; paths are relative to the root`,
  "path-drive-letter": (fault) => `the path ${show(fault.path)} starts with a drive letter`,
  "path-dotdot": (fault) => `the path ${show(fault.path)} holds a ".." component`,
  "path-is-root": (fault) => `the path ${show(fault.path)} names the root itself`,
  "path-padded-component": (fault) => `the path ${show(fault.path)} has a component padded with whitespace: ${show(fault.component)}`,
  "path-line-break": (fault) => `the path ${show(fault.path)} holds the line-breaking character ${codePoint(fault.codePoint)}`,
  "path-too-deep": (fault) => `the path ${show(fault.path)} has ${fault.components} components, more than the limit of ${fault.limit}`,
  "path-directory-for-file": (fault) =>
    `${fault.kind} names a file, but the path ${show(fault.path)} names a directory: it ends with ${fault.path.endsWith("/") ? '"/"' : '"/."'}`,
  "control-character": (fault) => `the ${fault.field} ${show(fault.value)} holds the control character ${codePoint(fault.codePoint)}`,
  "invisible-character": (fault) => `the ${fault.field} ${show(fault.value)} holds the invisible character ${codePoint(fault.codePoint)}`,
  "compatibility-character": (fault) =>
    `the ${fault.field} ${show(fault.value)} holds the compatibility character ${codePoint(fault.codePoint)} (NFKC would change it)`,
  "mixed-script": (fault) => `the ${fault.field} ${show(fault.value)} holds the word ${show(fault.word)}, which mixes scripts`,
  "ambiguous-name": (fault) =>
    `${fault.path === "" ? "the root" : `the directory ${show(fault.path)}`} holds ${fault.names.map((n) => `${show(n)} (${form(n)})`).join(" and ")}, which are one name after NFC: the gate will not guess`,
  "link-outside-root": (fault) => `the symbolic link ${show(fault.path)} points to ${show(fault.target)}, outside the root`,
  "link-loop": (fault) => `the symbolic link ${show(fault.path)} loops`,
  submodule: (fault) => `${show(fault.path)} is a git submodule (or a nested repository): its files belong to another repository and are not checked`,
  "not-a-file": (fault) => `${show(fault.path)} is a ${fault.entry === "directory" ? "directory" : "FIFO, socket or device"}, not a regular file`,
  "file-not-utf8": (fault) => (fault.path === undefined ? "the text is not valid UTF-8" : `${show(fault.path)} is not valid UTF-8 text`),
  "tree-not-found": (fault) => fault.message,
  "tree-not-a-directory": (fault) => fault.message,
  "tree-not-a-file": (fault) => fault.message,
  "tree-too-large": (fault) => fault.message,
  "tree-io": (fault) => fault.message,
  "create-exists": (fault) => `${show(fault.path)} is to be created but already exists as ${show(fault.spelled)}`,
  "create-variant": (fault) => `${show(fault.path)} is to be created but the tree holds the variant spelling ${show(fault.spelled)}`,
  "option-invalid": (fault) => `option ${fault.option}: ${fault.issue}`,
};

function sentence(fault: AssumptionsFault): string {
  return (SENTENCES[fault.code] as (f: AssumptionsFault) => string)(fault);
}

/** The one place a fault becomes a human sentence (with `line N: ` in front when the fault has a line). */
export function describeFault(fault: AssumptionsFault): string {
  const line = "line" in fault && fault.line !== undefined ? `line ${fault.line}: ` : "";
  return line + sentence(fault);
}
