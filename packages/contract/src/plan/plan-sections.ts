// The prohibitions and falsifiers of a plan: every section of each kind, opened by a heading or by a
// bold label, read in the plan's order.
import { itemLeads } from "./item-leads.js";
import { headingFrom, type LineModel } from "./lines.js";
import { blockUnder, introducedEnd } from "./section-block.js";
import { BOLD_LINE, boldSectionLabel, findSections, inlineSectionLabel, type Section, sectionItems } from "./sections.js";
import { FIELD, paragraphEnd } from "./stage-body.js";
import { type ReadSpan, spanAt } from "./unread.js";

type Kind = "prohibitions" | "falsifiers";

/** What the stages took: their spans and the lines they read as their own (labels and what those read). */
export type Around = { readonly spans: readonly ReadSpan[]; readonly stageRead: ReadonlySet<number> };

/** The end of the stage whose body holds line `i`; undefined outside every stage body. */
function stageEnd(around: Around, i: number): number | undefined {
  const at = spanAt(around.spans, i);
  return at && i > at.span.index && i < at.span.to ? at.span.to : undefined;
}

/**
 * The parts of a headed section that are its own. A bold label of the other kind inside it
 * (`**Falsifiers**` under `### Guardrails`) takes the block under it, and the section goes on after
 * that block. Inside a stage (`#### Out of scope` under `### Stage 1`) the section also ends at the
 * first line the stage reads as its own and at a bold line of another name (`**Steps**`): what
 * follows is the stage's again.
 */
function ownParts(model: LineModel, around: Around, kind: Kind, s: Section): Section[] {
  const inStage = stageEnd(around, s.heading.index) !== undefined;
  const out: Section[] = [];
  let from = s.from;
  for (let i = s.from; i < s.to; i++) {
    const line = model.lines[i];
    if (!line || line.hidden || line.heading) continue;
    const label = boldSectionLabel(line.text);
    if (inStage && (around.stageRead.has(i) || (label === null && BOLD_LINE.test(line.text)))) {
      out.push({ ...s, from, to: i });
      return out;
    }
    const inline = label === null ? inlineSectionLabel(line.text) : null;
    if ((label ?? inline?.kind ?? kind) !== kind) {
      out.push({ ...s, from, to: i });
      from = inline ? inlineEnd(model, i, s.to) : (blockUnder(model, i, s.to)?.to ?? i + 1);
      i = from - 1;
    }
  }
  out.push({ ...s, from, to: s.to });
  return out;
}

/**
 * The sections bold labels open (a line that is one bold phrase naming a section: a heading in all
 * but syntax), each over the block right under its label, within the label's stage, before the next
 * heading and before the next stage opens. A label inside a section a heading opened, or inside the
 * block of the label before it, is one of that section's items, not a section of its own.
 */
function boldSections(model: LineModel, around: Around, taken: readonly Section[]): { kind: Kind; section: Section }[] {
  const out: { kind: Kind; section: Section }[] = [];
  let after = 0;
  let t = 0;
  let s = 0;
  for (let i = 0; i < model.lines.length; i++) {
    const line = model.lines[i];
    if (i < after || !line || line.hidden || line.heading) continue;
    const inline = inlineSectionLabel(line.text);
    const kind = boldSectionLabel(line.text) ?? inline?.kind ?? null;
    if (kind === null) continue;
    while (t < taken.length && (taken[t] as Section).to <= i) t++;
    const inside = taken[t];
    if (inside && i >= inside.from && i < inside.to) continue;
    while (s < around.spans.length && (around.spans[s] as ReadSpan).span.index <= i) s++;
    const nextStage = around.spans[s]?.span.index ?? model.lines.length;
    const end = Math.min(model.headings[headingFrom(model, i + 1)]?.index ?? model.lines.length, stageEnd(around, i) ?? model.lines.length, nextStage);
    const heading = { index: i, level: 7, text: line.text.trim(), body: i + 1 };
    // Inline (`**Out of scope:** billing.`): the text after the label and the lines that go on with its sentence.
    const block = inline ? { from: i, to: inlineEnd(model, i, end), firstAt: line.start + inline.at } : blockUnder(model, i, end);
    if (!block) continue;
    after = block.to;
    out.push({ kind, section: { heading, ...block } });
  }
  return out;
}

/**
 * Where the item of an inline label on line `i` ends: its line, and the lines that go on with its
 * sentence (the line before ends in no `.`, `!`, `?` or `:`, and the line starts in lower case) up to
 * a line of its own (a field such as `**Risk:**`, a bold line, another label); with the list or code
 * a colon at its end introduces.
 */
function inlineEnd(model: LineModel, i: number, to: number): number {
  let k = i + 1;
  while (k < to) {
    const line = model.lines[k];
    if (!line || /[.!?:]\s*$/.test(model.lines[k - 1]?.text ?? "") || paragraphEnd(model, k, k + 1) === k) break;
    // A line that opens a sentence of its own (a capital: `Port the reports.`) or a field is not the item's.
    if (!/^\s*\p{Ll}/u.test(line.text) || FIELD.test(line.text) || BOLD_LINE.test(line.text) || inlineSectionLabel(line.text) !== null) break;
    k++;
  }
  return introducedEnd(model, k - 1, to);
}

/** The lines sections cover, as ranges in order that do not overlap. */
function covered(sections: readonly Section[]): Section[] {
  const out: Section[] = [];
  for (const s of [...sections].sort((a, b) => a.from - b.from)) {
    const last = out[out.length - 1];
    if (last && s.from <= last.to) last.to = Math.max(last.to, s.to);
    else out.push({ ...s });
  }
  return out;
}

/**
 * The items of every section of each kind, in the plan's order, but for the lines a stage read.
 * Both kinds at once: each kind's headed sections bound the other's bold labels, and are found once.
 */
export function planSections(model: LineModel, around: Around): Record<Kind, string[]> {
  const headed = (k: Kind) => findSections(model, k).flatMap((s) => ownParts(model, around, k, s));
  const byKind: Record<Kind, Section[]> = { prohibitions: headed("prohibitions"), falsifiers: headed("falsifiers") };
  for (const b of boldSections(model, around, covered([...byKind.prohibitions, ...byKind.falsifiers]))) byKind[b.kind].push(b.section);
  const texts = (k: Kind) => byKind[k].sort((a, b) => a.from - b.from).flatMap((s) => sectionItems(model, s, around.stageRead, itemLeads(model, s)));
  return { prohibitions: texts("prohibitions"), falsifiers: texts("falsifiers") };
}
