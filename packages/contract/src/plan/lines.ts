import { blocks, codeLine, endParagraph, inListItem, openFence } from "./blocks.js";

/** One line of a Markdown text: 1-based number, its offsets in the text, content without EOL. */
export type Line = {
  no: number;
  start: number;
  end: number;
  text: string;
  /** Not plan text: inside fenced code, an HTML comment block or the front matter. */
  hidden: boolean;
  /** Part of a heading (an ATX heading line, or a setext heading's text and underline). */
  heading: boolean;
  /** A thematic break (`---`, `***`, `___`) that is not a setext underline. */
  rule: boolean;
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
  /** Indices of `<!-- decay: prose -->` marker lines. */
  proseMarks: number[];
  /** The index of a fence's opening line when the fence is never closed (it runs to the end); null when none. */
  openFence: number | null;
};

const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
const RULE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const BLOCK_START = /^ {0,3}(?:[-*+][ \t]|\d{1,9}[.)][ \t]|>|\|)/;
const PROSE_MARK = /^ {0,3}<!--\s*decay:\s*prose\s*-->\s*$/i;

function splitLines(source: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  for (let no = 1; start <= source.length; no++) {
    const nl = source.indexOf("\n", start);
    const end = nl === -1 ? source.length : nl;
    const text = source.slice(start, end).replace(/\r$/, "");
    lines.push({ no, start, end, text, hidden: false, heading: false, rule: false, comment: false, listed: false });
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

/** The first line of the paragraph a setext underline at `i` closes; null when the line above is no paragraph. */
function setextStart(lines: Line[], i: number): number | null {
  let from = i;
  while (from > 0) {
    const above = lines[from - 1] as Line;
    if (above.text.trim() === "" || above.hidden || above.heading || above.rule) break;
    from--;
  }
  if (from === i) return null;
  // A list item, a quote or a table above makes the underline a thematic break, not a heading.
  for (let k = from; k < i; k++) if (BLOCK_START.test((lines[k] as Line).text) || /^ {4}/.test((lines[k] as Line).text)) return null;
  return from;
}

/**
 * Split text into lines (LF, CR stripped from content); mark code (fenced, also in list items and
 * block quotes, and indented, as CommonMark reads it), HTML comment blocks and front matter hidden;
 * find ATX and setext headings and thematic breaks outside them.
 */
export function lineModel(source: string): LineModel {
  const lines = splitLines(source);
  const headings: Heading[] = [];
  const proseMarks: number[] = [];
  const state = blocks();
  let comment = false;
  for (let i = hideFrontMatter(lines); i < lines.length; i++) {
    const line = lines[i] as Line;
    const text = line.text;
    if (comment) {
      line.hidden = true;
      line.comment = true;
      comment = !text.includes("-->");
      continue;
    }
    const code = codeLine(state, text, i);
    line.listed = inListItem(state);
    if (code) line.hidden = true;
    else if (/^ {0,3}<!--/.test(text)) {
      endParagraph(state);
      line.hidden = true;
      line.comment = true;
      if (PROSE_MARK.test(text)) proseMarks.push(i);
      comment = !text.slice(text.indexOf("<!--") + 4).includes("-->");
    } else readHeading(lines, i, headings);
  }
  return { source, lines, headings, proseMarks, openFence: openFence(state) };
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

/** Record an ATX heading, a setext heading or a thematic break at line `i`. */
function readHeading(lines: Line[], i: number, headings: Heading[]): void {
  const line = lines[i] as Line;
  const atx = atxHeading(line.text);
  if (atx) {
    line.heading = true;
    headings.push({ index: i, level: atx.level, text: atx.text, body: i + 1 });
    return;
  }
  const under = SETEXT.exec(line.text)?.[1];
  const from = under ? setextStart(lines, i) : null;
  if (under && from !== null) {
    const text = lines
      .slice(from, i)
      .map((l) => l.text.trim())
      .join(" ");
    for (let k = from; k <= i; k++) (lines[k] as Line).heading = true;
    headings.push({ index: from, level: under[0] === "=" ? 1 : 2, text, body: i + 1 });
    return;
  }
  if (RULE.test(line.text)) line.rule = true;
}

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
export const CONTAINERS = String.raw`(?:>\s*|(?:[-*+]|\d{1,9}[.)])\s+|\[[ xX]\]\s+)*`;
