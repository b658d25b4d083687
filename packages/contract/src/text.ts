// Encodings shared by the plan reader, the contract renderer and the contract parser.

/** A cursor over one line of text. */
export type Cursor = { text: string; pos: number };

/** The length of the run of `ch` starting at `from`. */
function runAt(text: string, from: number, ch: string): number {
  let end = from;
  while (text[end] === ch) end++;
  return end - from;
}

/** The start of the next run of exactly `length` backticks at or after `from`; -1 when there is none. */
function closingRun(text: string, from: number, length: number): number {
  for (let i = text.indexOf("`", from); i !== -1; ) {
    const run = runAt(text, i, "`");
    if (run === length) return i;
    i = text.indexOf("`", i + run);
  }
  return -1;
}

/**
 * Read a Markdown code span at the cursor (any backtick run length); null when there is none.
 * Scans the text: no regular expression is built from it, whatever its runs of backticks.
 */
export function readCodeSpan(cur: Cursor): string | null {
  const length = runAt(cur.text, cur.pos, "`");
  if (length === 0) return null;
  const from = cur.pos + length;
  const close = closingRun(cur.text, from, length);
  if (close === -1) return null;
  let body = cur.text.slice(from, close);
  if (body.length >= 2 && body.startsWith(" ") && body.endsWith(" ") && body.trim() !== "") {
    body = body.slice(1, -1);
  }
  cur.pos = close + length;
  return body;
}

function longestRun(text: string, ch: string): number {
  let longest = 0;
  for (let i = text.indexOf(ch); i !== -1; ) {
    const run = runAt(text, i, ch);
    if (run > longest) longest = run;
    i = text.indexOf(ch, i + run);
  }
  return longest;
}

/** Write a non-empty one-line string as a code span that `readCodeSpan` reads back exactly. */
export function codeSpan(text: string): string {
  const fence = "`".repeat(longestRun(text, "`") + 1);
  const pad = text.startsWith("`") || text.endsWith("`") || (text.startsWith(" ") && text.endsWith(" ") && text.trim() !== "");
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

/**
 * Split a table row into cells on unescaped `|`, unescaping `\|`; null when it is not a row. A
 * cell loses the one space on each side the renderer writes, and no more: a cell padded otherwise
 * (`|  0  |`) keeps the rest, for the reader to refuse, since it would not read back as written.
 */
export function splitRow(line: string): string[] | null {
  const t = line.trim();
  if (!t.startsWith("|") || !t.endsWith("|") || t.endsWith("\\|")) return null;
  return t
    .slice(1, -1)
    .split(/(?<!\\)\|/)
    .map((c) => (c.length >= 2 && c.startsWith(" ") && c.endsWith(" ") ? c.slice(1, -1) : c).replace(/\\\|/g, "|"));
}

/**
 * Whether a regular expression source matches the empty string, or `undefined` when it does not
 * compile: it must parse, and compile when first run (V8 compiles on the first match, where a
 * pattern it parsed can still be too large or overflow its stack).
 */
export function matchesEmpty(source: string): boolean | undefined {
  try {
    return new RegExp(source).test("");
  } catch {
    return undefined;
  }
}

/** Whether a regular expression source compiles (see `matchesEmpty`). */
export function regexCompiles(source: string): boolean {
  return matchesEmpty(source) !== undefined;
}
