import { blockLine, blocks, type OpenBlock, openBlock } from "./blocks.js";

/** One line of a Markdown text: 1-based number, its offsets in the text, content without EOL. */
export type Line = {
  no: number;
  start: number;
  end: number;
  text: string;
  /** Not plan text: inside fenced code, an HTML comment block or the front matter. */
  hidden: boolean;
  /** Part of a heading at the margin (an ATX heading line, or a setext heading's text and underline); see `LineModel.nested`. */
  heading: boolean;
  /** A thematic break (`---`, `***`, `___`) at the margin, as the block reader reads one: no setext underline, in no list item or block quote. */
  rule: boolean;
  /** A thematic break anywhere, at the margin or in containers (see `endsList`). */
  thematic: boolean;
  /** How many containers (list items, block quotes) hold the line, as the block reader reads it. */
  depth: number;
  /** Part of an HTML comment block (hidden too). */
  comment: boolean;
  /** Inside a list item (its first line, a continuation, or code in it), as CommonMark reads containers. */
  listed: boolean;
};

/** A heading outside fences: the index of its first line, its level and text, and where its body starts. */
export type Heading = { index: number; level: number; text: string; body: number };

/** The line model of a text: lines (hidden ones marked), headings, and the prose-marked ranges. */
export type LineModel = {
  source: string;
  lines: Line[];
  headings: Heading[];
  /** Headings inside a list item or a block quote (`- ### Stage 2`, `> ## Notes`): never a section or a stage. */
  nested: Heading[];
  /** Indices of `<!-- decay: prose -->` marker lines, in ascending order. */
  proseMarks: Set<number>;
  /** A fence or an HTML comment block never closed (it runs to the end), with its first line's index; null when none. */
  open: OpenBlock | null;
  /**
   * The first line whose HTML comment block closes with text after its `-->` (`<!-- x --> Do
   * not …`): Markdown shows that text, but it is part of the comment's block; null when none.
   */
  afterComment: number | null;
};

/** Whether the line that ends a comment block holds text after its `-->` (other comments on it aside). */
function textAfterClose(text: string, from: number): boolean {
  const close = text.indexOf("-->", from);
  return (
    close !== -1 &&
    text
      .slice(close + 3)
      .replace(/<!--[\s\S]*?-->/g, "")
      .trim() !== ""
  );
}

const PROSE_MARK = /^<!--\s*decay:\s*prose\s*-->\s*$/i;

function splitLines(source: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  for (let no = 1; start <= source.length; no++) {
    const nl = source.indexOf("\n", start);
    const end = nl === -1 ? source.length : nl;
    const text = source.slice(start, end).replace(/\r$/, "");
    lines.push({ no, start, end, text, hidden: false, heading: false, rule: false, thematic: false, depth: 0, comment: false, listed: false });
    if (nl === -1) break;
    start = nl + 1;
  }
  return lines;
}

/** Hide a YAML front matter block (`---` on line 1 to the next `---` or `...`); returns the first line after it. */
function hideFrontMatter(lines: Line[]): number {
  if (lines[0]?.text !== "---") return 0;
  const close = lines.findIndex((l, i) => i > 0 && (l.text === "---" || l.text === "..."));
  // A Markdown heading in between means the first line was a thematic break, not front matter.
  if (close === -1 || lines.slice(1, close).some((l) => /^#{1,6}\s/.test(l.text))) return 0;
  for (let i = 0; i <= close; i++) (lines[i] as Line).hidden = true;
  return close + 1;
}

/**
 * Split text into lines (LF, CR stripped from content) and read each as CommonMark reads blocks
 * (blocks.ts): code (fenced, also in list items and block quotes, and indented), HTML comment
 * blocks and front matter are hidden; headings (ATX and setext) and thematic breaks are marked. A
 * heading inside a list item or a block quote is no section or stage heading: it goes to `nested`;
 * a thematic break there is no separator (`rule` marks only those at the margin).
 */
export function lineModel(source: string): LineModel {
  const lines = splitLines(source);
  const model: LineModel = { source, lines, headings: [], nested: [], proseMarks: new Set(), open: null, afterComment: null };
  const state = blocks();
  // Where each line's content starts (past its containers): a setext heading's text is read from there.
  const content: number[] = [];
  for (let i = hideFrontMatter(lines); i < lines.length; i++) {
    const line = lines[i] as Line;
    const b = blockLine(state, line.text, i);
    line.listed = b.listed;
    line.depth = b.depth;
    content[i] = b.content;
    if (b.kind === "code") line.hidden = true;
    else if (b.kind === "comment" || b.kind === "opens-comment") {
      line.hidden = true;
      line.comment = true;
      if (b.kind === "opens-comment" && PROSE_MARK.test(line.text.slice(b.content))) model.proseMarks.add(i);
      if (model.afterComment === null && textAfterClose(line.text, b.kind === "opens-comment" ? b.content + 4 : 0)) model.afterComment = i;
    } else if (b.kind === "heading") {
      const atx = atxHeading(line.text.slice(b.content)) ?? { level: 1, text: "" };
      addHeading(model, b.nested, { index: i, level: atx.level, text: atx.text, body: i + 1 });
    } else if (b.kind === "underline") {
      const text = lines
        .slice(b.from, i)
        .map((l, k) => l.text.slice(content[b.from + k]).trim())
        .join(" ");
      addHeading(model, b.nested, { index: b.from, level: b.level, text, body: i + 1 });
    } else if (b.kind === "break") {
      // A break inside a list item or a quote (`  ---` under `- \`a\``) is its content, as in CommonMark: it ends no list.
      line.rule = !b.nested;
      line.thematic = true;
    }
  }
  model.open = openBlock(state);
  return model;
}

/** Record a heading: a section or stage heading at the margin (its lines marked), else one nested in a container. */
function addHeading(model: LineModel, nested: boolean, heading: Heading): void {
  if (nested) {
    model.nested.push(heading);
    return;
  }
  for (let k = heading.index; k < heading.body; k++) (model.lines[k] as Line).heading = true;
  model.headings.push(heading);
}

/**
 * An ATX heading: 0-3 spaces, 1-6 `#`, then a space, a tab or the line's end; its level and text
 * (a closing run of `#` after a space dropped). Scanned by hand: linear on any line.
 */
export function atxHeading(text: string): { level: number; text: string } | null {
  let pos = 0;
  while (pos < 3 && text[pos] === " ") pos++;
  let level = 0;
  while (text[pos + level] === "#") level++;
  const after = text[pos + level];
  if (level < 1 || level > 6 || (after !== undefined && after !== " " && after !== "\t")) return null;
  let end = text.length;
  while (end > pos + level && (text[end - 1] === " " || text[end - 1] === "\t")) end--;
  let hashes = end;
  while (hashes > pos + level && text[hashes - 1] === "#") hashes--;
  // A closing sequence needs a space or tab before it (or is all there is).
  if (hashes === pos + level || text[hashes - 1] === " " || text[hashes - 1] === "\t") end = hashes;
  return { level, text: text.slice(pos + level, end).trim() };
}

/** The position in `headings` (in line order) of the first heading at or after line index `line`. */
function firstFrom(headings: Heading[], line: number): number {
  let lo = 0;
  let hi = headings.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((headings[mid] as Heading).index < line) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The position in `model.headings` (which are in line order) of the first heading at or after line index `line`. */
export const headingFrom = (model: LineModel, line: number): number => firstFrom(model.headings, line);

/** The index of the line under line index `line` when it underlines it, the two a setext heading (at the margin or in a container); undefined otherwise. */
export function underlineOf(model: LineModel, line: number): number | undefined {
  for (const list of [model.headings, model.nested]) {
    const h = list[firstFrom(list, line)];
    if (h?.index === line && h.body === line + 2) return line + 1;
  }
  return undefined;
}

/**
 * Whether `line` is a thematic break that ends the list whose first item is `first`: one held by fewer
 * containers than the item's text (at the margin, or at a numbered stage's text under its items), as
 * CommonMark closes the item there. A break indented into the item is the item's content.
 */
export const endsList = (line: Line, first: Line): boolean => line.thematic && line.depth < first.depth;

/** Whether a line is plan text a reader looks at: not hidden, not a heading, not a thematic break. */
export const isText = (line: Line | undefined): line is Line => !!line && !line.hidden && !line.heading && !line.rule;

/**
 * The verbatim text of lines [from, to) with trailing blank lines, thematic breaks and HTML
 * comments trimmed; "" when nothing is left. The result is always a substring of the source.
 */
export function verbatim(model: LineModel, from: number, to: number, startAt?: number): string {
  let last = to - 1;
  while (last >= from) {
    const l = model.lines[last];
    if (!l || !(l.text.trim() === "" || l.rule || l.comment)) break;
    last--;
  }
  const first = model.lines[from];
  const end = model.lines[last];
  if (!first || !end || last < from) return "";
  const begin = startAt ?? first.start;
  const stop = end.start + end.text.length;
  return stop > begin ? model.source.slice(begin, stop) : "";
}

/**
 * The container markers a line may open with, in any order and nesting: blockquote `>`, list items
 * (`-`, `*`, `+`, `1.`, `1)`) and task checkboxes (`[ ]`, `[x]`): `- > Acceptance:` is a quote in a
 * list item, `> - [x] Acceptance:` a checked item in a quote.
 */
const CONTAINER = /(?:>\s*|(?:[-*+]|\d{1,9}[.)])\s+|\[[ xX]\]\s+)/y;

/**
 * Where the run of container markers that starts at `pos` ends (`pos` when there is none). Read one
 * marker at a time: a regex repeating the group would backtrack through a stack as deep as the run,
 * and a line of millions of markers would overflow it.
 */
export const containersEnd = (text: string, pos: number): number => repeatEnd(CONTAINER, text, pos);

/** Where a run of sticky `one` (each match non-empty) from `pos` ends, matched one at a time. */
export function repeatEnd(one: RegExp, text: string, pos: number): number {
  let at = pos;
  for (;;) {
    one.lastIndex = at;
    if (!one.test(text)) return at;
    at = one.lastIndex;
  }
}

/** Match sticky `re` at a line's label: past its leading blanks and its container markers. */
export function afterContainers(re: RegExp, text: string): RegExpExecArray | null {
  re.lastIndex = containersEnd(text, text.length - text.trimStart().length);
  return re.exec(text);
}

/** A hidden line's text with its comment markers (`<!--`, `-->`) and its container markers dropped. */
export function uncommented(text: string): string {
  let t = text.trim();
  if (t.startsWith("<!--")) t = t.slice(4);
  if (t.endsWith("-->")) t = t.slice(0, -3);
  t = t.trim();
  return t.slice(containersEnd(t, 0));
}
