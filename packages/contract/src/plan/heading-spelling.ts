// Stage headings in a spelling Markdown does not read as a heading: `###Stage 2: Deploy` (no space
// after the `#`s) and `<h3>Stage 2: Deploy</h3>` are paragraphs to CommonMark, so the stage they
// name would be read as the text above them. The reader refuses them (unread.ts) with the heading to write.
import { containersEnd } from "./lines.js";
import { STAGE_LIKE, stageMatch, stageText } from "./sections.js";

/** How a stage-looking line is misspelt as a heading, and the ATX heading to write instead. */
export type HeadingSpelling = { kind: "heading-no-space" | "heading-html"; write: string };

// An HTML heading's opening tag, `<h3>` or `<h3 id="x">`, any case; the line's text runs on after it.
const HTML_OPEN = /^<h([1-6])(?:[ \t][^>]*)?>/i;
// Its closing tag, `</h3>` or `</H3 >`, tested on the text from the line's last `</`.
const HTML_CLOSE = /^<\/h[1-6][ \t]*>$/i;

/** `text` as an ATX heading of `level`, when it would open a stage (`S2: t` too) or looks like a stage heading; null otherwise. */
function asStage(level: number, text: string): string | null {
  const title = text.trim();
  return stageMatch(title) !== null || STAGE_LIKE.test(stageText(title)) ? `${"#".repeat(level)} ${title}` : null;
}

/**
 * A line (past its indentation and the markers of the list items and quotes it is in) that spells a
 * stage heading as no heading: one to six `#` with no space after them, or an `<h1>`-`<h6>` element
 * on one line (its closing tag may be missing). Null for any other line, `#hashtag` and `<h3>Notes</h3>` too.
 */
export function headingSpelling(line: string): HeadingSpelling | null {
  const text = line.slice(containersEnd(line, line.length - line.trimStart().length)).trimEnd();
  let hashes = 0;
  while (hashes < 7 && text[hashes] === "#") hashes++;
  const after = text[hashes];
  if (hashes >= 1 && hashes <= 6 && after !== undefined && after !== " " && after !== "\t") {
    const write = asStage(hashes, text.slice(hashes));
    return write === null ? null : { kind: "heading-no-space", write };
  }
  const open = HTML_OPEN.exec(text);
  if (!open) return null;
  const close = text.lastIndexOf("</");
  const end = close >= open[0].length && HTML_CLOSE.test(text.slice(close)) ? close : text.length;
  const write = asStage(Number(open[1]), text.slice(open[0].length, end));
  return write === null ? null : { kind: "heading-html", write };
}
