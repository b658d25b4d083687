import { sha256Hex } from "@decay/portable";
import { err, ok, okAsync, type Result, ResultAsync } from "neverthrow";
import type { ContractFault } from "./fault.js";
import { rowIssue } from "./structure.js";
import { AcceptanceRow, Contract, type Plan, type PlanStage, type Stage } from "./model.js";

/** A port that writes acceptance rows for a stage the plan gave none (an agent, a human). */
export type RowWriter = (stage: Stage) => Promise<AcceptanceRow[]>;

/** Options of `compileContract`: where the plan lives, its exact text, an optional row writer. */
export type CompileOptions = {
  planPath: string;
  planText: string | Uint8Array;
  rowWriter?: RowWriter;
};

/** SHA-256 (lowercase hex) of a plan's exact bytes; a string is hashed as its UTF-8 bytes. */
export function planSha256(planText: string | Uint8Array): string {
  return sha256Hex(planText);
}

/** Validate rows a writer returned for one stage exactly as plan rows are: schema, ids, regexes. */
function validateRows(stage: PlanStage, rows: unknown): Result<AcceptanceRow[], ContractFault> {
  const fault = (index: number, issue: string) => err<AcceptanceRow[], ContractFault>({ code: "row-invalid", line: stage.line, stage: stage.id, index, issue });
  if (!Array.isArray(rows)) return fault(0, "the writer did not return a list");
  const out: AcceptanceRow[] = [];
  for (const [index, raw] of rows.entries()) {
    const parsed = AcceptanceRow.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue?.path.join(".") ?? "";
      return fault(index, `${where ? `${where}: ` : ""}${issue?.message ?? "invalid"}`);
    }
    const want = `${stage.id}.${index + 1}`;
    if (parsed.data.id !== want) return fault(index, `id must be ${want}, not ${parsed.data.id}`);
    const bad = rowIssue(parsed.data);
    if (bad !== null) return fault(index, `${bad.field}: ${bad.issue}`);
    out.push(parsed.data);
  }
  return ok(out);
}

/** A plan stage without its line: the contract's stage. */
function contractStage(stage: PlanStage): Stage {
  const { line: _line, ...rest } = stage;
  return rest;
}

/** Ask the writer for rows of a stage the plan spelled none for; keep spelled rows as they are. */
function stageRows(stage: PlanStage, writer: RowWriter | undefined): ResultAsync<Stage, ContractFault> {
  const base = contractStage(stage);
  if (!writer || stage.acceptance.length > 0) return okAsync(base);
  const asked = ResultAsync.fromPromise(
    Promise.resolve().then(() => writer(base)),
    (e): ContractFault => ({
      code: "row-writer-failed",
      line: stage.line,
      stage: stage.id,
      reason: e instanceof Error ? e.message : String(e),
    }),
  );
  return asked.andThen((rows) => validateRows(stage, rows)).map((acceptance) => ({ ...base, acceptance }));
}

/**
 * Compile a plan read by `readPlan` into a contract: verbatim stages, guardrails and falsifiers,
 * `fresh_state: head`, `commit_per_stage: true`, and the SHA-256 of the plan's exact bytes.
 */
export function compileContract(plan: Plan, options: CompileOptions): ResultAsync<Contract, ContractFault> {
  let stages = okAsync<Stage[], ContractFault>([]);
  for (const s of plan.stages) {
    // One stage at a time: a human or an agent answers one question before the next.
    stages = stages.andThen((done) => stageRows(s, options.rowWriter).map((st) => [...done, st]));
  }
  return stages.andThen((compiled) =>
    checked({
      plan: options.planPath,
      plan_sha256: planSha256(options.planText),
      fresh_state: "head",
      commit_per_stage: true,
      guardrails: [...plan.prohibitions],
      falsifiers: [...plan.falsifiers],
      stages: compiled,
    }),
  );
}

/** Validate a contract against its schema; the first issue becomes a fault. */
export function checked(contract: Contract, line = 1): Result<Contract, ContractFault> {
  const parsed = Contract.safeParse(contract);
  if (parsed.success) return ok(parsed.data);
  const issue = parsed.error.issues[0];
  return err({ code: "contract-invalid", line, path: issue?.path.join(".") ?? "", issue: issue?.message ?? "invalid" });
}
