// What `decay runs` shows: each run's state read from DBOS (the workflow's status, input, output
// and recorded steps), never from files on a worker.
import type { DBOSClient, GetWorkflowsInput, WorkflowStatus } from "@dbos-inc/dbos-sdk";

type StepInfo = NonNullable<Awaited<ReturnType<DBOSClient["listWorkflowSteps"]>>>[number];
import { err, ok, type Result, ResultAsync } from "neverthrow";
import { z } from "zod";
import { type DbosFault, thrown } from "./fault.js";
import { RunJob, RunOutcome } from "./job.js";

/** The workflow name every run is registered under. */
export const WORKFLOW_NAME = "decay-run";

/** One run in a listing (`decay runs --json` prints these, one per line). */
export const RunSummary = z.object({
  id: z.string(),
  plan: z.string(),
  repo: z.string(),
  /** DBOS's status: ENQUEUED, PENDING (running or waiting for its worker), SUCCESS, ERROR, CANCELLED… */
  status: z.string(),
  /** The run's status in its report once it finished (green, incomplete, …), or the fault's code. */
  outcome: z.string().nullable(),
  /** The executor id of the worker that owns the run (null while it is queued). */
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
  stepNames: z.array(z.string()),
});
export type RunDetail = z.infer<typeof RunDetail>;

/** What both `DBOS` (in a launched process) and a `DBOSClient` answer. */
export interface Inspector {
  listWorkflows(input: GetWorkflowsInput): Promise<WorkflowStatus[]>;
  listWorkflowSteps(id: string): Promise<StepInfo[] | undefined>;
}

function summaryOf(w: WorkflowStatus, steps: readonly StepInfo[]): RunSummary {
  const job = RunJob.safeParse(w.input?.[0]);
  const out = RunOutcome.safeParse(w.output);
  const result = out.success ? out.data : null;
  const outcome = result === null ? null : (result.report?.status ?? (result.fault as { code?: string } | null)?.code ?? null);
  return {
    id: w.workflowID,
    plan: job.success ? job.data.plan : "?",
    repo: job.success ? job.data.repo : "?",
    status: w.status,
    outcome,
    worker: result?.worker ?? (w.status === "ENQUEUED" ? null : (w.executorId ?? null)),
    green: result?.report?.end.green ?? null,
    steps: steps.length,
  };
}

/** Every run in the database, oldest first. */
export function listRuns(dbos: Inspector): ResultAsync<RunSummary[], DbosFault> {
  return ResultAsync.fromPromise(
    (async () => {
      const all = await dbos.listWorkflows({ workflowName: WORKFLOW_NAME, loadInput: true, loadOutput: true });
      return Promise.all(all.map(async (w) => summaryOf(w, (await dbos.listWorkflowSteps(w.workflowID)) ?? [])));
    })(),
    (e): DbosFault => ({ code: "database-failed", database: "system database", reason: thrown(e) }),
  );
}

/** One run in full, or `run-unknown`. */
export function showRun(dbos: Inspector, id: string): ResultAsync<RunDetail, DbosFault> {
  return ResultAsync.fromPromise(
    (async () => {
      const [w] = await dbos.listWorkflows({ workflowIDs: [id], loadInput: true, loadOutput: true });
      if (w === undefined) return null;
      const steps = (await dbos.listWorkflowSteps(id)) ?? [];
      const out = RunOutcome.safeParse(w.output);
      const checkout = steps.find((s) => s.name === "checkout")?.output as { ok?: boolean; value?: unknown } | undefined;
      const dir = out.success ? out.data.dir : checkout?.ok === true && typeof checkout.value === "string" ? checkout.value : null;
      return {
        ...summaryOf(w, steps),
        dir,
        branch: out.success ? out.data.branch : null,
        result: out.success ? out.data : null,
        stepNames: steps.map((s) => s.name),
      };
    })(),
    (e): DbosFault => ({ code: "database-failed", database: "system database", reason: thrown(e) }),
  ).andThen((d): Result<RunDetail, DbosFault> => (d === null ? err({ code: "run-unknown", id }) : ok(d)));
}
