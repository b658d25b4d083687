// The words a guardrail's item is read under: a heading or a bold label that negates (`#### Do not`,
// `**Don't**`) is the first words of every item under it. `- deploy on Fridays` under `#### Do not`
// is a prohibition; kept alone it would say the opposite.
import { type Heading, headingFrom, type LineModel } from "./lines.js";
import { blockUnder } from "./section-block.js";
import { boldSectionLabel, type Section } from "./sections.js";

// Words that say not to (`Do not`, `Things we do not do`, `Don't`, `Never`, `Must not`, `Avoid`). A
// section's name (`What not to do`, `Don'ts`, `Non-goals`, `Out of scope`) is no words of its items:
// the contract's guardrails are that section.
const WORDS = "do not|don['’]t|never|must not|mustn['’]t|avoid";
const NEGATING = new RegExp(String.raw`\b(?:${WORDS})(?![\p{L}\d-])`, "iu");

/** Whether a heading's or a label's text negates the items under it. */
export const negates = (text: string): boolean => NEGATING.test(text);

// An item that says not to on its own (`Do not read from Redis yet.`, `Never run this:`, `No deploys on
// Fridays.`) reads the same under `## Do not`, there a name: only an item that does not needs the words.
// A word that merely starts so (`NOT NULL on users.email`, `Not-null columns`, `No. 2 replica`) is
// no negation: such an item keeps the words, which can only repeat a negation, never drop one.
const STANDS = new RegExp(String.raw`^(?:\[[ xX]\]\s+)?[*_]*(?:${WORDS}|no(?=\s+\p{L}))(?![\p{L}\d.-])`, "iu");

/**
 * What `itemLeads` gives: the words over an item whose first line is `from` and whose text is `text`
 * (undefined when it needs none), and the label lines that lead a block (no items of their own).
 */
export type ItemLeads = { at: (from: number, text: string) => string | undefined; labels: ReadonlyMap<number, string> };

type Span = { from: number; to: number; lead: string | undefined };

/** The last span starting at or before line `i` (spans sorted by `from`); undefined when none. */
function lastAt(spans: readonly Span[], i: number): Span | undefined {
  let lo = 0;
  let hi = spans.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((spans[mid] as Span).from <= i) lo = mid + 1;
    else hi = mid;
  }
  return spans[lo - 1];
}

/** The sub-headings of a section, each with the negating words of the headings it sits under (itself included). */
function headingSpans(model: LineModel, section: Section): Span[] {
  const stack: { level: number; lead: string | undefined }[] = [];
  const out: Span[] = [];
  for (let k = headingFrom(model, section.heading.index + 1); k < model.headings.length; k++) {
    const h = model.headings[k] as Heading;
    if (h.index >= section.to) break;
    while (stack.length > 0 && (stack[stack.length - 1]?.level ?? 0) >= h.level) stack.pop();
    stack.push({ level: h.level, lead: negates(h.text) ? h.text : undefined });
    const words = stack.flatMap((s) => (s.lead === undefined ? [] : [s.lead]));
    out.push({ from: h.index, to: section.to, lead: words.length > 0 ? words.join("\n") : undefined });
  }
  return out;
}

/** The negating bold labels alone on their line in a section (`**Do not**`), each over the block right under it. */
function labelSpans(model: LineModel, section: Section, labels: Map<number, string>): Span[] {
  const out: Span[] = [];
  for (let i = section.heading.index + 1; i < section.to; i++) {
    const line = model.lines[i];
    if (!line || line.hidden || line.heading || boldSectionLabel(line.text) !== "prohibitions") continue;
    const text = line.text.trim();
    const block = negates(text) ? blockUnder(model, i, section.to) : null;
    if (!block) continue;
    labels.set(i, text);
    out.push({ ...block, lead: text });
    i = block.to - 1;
  }
  return out;
}

/**
 * The words each item of a section is read under: the section's heading when it negates (for items
 * after its line: an inline label's own item holds it already), a negating sub-heading over the item,
 * a negating label over the block holding it; each verbatim, outermost first. None for an item that
 * opens with words of its own that say not to.
 */
export function itemLeads(model: LineModel, section: Section): ItemLeads {
  const base = negates(section.heading.text) ? section.heading.text : undefined;
  const headings = headingSpans(model, section);
  const labels = new Map<number, string>();
  const blocks = labelSpans(model, section, labels);
  const at = (from: number, text: string): string | undefined => {
    if (from <= section.heading.index || STANDS.test(text.trimStart())) return undefined;
    const block = lastAt(blocks, from);
    const words = [base, lastAt(headings, from)?.lead, block && from < block.to ? block.lead : undefined];
    const kept = words.filter((w): w is string => w !== undefined);
    return kept.length > 0 ? kept.join("\n") : undefined;
  };
  return { at, labels };
}
