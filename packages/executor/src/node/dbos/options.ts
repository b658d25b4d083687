// The options of dbosRunner, checked before anything is opened.
import { err, ok, type Result } from "neverthrow";
import { z } from "zod";
import { appVersionIssue, executorIdIssue, QUEUE_NAME, QUEUE_NAME_RULE } from "./affinity.js";
import type { DbosFault } from "./fault.js";
import type { Bundle, Checkout, PortsFor, Results } from "./workflow.js";

/** The queue runs go on when no name is given. */
export const DEFAULT_QUEUE = "decay-runs";

/** Where DBOS keeps its state: a Postgres server (fleet) or PGlite in a data directory of this process (embedded, experimental). */
export type DbosTarget =
  | { readonly databaseUrl: string; readonly embedded?: undefined }
  | { readonly embedded: { readonly dataDir: string }; readonly databaseUrl?: undefined };

/** Options of `dbosRunner`. */
export type DbosRunnerOptions = DbosTarget & {
  /** This process's stable identity: DBOS recovers a worker's runs only in a process launched with the same id. Never the default `local`. */
  readonly executorId: string;
  /** The code's version, explicit: runs in flight resume only on a worker with the version they started on. */
  readonly appVersion: string;
  /** The queue: its name (default `decay-runs`), runs at once across every worker, and per worker. */
  readonly queue?: { readonly name?: string; readonly concurrency?: number; readonly workerConcurrency?: number };
  /** Builds a run's ports on this worker. */
  readonly ports: PortsFor;
  /** Materialises a job's repository (default: the job's `repo` is the working directory itself). */
  readonly checkout?: Checkout;
  /** Reads REPORT.md after a run (default: from the run's workspace). */
  readonly results?: Results;
  /** Writes the run's branch as a git bundle after the run (default: none). */
  readonly bundle?: Bundle;
  /** DBOS's log lines; default: dropped. The library never writes to a terminal. */
  readonly log?: (level: "info" | "warn" | "error", message: string) => void;
  /** The DBOS application name; default `decay`. */
  readonly applicationName?: string;
};

const Checked = z.object({
  databaseUrl: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
    .optional(),
  embedded: z.object({ dataDir: z.string().min(1, "needs a data directory") }).optional(),
  executorId: z
    .string()
    .min(1, "is required: each worker needs its own stable id")
    .check((ctx) => {
      const issue = ctx.value === "" ? undefined : executorIdIssue(ctx.value);
      if (issue !== undefined) ctx.issues.push({ code: "custom", message: issue, input: ctx.value });
    }),
  appVersion: z.string().check((ctx) => {
    const issue = appVersionIssue(ctx.value);
    if (issue !== undefined) ctx.issues.push({ code: "custom", message: issue, input: ctx.value });
  }),
  queue: z
    .object({
      name: z.string().regex(QUEUE_NAME, QUEUE_NAME_RULE).optional(),
      concurrency: z.number().int().min(1).optional(),
      workerConcurrency: z.number().int().min(1).optional(),
    })
    .optional(),
});

/** The options checked: exactly one of `databaseUrl` and `embedded`, explicit ids. */
export function checkOptions(options: DbosRunnerOptions): Result<void, DbosFault> {
  const parsed = Checked.safeParse(options);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return err({ code: "dbos-option-invalid", option: issue?.path.join(".") || "options", issue: issue?.message ?? "invalid" });
  }
  if ((options.databaseUrl === undefined) === (options.embedded === undefined)) {
    return err({ code: "dbos-option-invalid", option: "databaseUrl", issue: "give exactly one of databaseUrl and embedded" });
  }
  if (typeof options.ports !== "function") return err({ code: "dbos-option-invalid", option: "ports", issue: "must be a function building a run's ports" });
  return ok(undefined);
}
