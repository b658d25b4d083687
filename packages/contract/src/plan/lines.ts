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
};

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
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
    lines.push({ no, start, end, text, hidden: false, heading: false, rule: false, comment: false });
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
 * Split text into lines (LF, CR stripped from content); mark fenced code, HTML comment blocks and
 * front matter hidden; find ATX and setext headings and thematic breaks outside them.
 */
export function lineModel(source: string): LineModel {
  const lines = splitLines(source);
  const headings: Heading[] = [];
  const proseMarks: number[] = [];
  let fence: string | null = null;
  let comment = false;
  for (let i = hideFrontMatter(lines); i < lines.length; i++) {
    const line = lines[i] as Line;
    const text = line.text;
    if (fence !== null || comment) {
      line.hidden = true;
      line.comment = comment;
      if (comment) comment = !text.includes("-->");
      else {
        const close = FENCE.exec(text)?.[1];
        if (close && close[0] === fence?.[0] && close.length >= (fence?.length ?? 0) && text.trim() === close) fence = null;
      }
      continue;
    }
    const open = FENCE.exec(text)?.[1];
    if (open) {
      fence = open;
      line.hidden = true;
    } else if (/^ {0,3}<!--/.test(text)) {
      line.hidden = true;
      line.comment = true;
      if (PROSE_MARK.test(text)) proseMarks.push(i);
      comment = !text.slice(text.indexOf("<!--") + 4).includes("-->");
    } else readHeading(lines, i, headings);
  }
  return { source, lines, headings, proseMarks };
}

/** Record an ATX heading, a setext heading or a thematic break at line `i`. */
function readHeading(lines: Line[], i: number, headings: Heading[]): void {
  const line = lines[i] as Line;
  const atx = HEADING.exec(line.text);
  if (atx?.[1]) {
    line.heading = true;
    headings.push({ index: i, level: atx[1].length, text: (atx[2] ?? "").trim(), body: i + 1 });
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
