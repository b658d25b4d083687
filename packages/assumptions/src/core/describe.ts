import type { AssumptionsFault } from "./faults.js";

const HIDDEN = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Zl}\p{Zp}\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000\ufffd]/gu;

/** Quotes a value with every invisible or control character written as U+XXXX, so it can be seen. */
export function show(value: string): string {
  return `"${value.replace(HIDDEN, (ch) => `<${codePoint(ch.codePointAt(0) ?? 0)}>`)}"`;
}

/** `U+XXXX` for a code point. */
export function codePoint(cp: number): string {
  return `U+${cp.toString(16).toUpperCase().padStart(4, "0")}`;
}

function sentence(fault: AssumptionsFault): string {
  switch (fault.code) {
    case "plan-not-utf8":
      return "the assumptions file is not valid UTF-8";
    case "plan-empty":
      return "the assumptions file holds no rows: an empty plan is never a passing plan";
    case "comment-with-tab":
      return `a comment line holds a TAB, so it is ambiguous between a comment and a row: ${show(fault.value)}`;
    case "unknown-kind":
      return `unknown kind ${show(fault.value)} (expected exists, absent, contains, lacks or unchanged)`;
    case "field-count":
      return `${fault.kind} takes ${fault.expected} TAB-separated fields, this row has ${fault.actual}`;
    case "bad-digest":
      return `the digest ${show(fault.value)} is not 64 hexadecimal digits`;
    case "literal-blank":
      return "the literal is blank";
    case "literal-padded":
      return `the literal ${show(fault.value)} is padded with whitespace`;
    case "literal-line-break":
      return `the literal ${show(fault.value)} holds a line-breaking character`;
    case "path-empty":
      return "the path is empty";
    case "path-backslash":
      return `the path ${show(fault.path)} holds a backslash`;
    case "path-absolute":
      return `the path ${show(fault.path)} is absolute; paths are relative to the root`;
    case "path-drive-letter":
      return `the path ${show(fault.path)} starts with a drive letter`;
    case "path-dotdot":
      return `the path ${show(fault.path)} holds a ".." component`;
    case "path-is-root":
      return `the path ${show(fault.path)} names the root itself`;
    case "path-padded-component":
      return `the path ${show(fault.path)} has a component padded with whitespace: ${show(fault.component)}`;
    case "path-directory-for-file":
      return `${fault.kind} names a file, but the path ${show(fault.path)} ends with "/"`;
    case "control-character":
      return `the ${fault.field} ${show(fault.value)} holds the control character ${codePoint(fault.codePoint)}`;
    case "invisible-character":
      return `the ${fault.field} ${show(fault.value)} holds the invisible character ${codePoint(fault.codePoint)}`;
    case "compatibility-character":
      return `the ${fault.field} ${show(fault.value)} holds the compatibility character ${codePoint(fault.codePoint)} (NFKC would change it)`;
    case "mixed-script":
      return `the ${fault.field} ${show(fault.value)} holds the word ${show(fault.word)}, which mixes scripts`;
    case "ambiguous-name":
      return `the directory ${show(fault.path)} holds ${fault.names.map(show).join(" and ")}, which are one name after NFC: the gate will not guess`;
    case "link-outside-root":
      return `the symbolic link ${show(fault.path)} points to ${show(fault.target)}, outside the root`;
    case "link-loop":
      return `the symbolic link ${show(fault.path)} loops`;
    case "not-a-file":
      return `${show(fault.path)} is a ${fault.entry === "directory" ? "directory" : "FIFO, socket or device"}, not a regular file`;
    case "file-not-utf8":
      return fault.path === undefined ? "the text is not valid UTF-8" : `${show(fault.path)} is not valid UTF-8 text`;
    case "tree-not-found":
    case "tree-not-a-directory":
    case "tree-not-a-file":
    case "tree-too-large":
    case "tree-io":
      return fault.message;
    case "create-exists":
      return `${show(fault.path)} is to be created but already exists as ${show(fault.spelled)}`;
    case "create-variant":
      return `${show(fault.path)} is to be created but the tree holds the variant spelling ${show(fault.spelled)}`;
  }
}

/** The one place a fault becomes a human sentence (with `line N: ` in front when the fault has a line). */
export function describeFault(fault: AssumptionsFault): string {
  const line = "line" in fault && fault.line !== undefined ? `line ${fault.line}: ` : "";
  return line + sentence(fault);
}
