import { err, ok, type Result } from "neverthrow";
import type { ContractFault } from "./fault.js";
import { type AcceptanceRow, Contract, type Stage } from "./model.js";
import { regexCompiles } from "./text.js";

/** A broken cross-reference inside a contract: which stage, which field, what is wrong. */
export type StructureIssue = { stage: number; path: string; issue: string };

/** The first regex of a row (`stdout_matches`, `count` patterns) that does not compile; null when all do. */
export function badPattern(row: AcceptanceRow): string | null {
  const patterns = [...row.expect.stdout_matches, ...row.expect.count.map((c) => c.pattern)];
  return patterns.find((p) => !regexCompiles(p)) ?? null;
}

/**
 * The invariants the schema alone cannot state: stages are S1…Sn in order, rows of stage Sk are
 * Sk.1…Sk.m in order, every regex of a row compiles, and depends_on names only earlier stages, each once.
 */
export function structureIssue(contract: Contract): StructureIssue | null {
  for (const [k, stage] of contract.stages.entries()) {
    const at = (path: string, issue: string) => ({ stage: k, path: `stages.${k}.${path}`, issue });
    if (stage.id !== `S${k + 1}`) return at("id", `stage ${k + 1} must be S${k + 1}, not ${stage.id}`);
    for (const [j, row] of stage.acceptance.entries()) {
      const want = `${stage.id}.${j + 1}`;
      if (row.id !== want) return at(`acceptance.${j}.id`, `row ${j + 1} of ${stage.id} must be ${want}, not ${row.id}`);
      const bad = badPattern(row);
      if (bad !== null) return at(`acceptance.${j}.expect`, `regular expression does not compile: ${bad}`);
    }
    for (const [j, dep] of stage.depends_on.entries()) {
      const n = Number(dep.slice(1));
      if (n >= k + 1) return at(`depends_on.${j}`, `${stage.id} may depend only on an earlier stage, not ${dep}`);
      if (stage.depends_on.indexOf(dep) !== j) return at(`depends_on.${j}`, `${dep} is named twice`);
    }
  }
  return null;
}

/** A parsed contract through its schema and structure rules; a fault names the stage's line. */
export function validated(
  front: object,
  body: { guardrails: string[]; falsifiers: string[] },
  stages: Stage[],
  lines: number[],
): Result<Contract, ContractFault> {
  const parsed = Contract.safeParse({ ...front, ...body, stages });
  const broken = parsed.success ? structureIssue(parsed.data) : null;
  if (broken) return err({ code: "contract-invalid", line: lines[broken.stage] ?? 1, path: broken.path, issue: broken.issue } as const);
  if (parsed.success) return ok(parsed.data);
  const issue = parsed.error.issues[0];
  const stageIndex = issue?.path[0] === "stages" ? Number(issue.path[1]) : -1;
  return err({
    code: "contract-invalid",
    line: lines[stageIndex] ?? 1,
    path: issue?.path.join(".") ?? "",
    issue: issue?.message ?? "invalid",
  } as const);
}
