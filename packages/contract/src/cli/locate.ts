// Where a self-check finding sits in the checked file, for the CI formats: the line of its row,
// else of its stage, else of the setting it concerns, else line 1.
import type { Contract, Finding } from "../model.js";
import { readPlanLines } from "../plan/read-plan.js";

/** The 1-based number of the first line at or after `from` (0-based) that `test` accepts. */
function firstLine(lines: readonly string[], from: number, test: (line: string) => boolean): number | undefined {
  for (let i = Math.max(0, from); i < lines.length; i++) if (test(lines[i] as string)) return i + 1;
  return undefined;
}

/** A plan as the reader read it, with its lines; undefined for a contract.md. */
type PlanRead = ReturnType<typeof readPlanLines> | undefined;

/** The heading line of each stage: `## S1: …` in a contract.md, the plan's own heading in a plan. */
function stageLines(plan: PlanRead, lines: readonly string[]): Map<string, number> {
  const at = new Map<string, number>();
  if (plan !== undefined) {
    if (plan.isOk()) for (const s of plan.value.plan.stages) at.set(s.id, s.line);
    return at;
  }
  lines.forEach((line, i) => {
    const id = /^## (S[1-9][0-9]*):/.exec(line)?.[1];
    if (id !== undefined && !at.has(id)) at.set(id, i + 1);
  });
  return at;
}

/** What a line is looked up for: a finding, or an acceptance row (stage and row, no code). */
export type Where = Pick<Finding, "stage" | "row" | "plan_line"> & { readonly code?: Finding["code"] };

/** The words a contract-wide finding's line is found by (a front-matter key of a contract.md). */
const SETTING: Partial<Record<Finding["code"], RegExp>> = {
  "commit-per-stage-off": /^commit_per_stage:/,
  "worktree-state": /^fresh_state:/,
  "plan-drift": /^plan_sha256:/,
};

/**
 * The line of each acceptance row: its table row `| S1.1 |` in a contract.md; in a plan, the line
 * the reader read it from (its `Acceptance:` line or list item), never a line that merely
 * mentions the same command.
 */
function rowLines(plan: PlanRead, lines: readonly string[], contract: Contract, stages: ReadonlyMap<string, number>): Map<string, number> {
  if (plan !== undefined) return plan.isOk() ? plan.value.rowLines : new Map();
  const at = new Map<string, number>();
  for (const stage of contract.stages) {
    let cursor = stages.get(stage.id) ?? 1;
    for (const row of stage.acceptance) {
      const table = new RegExp(`^\\|\\s*${row.id.replace(".", "\\.")}\\s*\\|`);
      const found = firstLine(lines, cursor - 1, (l) => table.test(l));
      if (found === undefined) continue;
      at.set(row.id, found);
      cursor = found + 1;
    }
  }
  return at;
}

/** A locator for the findings of one checked file (`text`, a contract.md or a plan). */
export function findingLocator(text: string, contract: Contract, isContract: boolean): (at: Where) => number {
  const lines = text.split("\n");
  // A plan is read once, for its stages' and rows' lines both.
  const plan: PlanRead = isContract ? undefined : readPlanLines(text);
  const stages = stageLines(plan, lines);
  const rows = rowLines(plan, lines, contract, stages);
  return (f) => {
    // A finding about the plan's text names its line there: the checked file's line when it is the plan.
    if (!isContract && f.plan_line !== undefined) return f.plan_line;
    const line = (f.row === null ? undefined : rows.get(f.row)) ?? (f.stage === null ? undefined : stages.get(f.stage));
    if (line !== undefined) return line;
    const setting = f.code === undefined ? undefined : SETTING[f.code];
    return (setting === undefined ? undefined : firstLine(lines, 0, (l) => setting.test(l))) ?? 1;
  };
}
