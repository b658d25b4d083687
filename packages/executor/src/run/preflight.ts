import type { Contract } from "@decay/contract";
import { err, ok, type Result, ResultAsync } from "neverthrow";
import type { ExecFault } from "../fault.js";
import { canStart, type Deps, Interrupted, inRepo, readText, removePath, step } from "./deps.js";
import { ledgerName } from "./ledger.js";
import type { RunOptions } from "./options.js";
import { claimForVerification } from "./owner.js";
import { isFullCommitId, verificationLedger } from "./paths.js";
import { depsOf } from "./run-plan.js";
import { refusals, stageOrder } from "./validate.js";
import { type StageVerdict, verifyPass } from "./verify.js";

/** What a verification of the whole contract found: the commit, and each stage's verdict. */
export interface ContractVerdict {
  readonly commit: string;
  readonly kind: "preflight" | "final";
  readonly stages: Readonly<Record<string, StageVerdict>>;
  /** Stages whose acceptance passed, in contract order. */
  readonly green: readonly string[];
}

/** The options `verifyContract` needs: no agent, no budgets. */
export type VerifyOptions = Omit<RunOptions, "agent" | "git"> & {
  readonly git: Pick<RunOptions["git"], "head">;
  /** `preflight` (the default) or `final`: which ledger files (`preflight-Sk.md`, `final-Sk.md`) the verification writes. */
  readonly kind?: "preflight" | "final";
};

const noAgent = {
  execute: () => Promise.reject(new Error("no agent in a verification")),
  diagnose: () => Promise.reject(new Error("no agent in a verification")),
  adjudicate: () => Promise.reject(new Error("no agent in a verification")),
  fix: () => Promise.reject(new Error("no agent in a verification")),
};

// The workspace's REPORT.md when it names one of `files` (`decay verify` at this commit wrote it)
// goes before the pass rewrites them: a pass stopped half-way (a fault, Ctrl-C) never leaves a
// report beside ledger files that say otherwise. A run's REPORT.md names none of them.
async function dropReportNaming(d: Deps, files: readonly string[]): Promise<Result<null, ExecFault>> {
  const text = await readText(d, inRepo(d, d.paths.report));
  if (text.isErr()) return err(text.error);
  const report = text.value ?? "";
  if (!files.some((f) => report.includes(`\`${f}\``))) return ok(null);
  return (await removePath(d, d.paths.report)).map(() => null);
}

/**
 * Run every included stage's acceptance in a fresh clean room of HEAD (a new one for the next
 * stage whenever a stage's commands changed it), with no agent and no token: which stages are
 * green now. Writes one ledger file per stage into the workspace's folder for that commit,
 * `.plan-runs/<slug>/verifications/<commit>/`, never into the run's `ledger/`: a run's evidence
 * is never written over, whatever commit this judges. With `kind: "final"`, a REPORT.md of an
 * earlier verification that names a ledger file this one rewrites is removed before the pass.
 * The contract's self-check refusals (an included stage with no acceptance row among them: with
 * `includeOptional`, an optional one too) are the fault `self-check-refused` before anything runs.
 */
export function verifyContract(contract: Contract, options: VerifyOptions): ResultAsync<ContractVerdict, ExecFault> {
  const deps = depsOf(contract, { ...options, agent: noAgent, git: options.git as RunOptions["git"] }).andThen((d) =>
    refusals(d.contract, options.planText, d.settings.includeOptional).map(() => d),
  );
  if (deps.isErr()) return new ResultAsync(Promise.resolve(err(deps.error)));
  const d = deps.value;
  const kind = options.kind ?? "preflight";
  const stages = stageOrder(d.contract).filter((s) => !s.optional || d.settings.includeOptional);
  const run = async (): Promise<Result<ContractVerdict, ExecFault>> => {
    const top = await canStart(d);
    if (top.isErr()) return err(top.error);
    // A repository with no commit is refused before the workspace is claimed: nothing is written.
    const head = await step(d, "head", () => d.git.head());
    if (head.isErr()) return err(head.error);
    // The commit names the folder written into: anything but a full id (a custom git port's) is refused.
    if (!isFullCommitId(head.value)) return err({ code: "git-failed", op: "head", reason: `gave ${JSON.stringify(head.value)}, not a full commit id` });
    const claimed = await step(d, "claim", () => claimForVerification(d));
    if (claimed.isErr()) return err(claimed.error);
    // Its own folder, keyed by the commit it judged: a run's ledger (which its report.json names)
    // is never written over, and a verification at another commit keeps its files too.
    const ledger = verificationLedger(d.paths, head.value);
    if (kind === "final") {
      const files = stages.map((s) => `${ledger}/${ledgerName({ kind, stage: s.id, attempt: null })}`);
      const dropped = await step(d, "stale-report", () => dropReportNaming(d, files));
      if (dropped.isErr()) return err(dropped.error);
    }
    const verdicts = await step(d, kind, () => verifyPass(d, { kind, commit: head.value, ledger, stages, attempt: null, room: kind }));
    if (verdicts.isErr()) return err(verdicts.error);
    const green = stages.filter((s) => verdicts.value[s.id]?.green).map((s) => s.id);
    return ok({ commit: head.value, kind, stages: verdicts.value, green });
  };
  const stopped = (e: unknown): Result<ContractVerdict, ExecFault> => {
    if (e instanceof Interrupted) return err({ code: "interrupted", step: e.step });
    throw e;
  };
  return new ResultAsync(run().catch(stopped));
}
