// The block right under a bold section label (`**Out of scope**`): what the section it opens holds.
import type { LineModel } from "./lines.js";
import { indentOf, itemLine } from "./list-item.js";
import { boldSectionLabel } from "./sections.js";
import { paragraphEnd } from "./stage-body.js";
import { firstUnder, selfLabelled } from "./stage-rows.js";

const MARKER_KIND = /^(?:[-*+]|\d{1,9}[.)])(?=\s|$)/;

/** A list item's kind: bullets (`-`, `*`, `+`) or numbered (`1.`, `1)`). Tasks numbered after a bulleted list of exclusions are another list. */
function markerKind(text: string): string | undefined {
  const { pos } = indentOf(text);
  const m = MARKER_KIND.exec(text.slice(pos, pos + 11))?.[0];
  return m === undefined ? undefined : /^\d/.test(m) ? "numbered" : "bullet";
}

/** The end of the run of code from line `from` (hidden lines that are no comment). */
function codeEnd(model: LineModel, from: number, to: number): number {
  let end = from;
  while (end < to && model.lines[end]?.hidden && !model.lines[end]?.comment) end++;
  return end;
}

/** Whether line `i` ends in a colon: it introduces the list or code under it (`We will not:`, `- Never run this against prod:`). */
const introduces = (model: LineModel, i: number): boolean => /:\s*$/.test(model.lines[i]?.text ?? "");

/**
 * The list whose first item is line `from`, before line `to`: items of one kind, bulleted or
 * numbered, what is indented to their text, the lines that lazily continue an item's paragraph,
 * blank lines between items, and code right after it when its last line ends in a colon. A line
 * that labels itself (Acceptance:, Exit:, Depends on:) or a bold label of a section ends it.
 */
function listFrom(model: LineModel, from: number, to: number): { from: number; to: number } {
  const item = itemLine(model.lines[from]?.text ?? "");
  const kind = markerKind(model.lines[from]?.text ?? "");
  const content = item?.content ?? 0;
  const quotes = item?.quotes ?? 0;
  let end = from + 1;
  for (let i = from + 1; i < to; i++) {
    const line = model.lines[i];
    if (!line || line.heading || line.rule) break;
    if (line.text.trim() === "") continue;
    const next = line.hidden ? null : itemLine(line.text);
    const sibling = next !== null && next.quotes === quotes && next.indent < content;
    if (line.hidden && !line.comment && indentOf(line.text, quotes).cols < content) {
      if (firstUnder(model, end - 1, to) === i && introduces(model, end - 1)) end = codeEnd(model, i, to);
      break;
    }
    if (sibling && markerKind(line.text) !== kind) break;
    const inside = !sibling && indentOf(line.text, quotes).cols >= content;
    // A line right under an item's text, at the margin and no item, continues its paragraph (lazily).
    const lazy =
      !sibling && next === null && !line.hidden && model.lines[i - 1]?.text.trim() !== "" && !selfLabelled(line.text) && boldSectionLabel(line.text) === null;
    if (!sibling && !inside && !lazy) break;
    if (!inside && selfLabelled(line.text)) break;
    end = i + 1;
  }
  return { from, to: end };
}

/** Where a block whose last line is `last` ends: past the list or code right under it when that line ends in a colon, else right after it. */
export function introducedEnd(model: LineModel, last: number, to: number): number {
  if (!introduces(model, last)) return last + 1;
  const k = firstUnder(model, last, to);
  const under = model.lines[k];
  if (k >= to || !under || under.heading || under.rule) return last + 1;
  if (under.hidden) return under.comment ? last + 1 : codeEnd(model, k, to);
  return itemLine(under.text) ? listFrom(model, k, to).to : last + 1;
}

/**
 * The block right under line `at` (blank lines before it skipped), before line `to`: a list (see
 * `listFrom`), else a run of code, else a paragraph, with the list or code right under it when it
 * ends in a colon; null when none is there. Never more than one lead-in deep: a run of paragraphs
 * each ending in a colon is read one at a time, with no recursion.
 */
export function blockUnder(model: LineModel, at: number, to: number): { from: number; to: number } | null {
  const from = firstUnder(model, at, to);
  const first = model.lines[from];
  if (from >= to || !first || first.heading || first.rule) return null;
  if (first.hidden) return first.comment ? null : { from, to: codeEnd(model, from, to) };
  if (itemLine(first.text)) return listFrom(model, from, to);
  const end = paragraphEnd(model, from, to);
  return end === from ? null : { from, to: introducedEnd(model, end - 1, to) };
}
