// Stage headings in a spelling Markdown does not read as a heading: `###Stage 2: Deploy` (no space
// after the `#`s), `####### Stage 2` (more than six `#`s), and an HTML heading on one line
// (`<h3>Stage 2: Deploy</h3>`) or over several (`<h2>`, `Stage 2: Deploy`, `</h2>`) are paragraphs
// to CommonMark, so the stage they name would be read as the text above them. The reader refuses
// them (unread.ts) with the heading to write.
import { atxHeading, containersEnd } from "./lines.js";
import { run } from "./scan.js";
import { STAGE_LIKE, stageMatch, stageText } from "./sections.js";

/** How a stage-looking line is misspelt as a heading, and the ATX heading to write instead. */
export type HeadingSpelling = { kind: "heading-no-space" | "heading-too-deep" | "heading-html"; write: string };

// An HTML heading's opening tag, `<h3>` or `<h3 id="x">`, any case; the line's text runs on after it.
const HTML_OPEN = /^<h([1-6])(?:[ \t][^>]*)?>/i;
// Its closing tag, `</h3>` or `</H3 >`, tested on the text from the line's last `</`.
const HTML_CLOSE = /^<\/h[1-6][ \t]*>$/i;

/** `text` as an ATX heading of `level`, when it would open a stage (`S2: t` too) or looks like a stage heading; null otherwise. */
function asStage(level: number, text: string): string | null {
  const title = text.trim();
  return stageMatch(title) !== null || STAGE_LIKE.test(stageText(title)) ? `${"#".repeat(level)} ${title}` : null;
}

/** A line's text past its indentation and the markers of the list items and quotes it is in, its trailing blanks dropped. */
const content = (line: string): string => line.slice(containersEnd(line, line.length - line.trimStart().length)).trimEnd();

/** Where the closing tag at the end of `text` starts (`</h3>`); -1 when it does not end in one. */
function closingTag(text: string): number {
  const close = text.lastIndexOf("</");
  return close !== -1 && HTML_CLOSE.test(text.slice(close)) ? close : -1;
}

/** An HTML heading's opening tag at the start of a line's content: its level, and the text after the tag; null when none. */
export function htmlOpening(line: string): { level: number; rest: string } | null {
  const text = content(line);
  const open = HTML_OPEN.exec(text);
  return open ? { level: Number(open[1]), rest: text.slice(open[0].length) } : null;
}

/**
 * A line (past its indentation and the markers of the list items and quotes it is in) that spells a
 * stage heading as no heading: `#`s with no space after them, seven or more `#`s, or an `<h1>`-`<h6>`
 * element on one line (its closing tag may be missing). `level`: the heading level to write for
 * seven or more `#`s (Markdown has six). Null for any other line, `#hashtag` and `<h3>Notes</h3>` too.
 */
export function headingSpelling(line: string, level = 6): HeadingSpelling | null {
  const text = content(line);
  const hashes = run(text, 0, "#");
  const after = text[hashes];
  if (hashes > 6) {
    // `####### Stage 2 ##`: a closing run after a blank is no part of the title, as in an ATX heading.
    const write = asStage(level, atxHeading(`# ${text.slice(hashes)}`)?.text ?? "");
    return write === null ? null : { kind: "heading-too-deep", write };
  }
  if (hashes >= 1 && after !== undefined && after !== " " && after !== "\t") {
    const write = asStage(hashes, text.slice(hashes));
    return write === null ? null : { kind: "heading-no-space", write };
  }
  const open = htmlOpening(line);
  if (!open) return null;
  const close = closingTag(open.rest);
  const write = asStage(open.level, close === -1 ? open.rest : open.rest.slice(0, close));
  return write === null ? null : { kind: "heading-html", write };
}

/**
 * An HTML heading element opened on a line and not closed there (`<h2>`, `Stage 2: Deploy`,
 * `</h2>`): how many lines it spans and its spelling (null when its text does not look like a stage
 * heading); null when the opening line closes it. Its text runs to its closing tag; with none, an
 * opening tag alone on its line (`<h2>` over `Stage 2`) holds the rest of its paragraph (to the
 * first blank line), and an opening line with text is read alone (null). `line(k)` is the
 * k-th line from the opening one, null where the element may run no further: it is looked for no
 * further, nor past a line that opens another one, so no line is looked at for two openings.
 */
export function htmlHeadingOver(line: (k: number) => string | null): { lines: number; spelling: HeadingSpelling | null } | null {
  const open = htmlOpening(line(0) ?? "");
  if (!open || closingTag(open.rest) !== -1) return null;
  const parts = [open.rest];
  // The lines of the opening line's paragraph: what the element holds when it is never closed.
  let paragraph = 0;
  for (let k = 1; ; k++) {
    const next = line(k);
    if (next === null || htmlOpening(next)) break;
    const text = content(next);
    if (text === "" && paragraph === 0) paragraph = k;
    const close = closingTag(text);
    parts.push(close === -1 ? text : text.slice(0, close));
    if (close !== -1) return { lines: k + 1, spelling: spelt(open.level, parts) };
  }
  // An opening line with text of its own is read alone (`<h3>Stage 2` over `- y`): its text is the heading's.
  if (open.rest.trim() !== "") return null;
  const lines = paragraph === 0 ? parts.length : paragraph;
  return { lines, spelling: spelt(open.level, parts.slice(0, lines)) };
}

/** The heading of `level` the text of an HTML heading's lines spells, when it looks like a stage heading. */
function spelt(level: number, parts: string[]): HeadingSpelling | null {
  const write = asStage(
    level,
    parts
      .map((p) => p.trim())
      .filter((p) => p !== "")
      .join(" "),
  );
  return write === null ? null : { kind: "heading-html", write };
}
