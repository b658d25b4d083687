// A run as a DBOS workflow sees it: small JSON that any worker can act on, and the run id derived
// from it, so the same run enqueued twice is one workflow.
import { createHash } from "node:crypto";
import { z } from "zod";
import type { ExecFault } from "../../fault.js";
import { slugOf } from "../../run/paths.js";
import { RunReport } from "../../schema.js";

/** The settings of `runPlan` a job carries (the rest are the worker's ports). */
export const JobSettings = z.object({
  includeOptional: z.boolean().optional(),
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
});
export type RunJob = z.infer<typeof RunJob>;

/**
 * The run id: the plan's slug and a hash of the contract, the repository and the base commit. It
 * is the DBOS workflow id, so starting or enqueueing the same run twice starts it once.
 */
export function runIdOf(job: Pick<RunJob, "contract" | "repo" | "base" | "plan">): string {
  const contractHash = createHash("sha256").update(job.contract).digest("hex");
  const digest = createHash("sha256")
    .update(`${contractHash}\n${job.repo}\n${job.base ?? "-"}\n`)
    .digest("hex");
  return `${slugOf(job.plan)}-${digest.slice(0, 20)}`;
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
