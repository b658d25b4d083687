// Encodings shared by the plan reader, the contract renderer and the contract parser.

/** A cursor over one line of text. */
export type Cursor = { text: string; pos: number };

/** Read a Markdown code span at the cursor (any backtick run length); null when there is none. */
export function readCodeSpan(cur: Cursor): string | null {
  const open = /^`+/.exec(cur.text.slice(cur.pos))?.[0];
  if (!open) return null;
  const from = cur.pos + open.length;
  const closer = new RegExp(`(?<!\`)${open}(?!\`)`, "g");
  closer.lastIndex = from;
  const m = closer.exec(cur.text);
  if (!m) return null;
  let body = cur.text.slice(from, m.index);
  if (body.length >= 2 && body.startsWith(" ") && body.endsWith(" ") && body.trim() !== "") {
    body = body.slice(1, -1);
  }
  cur.pos = m.index + open.length;
  return body;
}

const longestRun = (text: string, ch: string): number =>
  Math.max(0, ...(text.match(new RegExp(`${ch}+`, "g")) ?? []).map((r) => r.length));

/** Write a non-empty one-line string as a code span that `readCodeSpan` reads back exactly. */
export function codeSpan(text: string): string {
  const fence = "`".repeat(longestRun(text, "`") + 1);
  const pad =
    text.startsWith("`") ||
    text.endsWith("`") ||
    (text.startsWith(" ") && text.endsWith(" ") && text.trim() !== "");
  return pad ? `${fence} ${text} ${fence}` : `${fence}${text}${fence}`;
}

/** The tilde fence for a block of text: longer than any run of tildes in it, at least 3. */
export function tildeFence(text: string): string {
  return "~".repeat(Math.max(3, longestRun(text, "~") + 1));
}

/** Write a string on one line: as is when that is unambiguous, else as a JSON string literal. */
export function inlineValue(text: string): string {
  const plain = text !== "" && !/[\r\n]/.test(text) && text === text.trim() && !text.startsWith('"');
  return plain ? text : JSON.stringify(text);
}

/** Read what `inlineValue` wrote; null when a quoted value is not a JSON string. */
export function readInlineValue(text: string): string | null {
  if (!text.startsWith('"')) return text;
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === "string" ? v : null;
  } catch {
    return null;
  }
}

/** Escape a table cell: `|` becomes `\|`. */
export const escapeCell = (cell: string): string => cell.replace(/\|/g, "\\|");

/** Split a table row into cells on unescaped `|`, unescaping `\|`; null when it is not a row. */
export function splitRow(line: string): string[] | null {
  const t = line.trim();
  if (!t.startsWith("|") || !t.endsWith("|") || t.endsWith("\\|")) return null;
  return t
    .slice(1, -1)
    .split(/(?<!\\)\|/)
    .map((c) => c.trim().replace(/\\\|/g, "|"));
}

/** Whether a regular expression source compiles. */
export function regexCompiles(source: string): boolean {
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}
