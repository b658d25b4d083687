// The one DBOS workflow: a run of `runPlan` whose every `ctx.step` is a DBOS step. Its input is a
// `RunJob` (JSON), so any worker can start it and DBOS can restart it after a crash; the ports are
// built on the worker from the directory its checkout step recorded.
import { describeFault, parseContract } from "@decay/contract";
import { DBOS } from "@dbos-inc/dbos-sdk";
import { err, ok, type Result } from "neverthrow";
import { describeExecFault, type ExecFault } from "../../fault.js";
import type { StepOutcome } from "../../run/deps.js";
import type { RunOptions } from "../../run/options.js";
import { slugOf } from "../../run/paths.js";
import { runPlan } from "../../run/run-plan.js";
import type { StepContext } from "../../runner.js";
import type { RunReport } from "../../schema.js";
import { runIdOfDispatch } from "./affinity.js";
import { RunJob, type RunOutcome, runIdOf } from "./job.js";

/** What a run needs from the worker it lands on: everything `runPlan` takes but the runner and the job's own settings. */
export type RunPorts = Omit<
  RunOptions,
  "runner" | "planText" | "includeOptional" | "executeMayEditSurface" | "attemptBudget" | "tokenTarget" | "setup" | "assumptions" | "maxReadBytes"
>;

/** Builds a run's ports on this worker from its job and the directory its checkout step recorded. */
export type PortsFor = (job: RunJob, dir: string, runId: string) => RunPorts;

/** Materialises a job's repository on this worker (a durable step, safe to run twice); resolves to its directory. */
export type Checkout = (job: RunJob, runId: string) => Promise<Result<string, ExecFault>>;

/** Reads what a finished run leaves for people: REPORT.md (a durable step). */
export type Results = (dir: string, report: RunReport) => Promise<string | null>;

/** Optional last step: write the run's branch as a git bundle; resolves to the bundle's path. */
export type Bundle = (dir: string, branch: string, runId: string) => Promise<Result<string, ExecFault>>;

/** The worker's side of the workflow. */
export interface WorkflowDeps {
  readonly executorId: string;
  readonly ports: PortsFor;
  readonly checkout: Checkout;
  readonly results: Results;
  readonly bundle?: Bundle;
}

/** The runner `runPlan` sees inside the workflow: each step is a DBOS step of the same name. */
export const dbosSteps: StepContext = {
  step: (name, fn) => DBOS.runStep(fn, { name }),
};

async function stepResult<T>(name: string, fn: () => Promise<Result<T, ExecFault>>): Promise<Result<T, ExecFault>> {
  const out = await DBOS.runStep(
    async (): Promise<StepOutcome<T>> => {
      const r = await fn();
      return r.isOk() ? { ok: true, value: r.value } : { ok: false, fault: r.error };
    },
    { name },
  );
  return out.ok ? ok(out.value) : err(out.fault);
}

/**
 * The workflow's outcome, said on the worker's log when it holds a fault (run events carry none):
 * a run that ends in a fault, or whose `bundle` step failed after it reported, is never silent.
 */
function told(outcome: RunOutcome): RunOutcome {
  if (outcome.fault !== null) {
    const after = outcome.report === null ? "" : ` after it reported ${outcome.report.status}; its branch ${outcome.branch} was not bundled`;
    DBOS.logger.error(`run ${outcome.id}: ${describeExecFault(outcome.fault)}${after}`);
  }
  return outcome;
}

/**
 * The workflow's body: checkout, `runPlan` over DBOS steps, then the results kept with the run.
 * A failed `bundle` step keeps the report and adds the fault: the outcome then holds both, and
 * listings show the fault (status.ts), never the report's verdict alone.
 */
export function decayWorkflow(deps: WorkflowDeps): (input: RunJob) => Promise<RunOutcome> {
  const body = bodyOf(deps);
  return async (input) => told(await body(input));
}

function bodyOf(deps: WorkflowDeps): (input: RunJob) => Promise<RunOutcome> {
  return async (input) => {
    const parsed = RunJob.safeParse(input);
    const id = DBOS.workflowID ?? (parsed.success ? runIdOf(parsed.data) : "unknown");
    const base: RunOutcome = { id, worker: deps.executorId, dir: "", branch: "", report: null, fault: null, reportMd: null, bundle: null };
    if (!parsed.success) return { ...base, fault: { code: "option-invalid", option: "job", issue: parsed.error.issues.map((i) => i.message).join("; ") } };
    const job = parsed.data;
    const contract = parseContract(job.contract);
    if (contract.isErr()) return { ...base, fault: { code: "contract-invalid", issue: describeFault(contract.error) } };
    const branch = `plan/${slugOf(contract.value.plan)}`;
    const dir = await stepResult("checkout", () => deps.checkout(job, id));
    if (dir.isErr()) return { ...base, branch, fault: dir.error };
    const at = { ...base, dir: dir.value, branch };
    const { includeOptional, executeMayEditSurface, attemptBudget, tokenTarget, setup, assumptions, maxReadBytes } = job.settings;
    const ports = deps.ports(job, dir.value, id);
    const result = await runPlan(contract.value, {
      ...ports,
      runner: dbosSteps,
      planText: job.planText,
      includeOptional,
      executeMayEditSurface,
      attemptBudget,
      tokenTarget,
      setup,
      assumptions,
      maxReadBytes,
    });
    if (result.isErr()) return { ...at, fault: result.error };
    const report = result.value;
    const reportMd = await DBOS.runStep(() => deps.results(dir.value, report), { name: "results" });
    if (deps.bundle === undefined) return { ...at, report, reportMd };
    const written = await stepResult("bundle", () => (deps.bundle as Bundle)(dir.value, branch, id));
    return written.isErr() ? { ...at, report, reportMd, fault: written.error } : { ...at, report, reportMd, bundle: written.value };
  };
}

/**
 * A queued run's dispatcher (docs/fleet.md, "Worker affinity"): admitted on the shared queue, it
 * starts the run (workflow id: the run id) on `ownQueue`, the queue only this worker serves, and
 * waits for the run's end, so the shared queue's per-worker limit bounds the runs a worker holds.
 * DBOS records the start with the dispatcher's steps: a dispatcher recovered on another worker
 * finds it recorded and only waits; a run that exists already is joined, never started twice.
 */
export function dispatchWorkflow(run: (job: RunJob) => Promise<RunOutcome>, ownQueue: string): (job: RunJob) => Promise<string> {
  return async (job) => {
    const id = runIdOfDispatch(DBOS.workflowID ?? "");
    const handle = await DBOS.startWorkflow(run, { workflowID: id, queueName: ownQueue })(job);
    await handle.getResult();
    return id;
  };
}
