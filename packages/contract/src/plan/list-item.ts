// What a list item is, for every reader of a stage's body and of a section: one reading of where an
// item's marker sits, how far its content is indented and where its text starts.
import { containersEnd } from "./lines.js";
import { listItemAt, skip } from "./scan.js";

/**
 * Leading columns of a line inside its first `depth` quotes (all when not given; a tab to the next
 * multiple of 4), where its text starts there, and how many quote markers were passed: `> - a` and
 * `>   b` sit in one quote, their columns counted inside it.
 */
export function indentOf(text: string, depth = Number.POSITIVE_INFINITY): { cols: number; pos: number; quotes: number } {
  let pos = 0;
  let quotes = 0;
  for (let q = text.indexOf(">"); quotes < depth && q !== -1 && text.slice(pos, q).trim() === ""; q = text.indexOf(">", pos)) {
    pos = q + 1;
    quotes++;
  }
  if (pos > 0 && (text[pos] === " " || text[pos] === "\t")) pos++;
  const at = skip(text, { pos, col: 0 });
  return { cols: at.col, pos: at.pos, quotes };
}

/**
 * A line opening a list item: how many quotes hold it, the column its marker sits at and the column
 * its content starts at (both inside its quotes; the content as CommonMark counts it, a tab after the
 * marker running to the next multiple of 4), where its text starts in the line (past the marker and
 * the blanks after it), and its text past every marker (`- [ ] \`a\`` is `` `a` ``).
 */
export type ItemLine = { quotes: number; indent: number; content: number; start: number; text: string };

const MARKER = /^(?:[-*+]|\d{1,9}[.)])(?=\s|$)/;
const BLANKS = /^\s*/;

/**
 * The list item a line opens, past any quotes (`> - a`); null when it opens none. A marker is
 * followed by a blank (any white space) or the line's end (an empty item, whose content starts one
 * column past the marker).
 */
export function itemLine(text: string): ItemLine | null {
  const { cols, pos, quotes } = indentOf(text);
  const marker = MARKER.exec(text.slice(pos, pos + 11))?.[0];
  if (marker === undefined) return null;
  const end = pos + marker.length;
  const start = end + (BLANKS.exec(text.slice(end))?.[0].length ?? 0);
  // A blank after the marker that is no space or tab is no item to CommonMark: its content is taken to start one column past the marker.
  const content = listItemAt(text, { pos, col: cols })?.content.col ?? cols + marker.length + 1;
  const rest = text.slice(start);
  return { quotes, indent: cols, content, start, text: rest.slice(containersEnd(rest, 0)) };
}
