import type { Contract, Finding } from "../model.js";
import { finding, type FindingData } from "./findings.js";
import { orderingFindings } from "./ordering.js";
import { rowFindings } from "./row-rules.js";

/** Options of `selfCheck`: the plan's text, needed for the ordering rule. */
export type SelfCheckOptions = { planText?: string | Uint8Array };

/** Rule 4: where acceptance runs must be able to see the committed work. */
function stateFindings(contract: Contract): FindingData[] {
  if (contract.fresh_state === "worktree") return [{ code: "worktree-state" }];
  return contract.commit_per_stage ? [] : [{ code: "commit-per-stage-off" }];
}

/**
 * Rule 1: a non-optional stage with no acceptance row would be green by default; and a contract
 * whose stages (all optional) hold no row at all would verify nothing.
 */
function coverageFindings(contract: Contract): FindingData[] {
  const bare: FindingData[] = contract.stages
    .filter((s) => !s.optional && s.acceptance.length === 0)
    .map((s) => ({ code: "no-acceptance", stage: s.id }));
  const none = contract.stages.every((s) => s.acceptance.length === 0);
  return none && bare.length === 0 ? [{ code: "nothing-verified" }] : bare;
}

/**
 * Walk a contract before anything is spent: refusals (the run must not start) and warnings.
 * Rules 1–6 of docs/contract-format.md; `planDrift` is rule 7.
 */
export function selfCheck(contract: Contract, options: SelfCheckOptions = {}): Finding[] {
  const text = options.planText;
  const planText = text === undefined || typeof text === "string" ? text : new TextDecoder().decode(text);
  const data: FindingData[] = [
    ...stateFindings(contract),
    ...coverageFindings(contract),
    ...contract.stages.flatMap((s) => s.acceptance.flatMap((row) => rowFindings(s, row))),
    ...orderingFindings(contract.guardrails, planText),
  ];
  return data.map(finding);
}
