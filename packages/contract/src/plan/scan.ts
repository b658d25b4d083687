// Character-level scanning for the block reader: each function looks at one line from a position
// and scans each character at most once, so no line costs more than its length.

/** A position in a line: its index and its column (a tab runs to the next multiple of 4). */
export type At = { pos: number; col: number };

/** Skip spaces and tabs from `at` (a tab runs to the next multiple of 4 columns), stopping once `limit` columns are reached. */
export function skip(text: string, at: At, limit = Number.POSITIVE_INFINITY): At {
  let { pos, col } = at;
  while (pos < text.length && col < limit) {
    const c = text[pos];
    if (c === " ") col++;
    else if (c === "\t") col += 4 - (col % 4);
    else break;
    pos++;
  }
  return { pos, col };
}

/** The length of the run of `c` at `pos`. */
export function run(text: string, pos: number, c: string): number {
  let end = pos;
  while (text[end] === c) end++;
  return end - pos;
}

/** Whether text from `pos` holds only spaces and tabs. */
export function blankFrom(text: string, pos: number): boolean {
  for (let i = pos; i < text.length; i++) if (text[i] !== " " && text[i] !== "\t") return false;
  return true;
}

/** The index just past the last character of a line that is no space or tab (0 for a blank line): text from `pos` is blank when `pos` is at or past it. */
export function contentEnd(text: string): number {
  let end = text.length;
  while (end > 0 && (text[end - 1] === " " || text[end - 1] === "\t")) end--;
  return end;
}

/** A fence opening at `pos`: three or more backticks with no backtick after them, or three or more tildes. */
export function fenceAt(text: string, pos: number): { char: string; len: number } | null {
  const c = text[pos];
  if (c !== "`" && c !== "~") return null;
  const len = run(text, pos, c);
  if (len < 3) return null;
  // CommonMark: the info string of a backtick fence holds no backtick; such a line is a paragraph.
  if (c === "`" && text.indexOf("`", pos + len) !== -1) return null;
  return { char: c, len };
}

/** A thematic break at `pos`: three or more of one of `-`, `*`, `_`, with only spaces and tabs between. */
export function ruleAt(text: string, pos: number): boolean {
  const c = text[pos];
  if (c !== "-" && c !== "*" && c !== "_") return false;
  let n = 0;
  for (let i = pos; i < text.length; i++) {
    if (text[i] === c) n++;
    else if (text[i] !== " " && text[i] !== "\t") return false;
  }
  return n >= 3;
}

/** A setext underline at `pos`: a run of `=` (level 1) or `-` (level 2), then only spaces and tabs; 0 when none. */
export function underlineAt(text: string, pos: number): 0 | 1 | 2 {
  const c = text[pos];
  if (c !== "=" && c !== "-") return 0;
  if (!blankFrom(text, pos + run(text, pos, c))) return 0;
  return c === "=" ? 1 : 2;
}

/** A list marker at `pos` (`-`, `*`, `+`, `1.`, `1)`) followed by a space, a tab or the line's end: its length and number. */
export function markerAt(text: string, pos: number): { len: number; ordered: number | null } | null {
  const c = text[pos] ?? "";
  let len = 0;
  let ordered: number | null = null;
  if (c === "-" || c === "*" || c === "+") len = 1;
  else {
    const digits = run9(text, pos);
    if (digits === 0 || (text[pos + digits] !== "." && text[pos + digits] !== ")")) return null;
    ordered = Number(text.slice(pos, pos + digits));
    len = digits + 1;
  }
  const after = text[pos + len];
  return after === undefined || after === " " || after === "\t" ? { len, ordered } : null;
}

/**
 * A list item whose marker is at `at`: its number when ordered, where its marker ends, where its
 * text starts (past every blank after the marker) and where its content starts as CommonMark counts
 * it: 1 to 4 columns past the marker (a tab to the next multiple of 4), else 1 (an empty item, or
 * one whose text is indented code).
 */
export type ListItem = { ordered: number | null; end: At; text: number; content: At };

/** The list item whose marker is at `at`; null when there is none. */
export function listItemAt(text: string, at: At): ListItem | null {
  const m = markerAt(text, at.pos);
  if (!m) return null;
  const end = { pos: at.pos + m.len, col: at.col + m.len };
  const after = skip(text, end);
  const far = after.pos >= text.length || after.col - end.col > 4;
  const content = far ? { pos: Math.min(end.pos + 1, text.length), col: end.col + 1 } : after;
  return { ordered: m.ordered, end, text: after.pos, content };
}

/** The number of ASCII digits at `pos`, at most 9 (a list number has at most 9). */
function run9(text: string, pos: number): number {
  let n = 0;
  while (n < 10 && text.charCodeAt(pos + n) >= 48 && text.charCodeAt(pos + n) <= 57) n++;
  return n <= 9 ? n : 0;
}

/** An ATX heading's opening at `pos`: one to six `#` then a space, a tab or the line's end. */
export function atxAt(text: string, pos: number): boolean {
  const n = run(text, pos, "#");
  const after = text[pos + n];
  return n >= 1 && n <= 6 && (after === undefined || after === " " || after === "\t");
}

/** The first index from which the line holds only blanks and one character repeated (a thematic break can start no earlier). */
export function uniformFrom(text: string): number {
  let i = text.length - 1;
  while (i >= 0 && (text[i] === " " || text[i] === "\t")) i--;
  const c = text[i];
  while (i >= 0 && (text[i] === c || text[i] === " " || text[i] === "\t")) i--;
  return i + 1;
}
