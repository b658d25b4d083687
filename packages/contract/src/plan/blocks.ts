// Which lines of a Markdown text are code, read as CommonMark reads blocks: fenced code (also
// inside list items and block quotes) and indented code, with the containers around them tracked.
// One pass, each line scanned a bounded number of times: linear on any input.

/** A container a line may continue: a block quote, or a list item whose content starts at `indent`. */
type Box = { quote: true } | { quote: false; indent: number };

/** An open fenced code block: its character, the length of its opening run, and how many containers hold it. */
type Fence = { char: string; len: number; depth: number; line: number };

/**
 * The block state carried from one line to the next. `quotes` holds the indices of the quote boxes,
 * so that a blank line (which ends the first quote and continues every list item) and "is this line
 * in a list item" cost no walk over a deep nesting.
 */
export type Blocks = { boxes: Box[]; quotes: number[]; fence: Fence | null; paragraph: boolean };

/** A fresh block state, at the top of a document. */
export const blocks = (): Blocks => ({ boxes: [], quotes: [], fence: null, paragraph: false });

/** Close every box from index `n` on. */
function truncate(state: Blocks, n: number): void {
  state.boxes.length = n;
  while ((state.quotes[state.quotes.length - 1] ?? -1) >= n) state.quotes.pop();
}

/** Open a box. */
function push(state: Blocks, box: Box): void {
  if (box.quote) state.quotes.push(state.boxes.length);
  state.boxes.push(box);
  state.paragraph = false;
}

type At = { pos: number; col: number };

/** Skip spaces and tabs from `at` (a tab runs to the next multiple of 4 columns), stopping once `limit` columns are reached. */
function skip(text: string, at: At, limit = Number.POSITIVE_INFINITY): At {
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
function run(text: string, pos: number, c: string): number {
  let end = pos;
  while (text[end] === c) end++;
  return end - pos;
}

/** Whether text from `pos` holds only spaces and tabs. */
function blankFrom(text: string, pos: number): boolean {
  for (let i = pos; i < text.length; i++) if (text[i] !== " " && text[i] !== "\t") return false;
  return true;
}

/** A fence opening at `pos`: three or more backticks with no backtick after them, or three or more tildes. */
function fenceAt(text: string, pos: number): { char: string; len: number } | null {
  const c = text[pos];
  if (c !== "`" && c !== "~") return null;
  const len = run(text, pos, c);
  if (len < 3) return null;
  // CommonMark: the info string of a backtick fence holds no backtick; such a line is a paragraph.
  if (c === "`" && text.indexOf("`", pos + len) !== -1) return null;
  return { char: c, len };
}

/** A thematic break at `pos`: three or more of one of `-`, `*`, `_`, with only spaces and tabs between. */
function ruleAt(text: string, pos: number): boolean {
  const c = text[pos];
  if (c !== "-" && c !== "*" && c !== "_") return false;
  let n = 0;
  for (let i = pos; i < text.length; i++) {
    if (text[i] === c) n++;
    else if (text[i] !== " " && text[i] !== "\t") return false;
  }
  return n >= 3;
}

/** A list marker at `pos` (`-`, `*`, `+`, `1.`, `1)`) followed by a space, a tab or the line's end: its length and number. */
function markerAt(text: string, pos: number): { len: number; ordered: number | null } | null {
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

/** The number of ASCII digits at `pos`, at most 9 (a list number has at most 9). */
function run9(text: string, pos: number): number {
  let n = 0;
  while (n < 10 && text.charCodeAt(pos + n) >= 48 && text.charCodeAt(pos + n) <= 57) n++;
  return n <= 9 ? n : 0;
}

/** An ATX heading's opening at `pos`: one to six `#` then a space, a tab or the line's end. */
function atxAt(text: string, pos: number): boolean {
  const n = run(text, pos, "#");
  const after = text[pos + n];
  return n >= 1 && n <= 6 && (after === undefined || after === " " || after === "\t");
}

/** Whether the text at `at` (indented less than 4 past `col`) starts a block that ends a paragraph. */
function interrupts(text: string, at: At, col: number): boolean {
  if (at.col - col >= 4 || at.pos >= text.length) return at.pos >= text.length;
  const c = text[at.pos];
  if (c === ">" || fenceAt(text, at.pos) || atxAt(text, at.pos) || ruleAt(text, at.pos) || text.startsWith("<!--", at.pos)) return true;
  const m = markerAt(text, at.pos);
  return m !== null && !blankFrom(text, at.pos + m.len) && (m.ordered === null || m.ordered === 1);
}

/** Continue the open containers on a line: how many it continues, and where its content starts. */
function continued(state: Blocks, text: string): { matched: number; at: At } {
  let at: At = { pos: 0, col: 0 };
  // A blank line continues every list item and no quote.
  if (blankFrom(text, 0)) return { matched: state.quotes[0] ?? state.boxes.length, at: skip(text, at) };
  let matched = 0;
  for (const box of state.boxes) {
    if (box.quote) {
      const w = skip(text, at);
      if (w.col - at.col > 3 || text[w.pos] !== ">") break;
      at = { pos: w.pos + 1, col: w.col + 1 };
      if (text[at.pos] === " " || text[at.pos] === "\t") at = { pos: at.pos + 1, col: at.col + 1 };
    } else if (!blankFrom(text, at.pos)) {
      const w = skip(text, at, box.indent);
      if (w.col < box.indent) break;
      at = w;
    }
    matched++;
  }
  return { matched, at };
}

/**
 * Open the block quotes and list items a line starts at `at`; returns where its content starts.
 * Whether the rest is a thematic break is asked only where nothing but one character and blanks
 * is left (from `uniform` on), so a line of many markers is scanned once, not once per marker.
 */
function open(state: Blocks, text: string, from: At): At {
  let at = from;
  const uniform = uniformFrom(text);
  for (;;) {
    const w = skip(text, at);
    if (w.col - at.col >= 4 || (w.pos >= uniform && ruleAt(text, w.pos))) return at;
    if (text[w.pos] === ">") {
      push(state, { quote: true });
      at = { pos: w.pos + 1, col: w.col + 1 };
      if (text[at.pos] === " " || text[at.pos] === "\t") at = { pos: at.pos + 1, col: at.col + 1 };
      continue;
    }
    const m = markerAt(text, w.pos);
    const empty = m !== null && blankFrom(text, w.pos + m.len);
    // A list item interrupts a paragraph only when it holds text and, if ordered, is numbered 1.
    if (!m || (state.paragraph && (empty || (m.ordered !== null && m.ordered !== 1)))) return at;
    const end = { pos: w.pos + m.len, col: w.col + m.len };
    const content = skip(text, end);
    // Five or more spaces after the marker: the content is indented code one column past it.
    const far = empty || content.col - end.col > 4;
    at = far ? { pos: Math.min(end.pos + 1, text.length), col: end.col + 1 } : content;
    push(state, { quote: false, indent: at.col });
  }
}

/** The first index from which the line holds only blanks and one character repeated (a thematic break can start no earlier). */
function uniformFrom(text: string): number {
  let i = text.length - 1;
  while (i >= 0 && (text[i] === " " || text[i] === "\t")) i--;
  const c = text[i];
  while (i >= 0 && (text[i] === c || text[i] === " " || text[i] === "\t")) i--;
  return i + 1;
}

/** Inside an open fence: whether this line closes it (a run of its character as long, then nothing). */
function closes(fence: Fence, text: string, at: At): boolean {
  const w = skip(text, at);
  if (w.col - at.col > 3 || text[w.pos] !== fence.char) return false;
  const len = run(text, w.pos, fence.char);
  return len >= fence.len && blankFrom(text, w.pos + len);
}

/**
 * Read one line into the block state: true when the line is code (a fence line, a line inside a
 * fence, or indented code), false when it is text, blank or the start of another block.
 */
export function codeLine(state: Blocks, text: string, no: number): boolean {
  const blank = blankFrom(text, 0);
  const { matched, at } = continued(state, text);
  const fence = state.fence;
  if (fence && matched >= fence.depth) {
    if (closes(fence, text, at)) state.fence = null;
    return true;
  }
  // A container that does not go on closes what it holds: a fence in it ends there.
  state.fence = null;
  if (matched < state.boxes.length) {
    // A lazy continuation line: paragraph text that does not start a block of its own.
    if (state.paragraph && !blank && !interrupts(text, skip(text, at), at.col)) return false;
    truncate(state, matched);
    state.paragraph = false;
  }
  const start = open(state, text, at);
  const w = skip(text, start);
  if (w.pos >= text.length) {
    state.paragraph = false;
    return false;
  }
  if (w.col - start.col >= 4 && !state.paragraph) return true;
  const f = w.col - start.col < 4 ? fenceAt(text, w.pos) : null;
  if (f) {
    state.fence = { ...f, depth: state.boxes.length, line: no };
    state.paragraph = false;
    return true;
  }
  state.paragraph = !(w.col - start.col < 4 && (atxAt(text, w.pos) || ruleAt(text, w.pos)));
  return false;
}

/** The line number of a fence still open at the end of the text (CommonMark runs it to the end); null when none. */
export const openFence = (state: Blocks): number | null => state.fence?.line ?? null;

/** Whether the line just read sits in a list item (as its content, a continuation or code in it). */
export const inListItem = (state: Blocks): boolean => state.boxes.length > state.quotes.length;

/** Forget a paragraph in progress: an HTML comment block ended it. */
export function endParagraph(state: Blocks): void {
  state.paragraph = false;
}
