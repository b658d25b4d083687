import { err, ok, type Result } from "neverthrow";
import type { ContractFault } from "../fault.js";
import { parseAcceptance, type SpelledRow } from "./acceptance.js";
import type { LineModel } from "./lines.js";
import type { StageSpan } from "./stages.js";

/** What a stage's body says about itself, with the line of each statement. */
export type StageBody = {
  exit: string | null;
  rows: SpelledRow[];
  dependsOn: { refs: string[]; line: number } | null;
  optional: boolean;
};

const lead = (word: string) =>
  new RegExp(`^\\s*(?:[-*+]\\s+)?(?:\\*\\*)?${word}(?:\\*\\*)?\\s*:(?:\\*\\*)?[ \\t]*(.*?)[ \\t]*$`, "i");
const EXIT = lead("Exit");
const ACCEPTANCE = lead("Acceptance");
const DEPENDS = lead("Depends on");
const CONTINUED = /^\s*(?:(?:and|then|,)\s+)?(?:exits?|prints|matches|stdout|at least)\b/i;
const OPTIONAL = /^\s*(?:[-*+]\s+)?(?:\*\*)?Optional\b/i;

/** Split `Phase 1, Phase 2 and S3` into its references; `none` is no reference. */
function splitRefs(text: string): string[] {
  const refs = text
    .replace(/\.$/, "")
    .split(/\s*(?:,|;|\band\b|&)\s*/i)
    .map((r) => r.trim())
    .filter((r) => r !== "");
  return refs.length === 1 && /^(?:none|nothing|-|—)$/i.test(refs[0] ?? "") ? [] : refs;
}

/** Lines from `from` that continue an Acceptance: line's expectations (trimmed); none is dropped in silence. */
function continuation(model: LineModel, from: number, to: number): string[] {
  const out: string[] = [];
  for (let i = from; i < to; i++) {
    const line = model.lines[i];
    if (!line || line.inFence || !CONTINUED.test(line.text)) break;
    out.push(line.text.trim());
  }
  return out;
}

/** Read Exit:, Acceptance:, Depends on: and Optional lines of one stage (fenced code ignored). */
export function readStageBody(model: LineModel, span: StageSpan): Result<StageBody, ContractFault> {
  const body: StageBody = { exit: null, rows: [], dependsOn: null, optional: span.optional };
  let exitLine = 0;
  for (let i = span.from; i < span.to; i++) {
    const line = model.lines[i];
    if (!line || line.inFence) continue;
    const text = i === span.from && span.startAt !== undefined ? line.text.slice(span.startAt - line.start) : line.text;
    const exit = EXIT.exec(text);
    const acc = exit ? null : ACCEPTANCE.exec(text);
    const dep = exit || acc ? null : DEPENDS.exec(text);
    if (exit) {
      if (body.exit !== null) return err({ code: "duplicate-exit", line: line.no, first: exitLine });
      body.exit = exit[1] ?? "";
      exitLine = line.no;
    } else if (acc) {
      const wrapped = continuation(model, i + 1, span.to);
      const row = parseAcceptance([acc[1] ?? "", ...wrapped].join(" "), line.no);
      i += wrapped.length;
      if (row.isErr()) return err(row.error);
      body.rows.push(row.value);
    } else if (dep) {
      body.dependsOn = { refs: splitRefs(dep[1] ?? ""), line: line.no };
    } else if (OPTIONAL.test(text)) {
      body.optional = true;
    }
  }
  return ok(body);
}
