import type { Contract, Finding, Stage } from "../model.js";
import { readPlan } from "../plan/read-plan.js";
import { finding, type FindingData } from "./findings.js";
import { hiddenStageFindings } from "./hidden-stages.js";
import { orderingFindings } from "./ordering.js";
import { rowFindings } from "./row-rules.js";

/**
 * Options of `selfCheck`: the plan's text, needed for the ordering rule; and whether the run
 * includes optional stages (`includeOptional`, `--include-optional`), which then must have acceptance too.
 */
export type SelfCheckOptions = { planText?: string | Uint8Array; includeOptional?: boolean };

/** Rule 4: where acceptance runs must be able to see the committed work. */
function stateFindings(contract: Contract): FindingData[] {
  if (contract.fresh_state === "worktree") return [{ code: "worktree-state" }];
  return contract.commit_per_stage ? [] : [{ code: "commit-per-stage-off" }];
}

// A line that names a command under another word: `**Gate:** \`make check\``, `Verify: \`pnpm test\``.
const COMMAND_LINE = /^\W*(?:gate|verify|verification|validate|validation|check|checks|test|tests|run|green)\W*:.*`[^`]+`/i;

const LABEL_OVER_BLOCK = /^\W*(?:gate|verify|verification|validate|validation|checks?|tests?|run)\W*:?\W*$/i;

/** The first line of a stage's instructions that holds a command under another label (inline, or over a fenced block); null when none. */
function commandLine(instructions: string): string | null {
  const lines = instructions.split(/\r?\n/);
  const at = lines.findIndex((l, k) => {
    if (COMMAND_LINE.test(l)) return true;
    const next = lines.slice(k + 1).find((x) => x.trim() !== "");
    return LABEL_OVER_BLOCK.test(l) && /^\s*(?:`{3,}|~{3,})/.test(next ?? "");
  });
  return at === -1 ? null : (lines[at]?.trim() ?? null);
}

/**
 * Rule 1: a stage the run includes (every non-optional one; an optional one too when the run
 * includes optional stages) with no acceptance row would be green by default; and a run that
 * includes no stage at all (every stage optional and left out, or none) would verify nothing.
 */
function coverageFindings(contract: Contract, name: (s: Stage) => string, includeOptional: boolean): FindingData[] {
  const included = contract.stages.filter((s) => !s.optional || includeOptional);
  if (included.length === 0) return [{ code: "nothing-verified", leftOut: contract.stages.filter((s) => s.acceptance.length > 0).length }];
  return included
    .filter((s) => s.acceptance.length === 0)
    .map((s) => ({ code: "no-acceptance", stage: s.id, name: name(s), optional: s.optional, hint: commandLine(s.instructions) }));
}

/**
 * How findings name a stage: by the plan's label, with its line when the plan text is known and
 * still has that stage (`Phase 1 (line 28, S1)`), else with its id (`Phase 1 (S1)`).
 */
function stageNamer(contract: Contract, planText: string | undefined): (s: Stage) => string {
  const lines = new Map<string, number>();
  const plan = planText === undefined ? null : readPlan(planText);
  if (plan?.isOk()) {
    for (const ps of plan.value.stages) {
      if (contract.stages.find((s) => s.id === ps.id)?.label === ps.label) lines.set(ps.id, ps.line);
    }
  }
  return (s) => {
    const line = lines.get(s.id);
    const at = line === undefined ? "" : `line ${line}`;
    if (s.label === s.id) return at ? `${s.id} (${at})` : s.id;
    return `${s.label} (${at ? `${at}, ` : ""}${s.id})`;
  };
}

/**
 * Walk a contract before anything is spent: refusals (the run must not start) and warnings.
 * Rules 1–6 and 8 of docs/contract-format.md; `planDrift` is rule 7. With `includeOptional`, an
 * optional stage is held to rule 1 like a required one: the run would include it.
 */
export function selfCheck(contract: Contract, options: SelfCheckOptions = {}): Finding[] {
  const text = options.planText;
  const planText = text === undefined || typeof text === "string" ? text : new TextDecoder().decode(text);
  const name = stageNamer(contract, planText);
  const data: FindingData[] = [
    ...stateFindings(contract),
    ...coverageFindings(contract, name, options.includeOptional === true),
    ...contract.stages.flatMap((s) => s.acceptance.flatMap((row) => rowFindings(s, row, name(s)))),
    ...orderingFindings(contract.guardrails, planText),
    ...hiddenStageFindings(planText),
  ];
  return data.map(finding);
}
