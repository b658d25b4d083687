// What `decay runs` shows: each run's state read from DBOS (the workflow's status, input, output
// and recorded steps), never from files on a worker. A run still waiting on the shared queue is
// its dispatcher's row (affinity.ts), shown under the run's id.
import type { DBOSClient, GetWorkflowsInput, WorkflowStatus } from "@dbos-inc/dbos-sdk";
import { err, ok, type Result, ResultAsync } from "neverthrow";
import { z } from "zod";
import { DISPATCH_NAME, dispatchIdOf, queueOwner, runIdOfDispatch } from "./affinity.js";
import { type DbosFault, thrown } from "./fault.js";
import { RunJob, RunOutcome } from "./job.js";

type StepInfo = NonNullable<Awaited<ReturnType<DBOSClient["listWorkflowSteps"]>>>[number];

/** The workflow name every run is registered under. */
export const WORKFLOW_NAME = "decay-run";

/** One run in a listing (`decay runs --json` prints these, one per line). */
export const RunSummary = z.object({
  id: z.string(),
  plan: z.string(),
  repo: z.string(),
  /** DBOS's status: ENQUEUED (waiting for a worker, or for its own worker after a crash), PENDING (running, or its worker is down), SUCCESS, ERROR, CANCELLED… */
  status: z.string(),
  /**
   * The run's status in its report once it finished (green, incomplete, …), or the fault's code
   * when it ended with one, even after a report (a failed `bundle` step): a fault is never shown as a verdict.
   */
  outcome: z.string().nullable(),
  /** The executor id of the worker that holds the run (null while no worker has taken it). */
  worker: z.string().nullable(),
  /** Stages green in the final verification; null until the run finished. */
  green: z.array(z.string()).nullable(),
  /** Steps recorded so far. */
  steps: z.number().int(),
});
export type RunSummary = z.infer<typeof RunSummary>;

/** One run in full (`decay runs show ID`): the summary, where its branch is, its report and its steps. */
export const RunDetail = RunSummary.extend({
  dir: z.string().nullable(),
  branch: z.string().nullable(),
  result: RunOutcome.nullable(),
  /**
   * Why the run ended with no outcome of its own (its workflow failed, was cancelled or was given
   * up on; its dispatcher ended without starting it), or null: such a run is a fault, never a verdict.
   */
  failure: z.string().nullable(),
  stepNames: z.array(z.string()),
});
export type RunDetail = z.infer<typeof RunDetail>;

/** What both `DBOS` (in a launched process) and a `DBOSClient` answer. */
export interface Inspector {
  listWorkflows(input: GetWorkflowsInput): Promise<WorkflowStatus[]>;
  listWorkflowSteps(id: string): Promise<StepInfo[] | undefined>;
}

const isDispatch = (w: WorkflowStatus) => w.workflowName === DISPATCH_NAME;

/** Who holds the run: the worker that finished it, runs it, or whose own queue it waits on. */
function holderOf(w: WorkflowStatus, result: RunOutcome | null): string | null {
  if (result !== null) return result.worker;
  if (isDispatch(w)) return null;
  return w.status === "ENQUEUED" ? queueOwner(w.queueName) : (w.executorId ?? null);
}

/** A run's summary from its workflow's row, or from its dispatcher's while the run has not started. */
function summaryOf(w: WorkflowStatus, steps: readonly StepInfo[]): RunSummary {
  const job = RunJob.safeParse(w.input?.[0]);
  const out = RunOutcome.safeParse(w.output);
  const result = out.success && !isDispatch(w) ? out.data : null;
  const outcome = result === null ? null : (result.fault?.code ?? result.report?.status ?? null);
  // A dispatcher a worker has taken is about to start the run: still queued.
  const status = isDispatch(w) && w.status === "PENDING" ? "ENQUEUED" : w.status;
  return {
    id: isDispatch(w) ? runIdOfDispatch(w.workflowID) : w.workflowID,
    plan: job.success ? job.data.plan : "?",
    repo: job.success ? job.data.repo : "?",
    status,
    outcome,
    worker: holderOf(w, result),
    green: result?.report?.end.green ?? null,
    steps: steps.length,
  };
}

/** Why a run whose row is `w` ended with no outcome of its own, or null when it did not. */
function failureOf(w: WorkflowStatus): string | null {
  switch (w.status) {
    case "ERROR":
      return `its workflow failed: ${w.error === undefined || w.error === null ? "DBOS recorded no error" : thrown(w.error)}`;
    case "CANCELLED":
      return isDispatch(w) ? "it was cancelled before a worker started it" : "its workflow was cancelled";
    case "MAX_RECOVERY_ATTEMPTS_EXCEEDED":
      return `DBOS gave up recovering its workflow after ${w.recoveryAttempts ?? "too many"} attempts`;
    case "SUCCESS": {
      if (isDispatch(w)) return "its dispatcher ended without starting it";
      // A finished run whose output this version cannot read (another version's, a damaged row) has
      // no outcome to show: a fault, never a quiet success.
      const out = RunOutcome.safeParse(w.output);
      const issue = out.success ? undefined : out.error.issues[0];
      return out.success
        ? null
        : `its workflow ended, but what it recorded is no run outcome this version of decay reads (${issue?.path.join(".") || "output"}: ${issue?.message ?? "invalid"})`;
    }
    default:
      return null;
  }
}

/** One row a run, in the order the runs were first seen: the run's own row, else its dispatcher's. */
function byRun(rows: readonly WorkflowStatus[]): WorkflowStatus[] {
  const runs = new Map<string, WorkflowStatus>();
  for (const w of rows) {
    const id = isDispatch(w) ? runIdOfDispatch(w.workflowID) : w.workflowID;
    if (!runs.has(id) || !isDispatch(w)) runs.set(id, w);
  }
  return [...runs.values()];
}

const stepsOf = async (dbos: Inspector, w: WorkflowStatus) => (isDispatch(w) ? [] : ((await dbos.listWorkflowSteps(w.workflowID)) ?? []));

/** Every run in the database, oldest first. */
export function listRuns(dbos: Inspector): ResultAsync<RunSummary[], DbosFault> {
  return ResultAsync.fromPromise(
    (async () => {
      const all = await dbos.listWorkflows({ workflowName: [WORKFLOW_NAME, DISPATCH_NAME], loadInput: true, loadOutput: true });
      return Promise.all(byRun(all).map(async (w) => summaryOf(w, await stepsOf(dbos, w))));
    })(),
    (e): DbosFault => ({ code: "database-failed", database: "system database", reason: thrown(e) }),
  );
}

/** A run a worker holds that is still in flight under another application version. */
export interface StrandedRun {
  readonly id: string;
  readonly version: string;
}

/**
 * The runs `executorId` holds (running, or waiting on its own queue) that were started under an
 * application version other than `appVersion`: DBOS resumes a run only in a process of the version
 * it started on, so no worker of this version ever takes them (docs/fleet.md, "a deploy").
 */
export async function strandedRuns(dbos: Inspector, executorId: string, appVersion: string): Promise<StrandedRun[]> {
  const live = await dbos.listWorkflows({ workflowName: WORKFLOW_NAME, status: ["PENDING", "ENQUEUED"] });
  return live
    .filter((w) => (w.status === "PENDING" ? w.executorId === executorId : queueOwner(w.queueName) === executorId))
    .flatMap((w) => (w.applicationVersion === undefined || w.applicationVersion === appVersion ? [] : [{ id: w.workflowID, version: w.applicationVersion }]));
}

/** One run in full, or `run-unknown`. */
export function showRun(dbos: Inspector, id: string): ResultAsync<RunDetail, DbosFault> {
  return ResultAsync.fromPromise(
    (async () => {
      const rows = await dbos.listWorkflows({ workflowIDs: [id, dispatchIdOf(id)], loadInput: true, loadOutput: true });
      const [w] = byRun(rows.filter((r) => r.workflowName === (r.workflowID === id ? WORKFLOW_NAME : DISPATCH_NAME)));
      if (w === undefined) return null;
      const steps = await stepsOf(dbos, w);
      const out = RunOutcome.safeParse(isDispatch(w) ? null : w.output);
      const checkout = steps.find((s) => s.name === "checkout")?.output as { ok?: boolean; value?: unknown } | undefined;
      const dir = out.success ? out.data.dir : checkout?.ok === true && typeof checkout.value === "string" ? checkout.value : null;
      return {
        ...summaryOf(w, steps),
        dir,
        branch: out.success ? out.data.branch : null,
        result: out.success ? out.data : null,
        failure: failureOf(w),
        stepNames: steps.map((s) => s.name),
      };
    })(),
    (e): DbosFault => ({ code: "database-failed", database: "system database", reason: thrown(e) }),
  ).andThen((d): Result<RunDetail, DbosFault> => (d === null ? err({ code: "run-unknown", id }) : ok(d)));
}
