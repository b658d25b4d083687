// The block right under a section's label: what a section opened inside a stage, or by a bold label
// anywhere, holds.
import type { LineModel } from "./lines.js";
import { indentOf, itemLine } from "./list-item.js";
import { boldSectionLabel } from "./sections.js";
import { paragraphEnd } from "./stage-body.js";
import { selfLabelled } from "./stage-rows.js";

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

/** The first line at or after `from` that is not blank (or `to`). */
function nextFilled(model: LineModel, from: number, to: number): number {
  let i = from;
  while (i < to && model.lines[i]?.text.trim() === "") i++;
  return i;
}

/**
 * The block right under line `at` (blank lines before it skipped), before line `to`: a list of one
 * kind, bulleted or numbered (its items, what is indented to their text, the lines that lazily
 * continue an item's paragraph, blank lines between items, and code right after it, which its last
 * item introduces), else a run of code, else a paragraph (with the list or code right under it when
 * it ends in a colon); null when none is there. A line that labels itself (Acceptance:, Exit:, Depends on:) ends a list: it is a stage's;
 * so does a bold label that opens a section of its own.
 */
export function blockUnder(model: LineModel, at: number, to: number): { from: number; to: number } | null {
  const from = nextFilled(model, at + 1, to);
  const first = model.lines[from];
  if (from >= to || !first || first.heading || first.rule) return null;
  if (first.hidden) return first.comment ? null : { from, to: codeEnd(model, from, to) };
  const item = itemLine(first.text);
  if (!item) {
    const end = paragraphEnd(model, from, to);
    if (end === from) return null;
    // A paragraph that ends in a colon introduces the list or code under it (`We will not:`).
    const under = /:\s*$/.test(model.lines[end - 1]?.text ?? "") ? blockUnder(model, end - 1, to) : null;
    const introduced = under !== null && (itemLine(model.lines[under.from]?.text ?? "") !== null || model.lines[under.from]?.hidden === true);
    return { from, to: introduced && under ? under.to : end };
  }
  const kind = markerKind(first.text);
  let end = from + 1;
  for (let i = from + 1; i < to; i++) {
    const line = model.lines[i];
    if (!line || line.heading || line.rule) break;
    if (line.text.trim() === "") continue;
    const next = line.hidden ? null : itemLine(line.text);
    const sibling = next !== null && next.quotes === item.quotes && next.indent < item.content;
    // Code right after the list belongs to its last item (`- Never run this against prod:` over a fence).
    if (line.hidden && !line.comment && indentOf(line.text, item.quotes).cols < item.content) {
      if (nextFilled(model, end, to) === i) end = codeEnd(model, i, to);
      break;
    }
    if (sibling && markerKind(line.text) !== kind) break;
    const inside = !sibling && indentOf(line.text, item.quotes).cols >= item.content;
    // A line right under an item's text, at the margin and no item, continues its paragraph (lazily).
    const lazy =
      !sibling && next === null && !line.hidden && model.lines[i - 1]?.text.trim() !== "" && !selfLabelled(line.text) && boldSectionLabel(line.text) === null;
    if (!sibling && !inside && !lazy) break;
    if (!inside && selfLabelled(line.text)) break;
    end = i + 1;
  }
  return { from, to: end };
}
