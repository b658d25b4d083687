import { err, ok, type Result } from "neverthrow";
import { type ContractFault, patternProblemText } from "./fault.js";
import { type AcceptanceRow, Contract, type Stage } from "./model.js";
import { patternProblem } from "./patterns.js";

/** A broken cross-reference inside a contract: which stage (and row), which field, what is wrong. */
export type StructureIssue = { stage: number; row?: number; path: string; issue: string };

/**
 * What keeps a row from being run as written: a blank command (nothing would run, and the row would
 * pass), or a pattern `patternProblem` refuses; the field (`run`, `expect`) and why, null when none.
 */
export function rowIssue(row: AcceptanceRow): { field: "run" | "expect"; issue: string } | null {
  if (row.run.trim() === "") return { field: "run", issue: "the command is blank: a row with nothing to run would pass by default" };
  const patterns = [...row.expect.stdout_matches.map((p) => [p, false] as const), ...row.expect.count.map((c) => [c.pattern, true] as const)];
  for (const [pattern, counted] of patterns) {
    const problem = patternProblem(pattern, counted);
    if (problem !== null) return { field: "expect", issue: `${patternProblemText(problem)}: ${pattern}` };
  }
  return null;
}

/**
 * The invariants the schema alone cannot state: stages are S1…Sn in order, rows of stage Sk are
 * Sk.1…Sk.m in order, no row has an issue (`rowIssue`), and depends_on names only earlier stages, each once.
 */
export function structureIssue(contract: Contract): StructureIssue | null {
  for (const [k, stage] of contract.stages.entries()) {
    const at = (path: string, issue: string, row?: number): StructureIssue => ({
      stage: k,
      path: `stages.${k}.${path}`,
      issue,
      ...(row === undefined ? {} : { row }),
    });
    if (stage.id !== `S${k + 1}`) return at("id", `stage ${k + 1} must be S${k + 1}, not ${stage.id}`);
    for (const [j, row] of stage.acceptance.entries()) {
      const want = `${stage.id}.${j + 1}`;
      if (row.id !== want) return at(`acceptance.${j}.id`, `row ${j + 1} of ${stage.id} must be ${want}, not ${row.id}`, j);
      const bad = rowIssue(row);
      if (bad !== null) return at(`acceptance.${j}.${bad.field}`, `row ${row.id}: ${bad.issue}`, j);
    }
    for (const [j, dep] of stage.depends_on.entries()) {
      const n = Number(dep.slice(1));
      if (n >= k + 1) return at(`depends_on.${j}`, `${stage.id} may depend only on an earlier stage, not ${dep}`);
      if (stage.depends_on.indexOf(dep) !== j) return at(`depends_on.${j}`, `${dep} is named twice`);
    }
  }
  return null;
}

/**
 * A parsed contract through its schema and structure rules; a fault names the row's line when it is
 * about a row (a structure issue with `row`, a schema issue at `stages.K.acceptance.J…`), or the stage's.
 */
export function validated(
  front: object,
  body: { guardrails: string[]; falsifiers: string[] },
  stages: Stage[],
  lines: { stages: number[]; rows: number[][] },
): Result<Contract, ContractFault> {
  const parsed = Contract.safeParse({ ...front, ...body, stages });
  const lineOf = (stage: number, row: number | undefined) => (row === undefined ? undefined : lines.rows[stage]?.[row]) ?? lines.stages[stage] ?? 1;
  const broken = parsed.success ? structureIssue(parsed.data) : null;
  if (broken) return err({ code: "contract-invalid", line: lineOf(broken.stage, broken.row), path: broken.path, issue: broken.issue } as const);
  if (parsed.success) return ok(parsed.data);
  const issue = parsed.error.issues[0];
  const path = issue?.path ?? [];
  const stageIndex = path[0] === "stages" ? Number(path[1]) : -1;
  const rowIndex = path[0] === "stages" && path[2] === "acceptance" && typeof path[3] === "number" ? path[3] : undefined;
  return err({ code: "contract-invalid", line: lineOf(stageIndex, rowIndex), path: path.join("."), issue: issue?.message ?? "invalid" } as const);
}
