// dbosRunner: plan runs as DBOS workflows over Postgres (fleet mode) or over PGlite inside this
// process (embedded mode, experimental). DBOS keeps one engine per process, so a process holds one
// dbosRunner at a time. docs/fleet.md has the deploy shape.
import { DBOS, type DLogger } from "@dbos-inc/dbos-sdk";
import { err, errAsync, ok, okAsync, type Result, ResultAsync } from "neverthrow";
import { DISPATCH_NAME, dispatchIdOf, workerQueueOf } from "./affinity.js";
import { inPlace, readReportMd } from "./checkout.js";
import { startEmbedded } from "./embedded.js";
import { type DbosFault, redactSecrets, redactUrl, thrown } from "./fault.js";
import { holdExecutorId } from "./identity.js";
import { attemptOf, type Enqueued, enqueueAttempt, lookWith, parseJob, type RunJob, RunOutcome, runIdOf } from "./job.js";
import { checkOptions, type DbosRunnerOptions, DEFAULT_QUEUE } from "./options.js";
import { listRuns, type RunDetail, type RunSummary, showRun, strandedRuns, WORKFLOW_NAME } from "./status.js";
import { decayWorkflow, dispatchWorkflow } from "./workflow.js";

/** What `dbosRunner` returns. Every method launches DBOS on first use; `close` shuts it down. */
export interface DbosRunner {
  /**
   * Start the run and wait for its end. A run of the same id that is queued, running or ended with
   * a report is joined (a finished one hands back its recorded outcome); one that ended with a
   * fault is no answer, so its next attempt (`-r2`, `-r3`, …) runs.
   */
  run(job: RunJob): ResultAsync<RunOutcome, DbosFault>;
  /**
   * Put the run on the queue for some worker, which then holds it (docs/fleet.md): the same run
   * enqueued twice is one run, and one that ended with a fault is enqueued as its next attempt.
   */
  enqueue(job: RunJob): ResultAsync<Enqueued, DbosFault>;
  /** Serve the queue from this process until `close`: call it first, before any other method. */
  worker(): ResultAsync<void, DbosFault>;
  /** Every run in the database, or one run in full. */
  status(): ResultAsync<RunSummary[], DbosFault>;
  status(id: string): ResultAsync<RunDetail, DbosFault>;
  /** Shut DBOS down, release the executor id, stop the embedded database. Idempotent. */
  close(): Promise<void>;
}

/** The two registered workflows: the run, and the dispatcher a queued run is admitted by. */
interface Workflows {
  readonly workflow: (job: RunJob) => Promise<RunOutcome>;
  readonly dispatch: (job: RunJob) => Promise<string>;
}

interface Launched extends Workflows {
  readonly listening: boolean;
  readonly stop: () => Promise<void>;
}

// DBOS logs its system database URL with only a password before `@` masked: every form is masked here,
// for every embedder's `log`, not only the CLI's.
function loggerOf(log: DbosRunnerOptions["log"], url: string): DLogger {
  const text = (m: unknown) => redactSecrets(m instanceof Error ? m.message : typeof m === "string" ? m : JSON.stringify(m), url);
  return {
    info: (m) => log?.("info", text(m)),
    debug: () => undefined,
    warn: (m) => log?.("warn", text(m)),
    error: (m) => log?.("error", text(m)),
  };
}

/** The database URL (embedded: PGlite started and served) plus what to stop after DBOS shuts down. */
interface Database {
  readonly url: string;
  readonly stops: Array<() => Promise<void>>;
  /** Runs the launch with no other worker launching at the same time. */
  readonly alone: <T>(fn: () => Promise<T>) => Promise<T>;
}

function database(options: DbosRunnerOptions): ResultAsync<Database, DbosFault> {
  if (options.embedded !== undefined)
    return startEmbedded(options.embedded.dataDir).map((e) => ({ url: e.url, stops: [() => e.close()], alone: (fn) => fn() }));
  const url = options.databaseUrl as string;
  return holdExecutorId(url, options.executorId).map((lock) => ({ url, stops: [() => lock.release()], alone: (fn) => lock.alone(fn) }));
}

async function launchDbos(options: DbosRunnerOptions, url: string, listening: boolean): Promise<Workflows> {
  const queue = options.queue?.name ?? DEFAULT_QUEUE;
  const own = workerQueueOf(queue, options.executorId);
  const workflow = DBOS.registerWorkflow(
    decayWorkflow({
      executorId: options.executorId,
      ports: options.ports,
      checkout: options.checkout ?? inPlace,
      results: options.results ?? readReportMd,
      bundle: options.bundle,
    }),
    { name: WORKFLOW_NAME },
  );
  const dispatch = DBOS.registerWorkflow(dispatchWorkflow(workflow, own), { name: DISPATCH_NAME });
  DBOS.setConfig({
    name: options.applicationName ?? "decay",
    systemDatabaseUrl: url,
    executorID: options.executorId,
    applicationVersion: options.appVersion,
    // LISTEN/NOTIFY does not work through pglite-socket.
    useListenNotify: options.embedded === undefined,
    // pglite-socket interleaves the extended-protocol messages of concurrent connections (a Bind
    // meets another connection's Parse): one connection at a time keeps each query whole.
    ...(options.embedded === undefined ? {} : { systemDatabasePoolSize: 1 }),
    // The shared queue admits runs; this worker's own queue holds the runs it started.
    listenQueues: listening ? [queue, own] : [],
    logger: loggerOf(options.log, url),
  });
  await DBOS.launch();
  const workerConcurrency = options.queue?.workerConcurrency;
  await DBOS.registerQueue(queue, { globalConcurrency: options.queue?.concurrency, workerConcurrency });
  // Its runs recovered after a crash wait here with the new ones: never more than the limit at once.
  if (listening) await DBOS.registerQueue(own, { workerConcurrency });
  return { workflow, dispatch };
}

function launch(options: DbosRunnerOptions, listening: boolean): ResultAsync<Launched, DbosFault> {
  return database(options).andThen(({ url, stops, alone }) => {
    const stopAll = async () => {
      await DBOS.shutdown({ deregister: true }).catch(() => undefined);
      for (const stop of stops) await stop();
    };
    return ResultAsync.fromPromise(
      alone(() => launchDbos(options, url, listening)),
      (e): DbosFault => ({ code: "database-failed", database: redactUrl(url), reason: thrown(e) }),
    )
      .map((workflows): Launched => ({ ...workflows, listening, stop: stopAll }))
      .orElse((fault) => ResultAsync.fromSafePromise(stopAll()).andThen(() => errAsync<Launched, DbosFault>(fault)));
  });
}

/**
 * Say on the log each run this worker holds under another application version: it stays
 * `PENDING` and no worker of this version resumes it, which the listing alone does not show.
 */
async function sayStranded(options: DbosRunnerOptions): Promise<void> {
  const stranded = await strandedRuns(DBOS, options.executorId, options.appVersion).catch(() => []);
  for (const run of stranded)
    options.log?.(
      "warn",
      `run ${run.id} of executor ${options.executorId} started under app version ${run.version}, not ${options.appVersion}: it resumes only on this executor id launched with version ${run.version}`,
    );
}

/**
 * A runner whose runs survive a killed process and spread over machines: each run is a DBOS
 * workflow whose id is the run id, and each `ctx.step` of `runPlan` is a DBOS step.
 */
export function dbosRunner(options: DbosRunnerOptions): DbosRunner {
  const checked = checkOptions(options);
  let launched: Promise<Result<Launched, DbosFault>> | null = null;
  const ensure = (listening: boolean): ResultAsync<Launched, DbosFault> => {
    if (checked.isErr()) return errAsync(checked.error);
    const once = launched ?? Promise.resolve(launch(options, listening));
    launched = once;
    return new ResultAsync(once).andThen((l) =>
      listening && !l.listening ? errAsync<Launched, DbosFault>({ code: "not-a-worker", executorId: options.executorId }) : okAsync(l),
    );
  };
  // How many times the runner was closed: a call that started before the last close and fails
  // after it failed because of it, whatever the driver said.
  let closes = 0;
  const failed = (id: string, since = closes) => {
    const closedOn = `the runner was closed while the run was in flight: it resumes when a runner of executor ${options.executorId} and app version ${options.appVersion} launches`;
    return (e: unknown): DbosFault => ({ code: "run-failed", id, reason: closes === since ? thrown(e) : `${closedOn} (${thrown(e)})` });
  };
  // A run that ended with a fault is no final answer: its next attempt is started or enqueued.
  const look = lookWith((id) => DBOS.getWorkflowStatus(id));
  const start = (job: RunJob) =>
    ensure(false).andThen((l) =>
      ResultAsync.fromPromise(attemptOf(job, look), failed(runIdOf(job))).andThen((tried) =>
        // Started inside a promise: a start that throws at once is a fault, never a rejection.
        ResultAsync.fromPromise(
          Promise.resolve().then(() => DBOS.startWorkflow(l.workflow, { workflowID: tried.id })(tried.job)),
          failed(tried.id),
        ),
      ),
    );
  const queueName = options.queue?.name ?? DEFAULT_QUEUE;
  // A queued run goes through its dispatcher, unless the run exists already (then it is that run).
  const admit = (job: RunJob): ResultAsync<Enqueued, DbosFault> =>
    ensure(false).andThen((l) =>
      ResultAsync.fromPromise(
        enqueueAttempt(job, look, (tried, id) => DBOS.startWorkflow(l.dispatch, { workflowID: dispatchIdOf(id), queueName })(tried)),
        failed(runIdOf(job)),
      ),
    );
  function status(): ResultAsync<RunSummary[], DbosFault>;
  function status(id: string): ResultAsync<RunDetail, DbosFault>;
  function status(id?: string): ResultAsync<RunSummary[] | RunDetail, DbosFault> {
    return ensure(false).andThen(() => (id === undefined ? listRuns(DBOS) : showRun(DBOS, id)));
  }
  return {
    run: (job) => {
      const since = closes;
      return okAsync(undefined)
        .andThen(() => parseJob(job))
        .andThen(start)
        .andThen((handle) => ResultAsync.fromPromise(handle.getResult(), failed(handle.workflowID, since)))
        .andThen((out) => {
          const parsed = RunOutcome.safeParse(out);
          return parsed.success
            ? ok(parsed.data)
            : err<RunOutcome, DbosFault>({ code: "run-failed", id: "?", reason: "the workflow's output is not a run outcome" });
        });
    },
    enqueue: (job) =>
      okAsync(undefined)
        .andThen(() => parseJob(job))
        .andThen(admit),
    worker: () => ensure(true).andThen(() => ResultAsync.fromSafePromise(sayStranded(options))),
    status,
    close: async () => {
      closes += 1;
      const l = launched;
      launched = null;
      if (l === null) return;
      const r = await l;
      if (r.isOk()) await r.value.stop();
    },
  };
}
