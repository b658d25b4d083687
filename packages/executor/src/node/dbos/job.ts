// A run as a DBOS workflow sees it: small JSON that any worker can act on, and the run id derived
// from it, so the same run enqueued twice is one workflow.
import { createHash } from "node:crypto";
import { err, ok, type Result } from "neverthrow";
import { z } from "zod";
import type { ExecFault } from "../../fault.js";
import { slugOf } from "../../run/paths.js";
import { RunReport } from "../../schema.js";
import { dispatchIdOf } from "./affinity.js";
import type { DbosFault } from "./fault.js";

/** The settings of `runPlan` a job carries (the rest are the worker's ports). */
export const JobSettings = z.object({
  includeOptional: z.boolean().optional(),
  executeMayEditSurface: z.boolean().optional(),
  attemptBudget: z.number().int().min(1).optional(),
  tokenTarget: z.number().int().min(1).optional(),
  setup: z.string().min(1).optional(),
  assumptions: z.string().min(1).optional(),
  maxReadBytes: z.number().int().min(1).optional(),
});
export type JobSettings = z.infer<typeof JobSettings>;

/** One run: the contract's text (contract.md), where the repository comes from and at which commit. */
export const RunJob = z.object({
  /** The contract as contract.md renders it (docs/contract-format.md). */
  contract: z.string().min(1),
  /** The plan's exact text, when the repository might not hold it. */
  planText: z.string().optional(),
  /** A path or git URL every worker can clone or fetch from; in embedded mode, the working directory itself. */
  repo: z.string().min(1),
  /** The commit the run starts from; null: the repository as it stands. */
  base: z
    .string()
    .regex(/^[0-9a-f]{40}$/)
    .nullable(),
  /** The plan file's path in the contract, for listings. */
  plan: z.string().min(1),
  settings: JobSettings.default({}),
  /**
   * What else the run depends on when the process that starts it also runs it (`decay run
   * --durable`: its agent command and clean room). Part of the run id only; a fleet's workers use
   * their own ports.
   */
  identity: z.record(z.string(), z.string()).optional(),
  /** Which try of these inputs this is (absent: the first): a run that ended with a fault is tried again under the next one. */
  attempt: z.number().int().min(2).optional(),
});
export type RunJob = z.infer<typeof RunJob>;

/** The fields of a job its run id is derived from. */
export type RunIdInputs = Pick<RunJob, "contract" | "repo" | "base" | "plan"> & Partial<Pick<RunJob, "planText" | "settings" | "identity" | "attempt">>;

/** JSON with object keys sorted and `undefined` members left out, so equal inputs hash equally. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/**
 * The run id: the plan's slug and a hash of every input of the run (the contract, the plan's text,
 * the repository, the base commit, the settings and the `identity` the starter adds), then `-rN`
 * from the second attempt on. It is the DBOS workflow id, so starting or enqueueing the same run
 * twice starts it once, and a run with any other input is another run.
 */
export function runIdOf(job: RunIdInputs): string {
  const inputs = {
    contract: createHash("sha256").update(job.contract).digest("hex"),
    planText: job.planText === undefined ? undefined : createHash("sha256").update(job.planText).digest("hex"),
    repo: job.repo,
    base: job.base,
    settings: job.settings ?? {},
    identity: job.identity,
  };
  const digest = createHash("sha256").update(canonical(inputs)).digest("hex");
  const attempt = job.attempt === undefined || job.attempt < 2 ? "" : `-r${job.attempt}`;
  return `${slugOf(job.plan)}-${digest.slice(0, 20)}${attempt}`;
}

/**
 * How a run id stands in the database: `absent` (never started or enqueued), `live` (queued or
 * running: joining it is right), `final` (ended with a report and no fault: its recorded outcome is
 * the answer) or `faulted` (ended with a fault, an error or a cancellation: never a final answer).
 */
export type RecordedRun = "absent" | "live" | "final" | "faulted";

/** A workflow's row as DBOS's `getWorkflowStatus`/`getWorkflow` give it (only what is read here). */
export interface WorkflowRow {
  readonly status: string;
  readonly output?: unknown;
}

const ENDED_BADLY = new Set(["ERROR", "CANCELLED", "MAX_RECOVERY_ATTEMPTS_EXCEEDED"]);

/**
 * How a run stands, from its own workflow's row (`run`) and, while that is absent, its dispatcher's
 * (`dispatch`: docs/fleet.md, "Worker affinity").
 */
export function recordedRun(run: WorkflowRow | null | undefined, dispatch?: WorkflowRow | null): RecordedRun {
  if (run === null || run === undefined) {
    if (dispatch === null || dispatch === undefined) return "absent";
    // A dispatcher that ended without its run having started cannot start it any more.
    return ENDED_BADLY.has(dispatch.status) || dispatch.status === "SUCCESS" ? "faulted" : "live";
  }
  if (ENDED_BADLY.has(run.status)) return "faulted";
  if (run.status !== "SUCCESS") return "live";
  const out = RunOutcome.safeParse(run.output);
  return out.success && out.data.fault === null && out.data.report !== null ? "final" : "faulted";
}

/** Attempts looked at before giving up: a bound on database reads, far above any real retry count. */
export const MAX_ATTEMPTS = 1000;

/**
 * The attempt of `job` to start or join: the first whose run is absent, live or final, skipping
 * every attempt that ended with a fault. `faulted` lists the run ids skipped, oldest first, so the
 * caller can say which recorded faults it runs again; `state` is how the attempt picked stands. Rejects only as `look` does, or past
 * `MAX_ATTEMPTS`.
 */
export async function attemptOf(
  job: RunJob,
  look: (id: string) => Promise<RecordedRun>,
): Promise<{ job: RunJob; id: string; faulted: string[]; state: Exclude<RecordedRun, "faulted"> }> {
  const faulted: string[] = [];
  for (let n = 1; n <= MAX_ATTEMPTS; n++) {
    const { attempt: _, ...rest } = job;
    const tried: RunJob = n === 1 ? rest : { ...rest, attempt: n };
    const id = runIdOf(tried);
    const state = await look(id);
    if (state !== "faulted") return { job: tried, id, faulted, state };
    faulted.push(id);
  }
  throw new Error(`${runIdOf(job)}: ${MAX_ATTEMPTS} attempts ended with a fault; delete its workflows to run it again`);
}

/**
 * How a run id stands, from a reader of workflow rows (DBOS's `getWorkflowStatus`, a client's
 * `getWorkflow`): the run's own row and, while that is absent, its dispatcher's.
 */
export function lookWith(row: (id: string) => Promise<WorkflowRow | null | undefined>): (id: string) => Promise<RecordedRun> {
  return async (id) => recordedRun(await row(id), await row(dispatchIdOf(id)));
}

/** What an enqueue did: the run id it queued or found, and the faulted attempts it follows. */
export interface Enqueued {
  readonly id: string;
  /** The run was queued, running or ended with a report already: it runs once. */
  readonly existed: boolean;
  /** The run ids of the attempts that ended with a fault, oldest first (empty when none). */
  readonly retried: readonly string[];
}

/**
 * Enqueue the attempt of `job` that `attemptOf` picks through `put`, unless that run exists: the
 * one rule behind a worker's `enqueue` and a client's.
 */
export async function enqueueAttempt(
  job: RunJob,
  look: (id: string) => Promise<RecordedRun>,
  put: (tried: RunJob, id: string) => Promise<unknown>,
): Promise<Enqueued> {
  const tried = await attemptOf(job, look);
  const existed = tried.state !== "absent";
  if (!existed) await put(tried.job, tried.id);
  return { id: tried.id, existed, retried: tried.faulted };
}

/** A job as the runner and the client take it, or `job-invalid` naming each field that is wrong. */
export function parseJob(job: unknown): Result<RunJob, DbosFault> {
  const parsed = RunJob.safeParse(job);
  if (parsed.success) return ok(parsed.data);
  return err({ code: "job-invalid", issue: parsed.error.issues.map((i) => `${i.path.join(".") || "job"}: ${i.message}`).join("; ") });
}

/** What a finished workflow hands back, kept in the database as the workflow's output. */
export const RunOutcome = z.object({
  id: z.string(),
  /** The executor id of the worker that finished the run. */
  worker: z.string(),
  /** The directory on that worker holding the run's branch. */
  dir: z.string(),
  /** The branch the run committed to. */
  branch: z.string(),
  /** The run's report; null when it ended with a fault. */
  report: RunReport.nullable(),
  /** The fault the run ended with (never a verdict); null when it reported. */
  fault: z.custom<ExecFault>((v) => typeof v === "object" && v !== null && typeof (v as { code?: unknown }).code === "string").nullable(),
  /** REPORT.md as the run wrote it. */
  reportMd: z.string().nullable(),
  /** Where `--bundle` wrote the branch's git bundle, when asked. */
  bundle: z.string().nullable(),
});
export type RunOutcome = z.infer<typeof RunOutcome>;
