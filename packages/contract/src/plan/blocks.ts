// What each line of a Markdown text is, read as CommonMark reads blocks: containers (block quotes
// and list items) and, inside them, fenced and indented code, HTML comments, headings (ATX and
// setext), thematic breaks and paragraphs. One pass, each line scanned a bounded number of times:
// linear on any input. The line model takes headings, comments and code from here, never from a
// line's raw text, so `- ### Stage 2` or `> <!--` are read at their container's content.
import { type At, atxAt, blankFrom, contentEnd, fenceAt, type ListItem, listItemAt, ruleAt, run, skip, underlineAt, uniformFrom } from "./scan.js";

/** A container a line may continue: a block quote, or a list item whose content starts at `indent`. */
type Box = { quote: true } | { quote: false; indent: number };

/** An open fenced code block: its character, the length of its opening run, and how many containers hold it. */
type Fence = { char: string; len: number; depth: number; line: number };

/** An open paragraph: the index of its first line, and whether a line of it starts with `|` (a table: `---` under it is a break). */
type Paragraph = { from: number; table: boolean };

/**
 * The block state carried from one line to the next. `quotes` holds the indices of the quote boxes,
 * so that a blank line (which ends the first quote and continues every list item) and "is this line
 * in a list item" cost no walk over a deep nesting. `comment`: the line an open HTML comment block
 * started on; null when none is open.
 */
export type Blocks = { boxes: Box[]; quotes: number[]; fence: Fence | null; paragraph: Paragraph | null; comment: number | null };

/** A fresh block state, at the top of a document. */
export const blocks = (): Blocks => ({ boxes: [], quotes: [], fence: null, paragraph: null, comment: null });

/**
 * What a line is. `opens-comment` and `comment`: the first and a later line of an HTML comment block;
 * `underline`: a setext underline, which makes the paragraph above (from `from`) a heading of `level`;
 * `break`: a thematic break.
 */
export type BlockKind = "code" | "opens-comment" | "comment" | "blank" | "heading" | "underline" | "break" | "text";

/**
 * One line as read: its kind; where its content starts (past its containers' markers and
 * indentation, and its own indentation up to 3 columns); whether a container (a list item or a block
 * quote) holds it, and a list item, and how many containers hold it (`depth`); for an underline, its
 * paragraph's first line and its level.
 */
export type BlockLine = { kind: BlockKind; content: number; nested: boolean; listed: boolean; depth: number; from: number; level: number };

/** Close every box from index `n` on. */
function truncate(state: Blocks, n: number): void {
  state.boxes.length = n;
  while ((state.quotes[state.quotes.length - 1] ?? -1) >= n) state.quotes.pop();
}

/** Open a box. */
function push(state: Blocks, box: Box): void {
  if (box.quote) state.quotes.push(state.boxes.length);
  state.boxes.push(box);
  state.paragraph = null;
}

/** Whether the text at `at` (indented less than 4 past `col`) starts a block that ends a paragraph. */
function interrupts(text: string, at: At, col: number): boolean {
  if (at.col - col >= 4 || at.pos >= text.length) return at.pos >= text.length;
  const c = text[at.pos];
  if (c === ">" || fenceAt(text, at.pos) || atxAt(text, at.pos) || ruleAt(text, at.pos) || text.startsWith("<!--", at.pos)) return true;
  return interruptingItem(text, listItemAt(text, at));
}

/** Whether a list item may interrupt a paragraph: it holds text and, if ordered, is numbered 1. */
const interruptingItem = (text: string, item: ListItem | null): boolean =>
  item !== null && item.text < text.length && (item.ordered === null || item.ordered === 1);

/** The index of the first quote box at or after box index `from` (the number of boxes when none), found by halving `quotes`. */
function nextQuote(state: Blocks, from: number): number {
  let lo = 0;
  let hi = state.quotes.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((state.quotes[mid] as number) < from) lo = mid + 1;
    else hi = mid;
  }
  return state.quotes[lo] ?? state.boxes.length;
}

/**
 * Continue the open containers on a line: how many it continues, and where its content starts.
 * Each box continued takes at least one column of the line, except list items once the rest of the
 * line is blank: those up to the next quote are continued at once, so a line costs its length (and
 * a halving of the quotes), never the depth of the nesting.
 */
function continued(state: Blocks, text: string): { matched: number; at: At } {
  let at: At = { pos: 0, col: 0 };
  const end = contentEnd(text);
  // A blank line continues every list item and no quote.
  if (end === 0) return { matched: state.quotes[0] ?? state.boxes.length, at: skip(text, at) };
  let matched = 0;
  for (; matched < state.boxes.length; matched++) {
    const box = state.boxes[matched] as Box;
    if (box.quote) {
      const w = skip(text, at);
      if (w.col - at.col > 3 || text[w.pos] !== ">") break;
      at = { pos: w.pos + 1, col: w.col + 1 };
      if (text[at.pos] === " " || text[at.pos] === "\t") at = { pos: at.pos + 1, col: at.col + 1 };
    } else if (at.pos >= end) {
      // Blank from here: every list item up to the next quote goes on, and that quote (no `>` left) does not.
      return { matched: nextQuote(state, matched), at };
    } else {
      const w = skip(text, at, box.indent);
      if (w.col < box.indent) break;
      at = w;
    }
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
    const item = listItemAt(text, w);
    if (!item || (state.paragraph && !interruptingItem(text, item))) return at;
    at = item.content;
    push(state, { quote: false, indent: at.col });
  }
}

/** Inside an open fence: whether this line closes it (a run of its character as long, then nothing). */
function closes(fence: Fence, text: string, at: At): boolean {
  const w = skip(text, at);
  if (w.col - at.col > 3 || text[w.pos] !== fence.char) return false;
  const len = run(text, w.pos, fence.char);
  return len >= fence.len && blankFrom(text, w.pos + len);
}

/** The line as read, in the state after it. */
function read(state: Blocks, kind: BlockKind, content: number, from = -1, level = 0): BlockLine {
  const depth = state.boxes.length;
  return { kind, content, nested: depth > 0, listed: depth > state.quotes.length, depth, from, level };
}

/** A line of paragraph text at `pos`: it opens a paragraph at line `no` or continues the open one. */
function text(state: Blocks, line: string, pos: number, no: number): BlockLine {
  const table = line[pos] === "|";
  if (state.paragraph) state.paragraph.table ||= table;
  else state.paragraph = { from: no, table };
  return read(state, "text", pos);
}

/** A line's content from `start` (its containers opened): a leaf block's first line, or paragraph text. */
function leaf(state: Blocks, line: string, start: At, no: number): BlockLine {
  const w = skip(line, start);
  const paragraph = state.paragraph;
  state.paragraph = null;
  if (w.pos >= line.length) return read(state, "blank", w.pos);
  if (w.col - start.col >= 4) {
    // Indented code, unless it continues a paragraph.
    state.paragraph = paragraph;
    return paragraph ? text(state, line, w.pos, no) : read(state, "code", start.pos);
  }
  const f = fenceAt(line, w.pos);
  if (f) {
    state.fence = { ...f, depth: state.boxes.length, line: no };
    return read(state, "code", w.pos);
  }
  if (line.startsWith("<!--", w.pos)) {
    state.comment = line.includes("-->", w.pos + 4) ? null : no;
    return read(state, "opens-comment", w.pos);
  }
  if (atxAt(line, w.pos)) return read(state, "heading", w.pos);
  if (ruleAt(line, w.pos)) return read(state, "break", w.pos);
  state.paragraph = paragraph;
  return text(state, line, w.pos, no);
}

/**
 * Read line `no` (its index) into the block state and say what it is. An HTML comment block runs
 * from a line whose content starts `<!--` to the line holding `-->`, whatever containers the lines
 * between continue, and changes no container; a fence ends where its container ends.
 */
export function blockLine(state: Blocks, line: string, no: number): BlockLine {
  if (state.comment !== null) {
    if (line.includes("-->")) state.comment = null;
    return read(state, "comment", 0);
  }
  const blank = blankFrom(line, 0);
  const { matched, at } = continued(state, line);
  const fence = state.fence;
  if (fence && matched >= fence.depth) {
    if (closes(fence, line, at)) state.fence = null;
    return read(state, "code", at.pos);
  }
  // A container that does not go on closes what it holds: a fence in it ends there.
  state.fence = null;
  const paragraph = state.paragraph;
  if (matched < state.boxes.length) {
    // A lazy continuation line: paragraph text that does not start a block of its own.
    const w = skip(line, at);
    if (paragraph && !blank && !interrupts(line, w, at.col)) return text(state, line, w.pos, no);
    truncate(state, matched);
    state.paragraph = null;
  } else if (paragraph && !paragraph.table) {
    // Under a paragraph in the same containers, a run of `=` or `-` makes it a setext heading.
    const w = skip(line, at);
    const level = w.col - at.col < 4 ? underlineAt(line, w.pos) : 0;
    if (level > 0) {
      state.paragraph = null;
      return read(state, "underline", w.pos, paragraph.from, level);
    }
  }
  return leaf(state, line, open(state, line, at), no);
}

/** A block still open at the end of the text: it runs to the end (as CommonMark reads a fence or an HTML block). */
export type OpenBlock = { kind: "fence" | "comment"; line: number };

/** The fence or HTML comment block still open at the end of the text, with the index of its first line; null when none. */
export function openBlock(state: Blocks): OpenBlock | null {
  if (state.fence) return { kind: "fence", line: state.fence.line };
  return state.comment === null ? null : { kind: "comment", line: state.comment };
}
