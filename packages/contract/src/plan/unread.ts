import type { ContractFault } from "../fault.js";
import type { OpenBlock } from "./blocks.js";
import { headingSpelling, htmlHeadingOver } from "./heading-spelling.js";
import { afterContainers, atxHeading, type Heading, headingFrom, isText, type LineModel } from "./lines.js";
import { BOLD_LINE, isStageHeading, namesGuardSection, namesSection, STAGE_LIKE, stageMatch, stageText } from "./sections.js";
import { ACCEPTANCE } from "./stage-labels.js";
import type { StageSpan } from "./stages.js";

/** A stage as read: where it sits and which of its lines were read as structure. */
export type ReadSpan = { span: StageSpan; read: number[]; heading: boolean };

/** Acceptance or Exit as a line's label after list, quote, checkbox, heading and bold markers (sticky: match it with `afterContainers`). */
export const LABEL = new RegExp(
  String.raw`(?:#{1,6}\s+)?(?:\*\*|__|\*|_)?(acceptance|exit)` +
    String.raw`(?:\s+(?:criteria|criterion|conditions?|gate|tests?|checks?|commands?))?(?:\*\*|__|\*|_)?\s*(?::|#+\s*$|$)`,
  "iy",
);

/**
 * Acceptance in a spelling the reader does not take: `Acceptance (perf):`, `Acceptance 2:`, `Also
 * acceptance:`, a full-width colon, `Acceptance — \`cmd\``, a table row `| Acceptance | \`cmd\` |`.
 * Each would be a row lost in silence; prose that only mentions acceptance has no such label.
 */
const ACCEPTANCE_SPELLED = new RegExp(
  String.raw`(?:#{1,6}\s+)?(?:\|\s*)?(?:\*\*|__|\*|_)?(?:\p{L}+\s+)?` +
    String.raw`acceptance(?:(?:\s*\([^)\n]{0,40}\)|\s+[\p{L}\d#.]+){0,2}\s*(?:(?:\*\*|__|\*|_)\s*)?[:：]|\s*(?:(?:\*\*|__|\*|_)\s*)?[-—–|]+\s*\x60)`,
  "iuy",
);

/** Whether a line labels itself acceptance or an exit criterion, in a spelling read or not. */
export const labelled = (text: string): boolean => afterContainers(LABEL, text) !== null || afterContainers(ACCEPTANCE_SPELLED, text) !== null;

/**
 * The lines a `<!-- decay: prose -->` marker covers: the next paragraph, or the next heading's whole
 * section. Each line is looked at a bounded number of times, however many marks there are: marks in
 * a row cover the same text, once, and a paragraph already covered is not walked again.
 */
export function proseLines(model: LineModel): Set<number> {
  const out = new Set<number>();
  const { lines, headings } = model;
  let k = -1;
  let covered = -1;
  for (const mark of model.proseMarks) {
    if (k > mark) continue;
    k = mark + 1;
    while (k < lines.length && (lines[k]?.hidden || lines[k]?.text.trim() === "")) k++;
    let at = headingFrom(model, k);
    const heading = headings[at]?.index === k ? headings[at] : undefined;
    if (!heading && k < covered) continue;
    let end = k;
    if (heading) {
      at++;
      while (at < headings.length && (headings[at] as Heading).level > heading.level) at++;
      end = headings[at]?.index ?? lines.length;
    } else {
      while (end < lines.length && lines[end]?.text.trim() !== "") end++;
      covered = end;
    }
    for (let i = k; i < end; i++) out.add(i);
  }
  return out;
}

/**
 * A `<!-- decay: prose -->` marker over a paragraph that opens with a line that is no acceptance row
 * (`Acceptance (manual): the PM signs off`) and holds one further down (`Acceptance: \`b\` exits 0`
 * on the next line, no blank line between): the marker covers the whole paragraph, so that row
 * would be read as prose. A fault naming the row; null when no marker does that. (A paragraph of
 * rows alone, marked, is an example kept as prose on purpose; outside every stage nothing is read.)
 */
export function proseCoversRow(model: LineModel, spans: readonly ReadSpan[]): ContractFault | null {
  const { lines } = model;
  const isRow = (i: number): boolean => (ACCEPTANCE.exec(lines[i]?.text ?? "")?.[1] ?? "").startsWith("`");
  // Marks in a row cover the same paragraph: it is looked at once (linear in the marks).
  let seen = -1;
  for (const mark of model.proseMarks) {
    if (mark < seen) continue;
    let k = mark + 1;
    while (k < lines.length && (lines[k]?.hidden || lines[k]?.text.trim() === "")) k++;
    seen = k;
    const first = lines[k];
    // Outside every stage no row is read anyway: a marked example there protects nothing.
    const inStage = spanAt(spans, k);
    if (!first || first.heading || isRow(k) || !inStage || k >= inStage.span.to) continue;
    for (let i = k + 1; i < lines.length && isText(lines[i]) && lines[i]?.text.trim() !== ""; i++) {
      if (isRow(i))
        return {
          code: "structure-unread",
          line: i + 1,
          kind: "prose-covers-row",
          text: lines[i]?.text.trim() ?? "",
          hides: { line: mark + 1, text: lines[mark]?.text.trim() ?? "" },
        };
    }
  }
  return null;
}

const keyword = (text: string): string => /^[*_\s]*([a-z]+)/i.exec(text)?.[1]?.toLowerCase() ?? "";

/** The first number a label or heading text holds (`1.2` of `Stage 1.2` or `S1.2: detail`). */
const numberOf = (text: string): string => /\d[\d.]*/.exec(text)?.[0] ?? "";

/** A heading's text without the pictographs or symbols before it (`🚀 Stage 2`, `✅ Phase 3`). */
const undecorated = (text: string): string => text.replace(/^(?:(?:\p{Extended_Pictographic}|\p{So}|\uFE0F|\u200D)\s*)+/u, "");

/** The last span opening at or before line `index` (spans are in order and do not overlap); undefined when none. */
export function spanAt(spans: readonly ReadSpan[], index: number): ReadSpan | undefined {
  let lo = 0;
  let hi = spans.length - 1;
  let found: ReadSpan | undefined;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const s = spans[mid] as ReadSpan;
    if (s.span.index <= index) {
      found = s;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** Whether a stage-looking heading is a stage, or a sub-heading of another kind inside one (`Step 1` in `Phase 1`). */
function accountedFor(h: Heading, spans: ReadSpan[]): boolean {
  const at = spanAt(spans, h.index);
  if (!at) return false;
  const { span, heading } = at;
  if (heading && span.index === h.index) return true;
  if (h.index <= span.index || h.index >= span.to) return false;
  // A deeper `Stage 2` inside `Stage 1` is a stage lost to a wrong level; `Stage 1.2` is a sub-step.
  const label = stageMatch(h.text)?.label ?? "";
  return (
    !heading ||
    keyword(h.text) !== keyword(span.label) ||
    label.startsWith(`${span.label}.`) ||
    numberOf(stageText(h.text)).startsWith(`${numberOf(span.label)}.`)
  );
}

/** The number of a `Stage N` or `S N` label (`Stage 2`, `S2`, any case); undefined for any other label, or one too long to be counted. */
function stageNumber(label: string): number | undefined {
  const n = /^(?:s|stage\s+)(\d{1,15})$/i.exec(label)?.[1];
  return n === undefined ? undefined : Number(n);
}

/** The `stageNumber` of a heading read as a stage heading (`#### S2: t`); undefined for any other heading. */
function headingNumber(h: Heading): number | undefined {
  const label = stageMatch(h.text)?.label;
  return label === undefined ? undefined : stageNumber(label);
}

/**
 * The next stage one level too deep, in the other form: `#### S2:` under `### Stage 1` or `### S1`,
 * `#### Stage 2:` under `### S1` (`Stage 2` under `Stage 1` is the same keyword, refused anyway).
 * Its rows would count for the stage above. Only when no heading at the stage's level or above has
 * that number (`#### S3: bucket layout` under `### Stage 2`, with a `### Stage 3` after it, is about something else),
 * and when the stage does not number its own sub-steps from its number down (`#### S1:` then
 * `#### S2:` under `### Stage 1`). The level of the stage's heading when it is; undefined when not.
 */
function nextStageTooDeep(model: LineModel, h: Heading, spans: readonly ReadSpan[], known: StageNumbers): number | undefined {
  const n = headingNumber(h);
  if (n === undefined) return undefined;
  const at = spanAt(spans, h.index);
  if (!at?.heading || h.index <= at.span.index || h.index >= at.span.to) return undefined;
  const own = stageNumber(at.span.label);
  if (own === undefined || n !== own + 1) return undefined;
  const level = model.headings[headingFrom(model, at.span.index)]?.level ?? 0;
  if ((known.levels.get(n) ?? Number.POSITIVE_INFINITY) <= level) return undefined;
  const sub = known.ownSub.get(at.span.index);
  return sub !== undefined && sub < h.index ? undefined : level;
}

/**
 * What `nextStageTooDeep` asks of the whole plan, gathered once: the highest level (smallest number)
 * of a heading labelled `Stage N` or `S N`, by N (a stage of that number, read or not); and, by the
 * stage it sits in, the first sub-heading that carries that stage's own number (`#### S1:` under
 * `### Stage 1`: the stage numbers its sub-steps).
 */
type StageNumbers = { levels: Map<number, number>; ownSub: Map<number, number> };
function stageNumbers(model: LineModel, spans: readonly ReadSpan[]): StageNumbers {
  const known: StageNumbers = { levels: new Map(), ownSub: new Map() };
  for (const x of model.headings) {
    const n = headingNumber(x);
    if (n === undefined) continue;
    known.levels.set(n, Math.min(known.levels.get(n) ?? x.level, x.level));
    const at = spanAt(spans, x.index);
    if (at && x.index > at.span.index && x.index < at.span.to && n === stageNumber(at.span.label) && !known.ownSub.has(at.span.index)) {
      known.ownSub.set(at.span.index, x.index);
    }
  }
  return known;
}

/** Bold lines that look like stage headings, as headings one level below any (they are no stage). */
function boldStageLines(model: LineModel, prose: Set<number>): Heading[] {
  const out: Heading[] = [];
  for (const [i, line] of model.lines.entries()) {
    const inner = line.hidden || line.heading || prose.has(i) ? undefined : BOLD_LINE.exec(line.text)?.[2];
    if (inner !== undefined && STAGE_LIKE.test(inner)) out.push({ index: i, level: 7, text: line.text.trim(), body: i + 1 });
  }
  return out;
}

/**
 * The first line that spells a stage heading as no heading (`###Stage 2`, `####### Stage 2`,
 * `<h3>Stage 2</h3>`, or `<h2>` over `Stage 2` over `</h2>`), with the heading to write; null when
 * none. Seven or more `#`s are told to write the level of the plan's stage headings (else six).
 */
function misspeltHeading(model: LineModel, prose: Set<number>): ContractFault | null {
  const { lines } = model;
  const level = model.headings.find(isStageHeading)?.level ?? 6;
  // A line an HTML heading may run over, blank lines too (CommonMark reads `<h2>`, a blank line and
  // `Stage 2` as an HTML block over a paragraph: a heading to whoever reads the page). Code, a
  // break, a prose line or a Markdown heading of its own ends it.
  const text = (i: number, k: number): string | null => {
    const l = lines[i];
    const opensHeading = k > 0 && model.headings[headingFrom(model, i)]?.index === i;
    return !l || l.hidden || l.rule || prose.has(i) || opensHeading ? null : l.text;
  };
  for (const [i, line] of lines.entries()) {
    if (line.hidden || prose.has(i)) continue;
    const over = htmlHeadingOver((k) => text(i + k, k));
    const spelling = over ? over.spelling : headingSpelling(line.text, level);
    if (spelling) {
      const written = lines.slice(i, i + (over?.lines ?? 1)).map((l) => l.text.trim());
      return { code: "structure-unread", line: line.no, kind: spelling.kind, text: written.join(" "), write: spelling.write };
    }
  }
  return null;
}

/**
 * The first of: a stage-looking heading (or bold line) that became no stage and sits in no stage's
 * body, a stage-looking heading inside a list item or a block quote, which is never a stage, a
 * guardrails or falsifiers heading there, which opens no section, and a stage heading spelt as no heading; null when none. With no spans (no stage was read), the reason
 * none was: a fault naming that heading's line, where one naming the section would point elsewhere.
 */
export function unreadHeading(model: LineModel, spans: ReadSpan[], prose: Set<number>): ContractFault | null {
  // A heading read as a stage, or like one (also behind a pictograph: `### 🚀 Stage 2`, which no stage is made of).
  const looks = (x: Heading) => !prose.has(x.index) && (STAGE_LIKE.test(stageText(x.text)) || STAGE_LIKE.test(stageText(undecorated(x.text))));
  const candidates = [...model.headings, ...boldStageLines(model, prose)].sort((a, b) => a.index - b.index);
  const known = stageNumbers(model, spans);
  let stageLevel: number | undefined;
  const h = candidates.find((x) => {
    if (looks(x) && !accountedFor(x, spans)) return true;
    stageLevel = prose.has(x.index) ? undefined : nextStageTooDeep(model, x, spans, known);
    return stageLevel !== undefined;
  });
  const nested = model.nested.find(looks);
  const faults: ContractFault[] = [];
  if (nested) {
    faults.push({ code: "structure-unread", line: nested.index + 1, kind: "nested-heading", text: model.lines[nested.index]?.text.trim() ?? nested.text });
  }
  // `> ## Do not` opens no section: its items would be no guardrails, and `- deploy on Fridays` under it no prohibition.
  const section = model.nested.find((x) => !prose.has(x.index) && namesGuardSection(x.text));
  if (section) {
    faults.push({ code: "structure-unread", line: section.index + 1, kind: "nested-section", text: model.lines[section.index]?.text.trim() ?? section.text });
  }
  if (h && stageLevel !== undefined) {
    faults.push({ code: "structure-unread", line: h.index + 1, kind: "stage-too-deep", text: h.text, write: `${"#".repeat(stageLevel)} ${h.text}` });
  } else if (h) faults.push({ code: "structure-unread", line: h.index + 1, kind: "stage-heading", text: h.text });
  const misspelt = misspeltHeading(model, prose);
  if (misspelt) faults.push(misspelt);
  return faults.reduce<ContractFault | null>((first, f) => (first === null || f.line < first.line ? f : first), null);
}

/**
 * After reading: a heading that looks like a stage but is none, or an Acceptance/Exit line that was
 * not read, is a fault naming its line, unless a `<!-- decay: prose -->` marker covers it.
 */
export function unreadStructure(model: LineModel, spans: ReadSpan[]): ContractFault | null {
  const prose = proseLines(model);
  const read = new Set(spans.flatMap((s) => s.read));
  const heading = unreadHeading(model, spans, prose);
  for (const [i, line] of model.lines.entries()) {
    if (heading && heading.line <= line.no) return heading;
    if (line.hidden || read.has(i) || prose.has(i)) continue;
    const label = afterContainers(LABEL, line.text)?.[1] ?? (afterContainers(ACCEPTANCE_SPELLED, line.text) ? "acceptance" : undefined);
    if (label) {
      const kind = label.toLowerCase() === "exit" ? "exit" : "acceptance";
      // A `---` right under a line makes it a setext heading: say so, it is rarely meant.
      const setext = model.headings.find((h) => h.index <= i && i < h.body - 1);
      const underline = setext ? { underline: setext.body } : {};
      return { code: "structure-unread", line: line.no, kind, text: line.text.trim(), ...underline };
    }
  }
  return heading;
}

/** The index of the first line after the open block's first line that `holds`; null when none does. */
export function hiddenLine(model: LineModel, open: OpenBlock, holds: (text: string) => boolean): number | null {
  for (let i = open.line + 1; i < model.lines.length; i++) if (holds(model.lines[i]?.text ?? "")) return i;
  return null;
}

/** Whether a line is plan structure: a stage-looking or section heading, or an Acceptance/Exit label. */
function structureLine(text: string): boolean {
  const atx = atxHeading(text);
  return atx ? STAGE_LIKE.test(stageText(atx.text)) || namesSection(atx.text) : labelled(text);
}

/**
 * A fence or an HTML comment never closed runs to the end of the plan (CommonMark's reading): when
 * what it hides holds a stage-looking or section heading, or an Acceptance/Exit label, a fault
 * naming its first line and the first such line; one that hides only code or prose is read so.
 */
export function unclosedBlock(model: LineModel): ContractFault | null {
  const open = model.open;
  const i = open === null ? null : hiddenLine(model, open, structureLine);
  if (open === null || i === null) return null;
  const kind = open.kind === "fence" ? "unclosed-fence" : "unclosed-comment";
  const opener = model.lines[open.line]?.text.trim() ?? "";
  return { code: "structure-unread", line: open.line + 1, kind, text: opener, hides: { line: i + 1, text: model.lines[i]?.text.trim() ?? "" } };
}
