import type { ContractFault } from "../fault.js";
import type { LineModel } from "./lines.js";
import { STAGE_LIKE } from "./sections.js";
import type { StageSpan } from "./stages.js";

/** A stage as read: where it sits and which of its lines were read as structure. */
export type ReadSpan = { span: StageSpan; read: number[]; heading: boolean };

// Acceptance or Exit as a line's label (after list, quote, checkbox, heading and bold markers).
const LABEL = new RegExp(
  String.raw`^\s*(?:>\s*)*(?:(?:[-*+]|\d{1,9}[.)])\s+)?(?:\[[ xX]\]\s+)?(?:#{1,6}\s+)?(?:\*\*|__|\*|_)?(acceptance|exit)` +
    String.raw`(?:\s+(?:criteria|criterion|conditions?|gate|tests?|checks?|commands?))?(?:\*\*|__|\*|_)?\s*(?::|#*\s*$)`,
  "i",
);

/** The lines a `<!-- decay: prose -->` marker covers: the next paragraph, or the next heading's whole section. */
export function proseLines(model: LineModel): Set<number> {
  const out = new Set<number>();
  for (const mark of model.proseMarks) {
    let k = mark + 1;
    while (k < model.lines.length && (model.lines[k]?.hidden || model.lines[k]?.text.trim() === "")) k++;
    const heading = model.headings.find((h) => h.index === k);
    let end = k;
    if (heading) {
      const next = model.headings.find((h) => h.index > k && h.level <= heading.level);
      end = next ? next.index : model.lines.length;
    } else {
      while (end < model.lines.length && model.lines[end]?.text.trim() !== "") end++;
    }
    for (let i = k; i < end; i++) out.add(i);
  }
  return out;
}

/** The first stage-looking heading that became no stage and sits in no stage's body; null when none. */
function unreadHeading(model: LineModel, spans: ReadSpan[], prose: Set<number>): ContractFault | null {
  for (const h of model.headings) {
    if (prose.has(h.index) || !STAGE_LIKE.test(h.text)) continue;
    const inside = spans.some(({ span, heading }) => (heading ? span.index === h.index : false) || (h.index > span.index && h.index < span.to));
    if (!inside) return { code: "structure-unread", line: h.index + 1, kind: "stage-heading", text: h.text };
  }
  return null;
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
    const label = LABEL.exec(line.text)?.[1];
    if (label) {
      const kind = label.toLowerCase() === "exit" ? "exit" : "acceptance";
      return { code: "structure-unread", line: line.no, kind, text: line.text.trim() };
    }
  }
  return heading;
}
