// The block right under a section's label: what a section opened inside a stage, or by a bold label
// anywhere, holds.
import type { LineModel } from "./lines.js";
import { indentOf, itemLine } from "./list-item.js";
import { boldSectionLabel } from "./sections.js";
import { paragraphEnd } from "./stage-body.js";
import { selfLabelled } from "./stage-rows.js";

const MARKER_KIND = /^(?:([-*+])|\d{1,9}([.)]))(?=\s|$)/;

/** A list item's marker kind: its bullet (`-`, `*`, `+`) or its number's delimiter (`1.`, `1)`). CommonMark starts another list where it changes. */
function markerKind(text: string): string | undefined {
  const { pos } = indentOf(text);
  const m = MARKER_KIND.exec(text.slice(pos, pos + 11));
  return m ? (m[1] ?? `1${m[2]}`) : undefined;
}

/**
 * The block right under line `at` (blank lines before it skipped), before line `to`: a list of one
 * marker kind (its items, what is indented to their text, the lines that lazily continue an item's
 * paragraph, blank lines between items), else a run of code, else a paragraph; null when none is
 * there. A line that labels itself (Acceptance:, Exit:, Depends on:) ends a list: it is a stage's;
 * so does a bold label that opens a section of its own.
 */
export function blockUnder(model: LineModel, at: number, to: number): { from: number; to: number } | null {
  let from = at + 1;
  while (from < to && model.lines[from]?.text.trim() === "") from++;
  const first = model.lines[from];
  if (from >= to || !first || first.heading || first.rule) return null;
  if (first.hidden) {
    let end = from;
    while (end < to && model.lines[end]?.hidden) end++;
    return { from, to: end };
  }
  const item = itemLine(first.text);
  if (!item) {
    const end = paragraphEnd(model, from, to);
    return end > from ? { from, to: end } : null;
  }
  const kind = markerKind(first.text);
  let end = from + 1;
  for (let i = from + 1; i < to; i++) {
    const line = model.lines[i];
    if (!line || line.heading || line.rule) break;
    if (line.text.trim() === "") continue;
    const next = line.hidden ? null : itemLine(line.text);
    const sibling = next !== null && next.quotes === item.quotes && next.indent < item.content;
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
