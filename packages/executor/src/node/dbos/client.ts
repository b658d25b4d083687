// The operator's side of a fleet: enqueue runs and read their state with a DBOS client, which
// launches nothing, takes no executor id and runs no workflow.
import { DBOSClient } from "@dbos-inc/dbos-sdk";
import { errAsync, okAsync, ResultAsync } from "neverthrow";
import { DISPATCH_NAME, dispatchIdOf, queueNameIssue } from "./affinity.js";
import { type DbosFault, redactUrl, thrown } from "./fault.js";
import { probeDatabase } from "./identity.js";
import { type Enqueued, enqueueAttempt, lookWith, parseJob, type RunJob } from "./job.js";
import { DEFAULT_QUEUE } from "./options.js";
import { listRuns, type RunDetail, type RunSummary, showRun } from "./status.js";

export type { Enqueued } from "./job.js";

/** A client of the fleet's database. */
export interface DbosClient {
  /**
   * Put a run on the queue (through its dispatcher: docs/fleet.md). The run id covers every input
   * of the job (job.ts, `runIdOf`). `existed` when the same run is queued, running or ended with a
   * report (it runs once); a run that ended with a fault is enqueued again as its next attempt, and
   * `retried` lists the faulted run ids it follows (empty when none).
   */
  enqueue(job: RunJob): ResultAsync<Enqueued, DbosFault>;
  /** Every run in the database, oldest first. */
  runs(): ResultAsync<RunSummary[], DbosFault>;
  /** One run in full. */
  run(id: string): ResultAsync<RunDetail, DbosFault>;
  close(): Promise<void>;
}

/**
 * A client of the database at `databaseUrl`. Runs it enqueues carry no application version: the
 * workers on the latest registered version take them (docs/fleet.md).
 */
export function dbosClient(options: {
  readonly databaseUrl: string;
  readonly queue?: string;
  readonly applicationName?: string;
}): ResultAsync<DbosClient, DbosFault> {
  const database = redactUrl(options.databaseUrl);
  const failed = (e: unknown): DbosFault => ({ code: "database-failed", database, reason: thrown(e) });
  const silent = { info: () => undefined, debug: () => undefined, warn: () => undefined, error: () => undefined };
  const applicationName = options.applicationName ?? "decay";
  const queueIssue = options.queue === undefined ? undefined : queueNameIssue(options.queue);
  if (queueIssue !== undefined) return errAsync({ code: "dbos-option-invalid", option: "queue", issue: queueIssue });
  return probeDatabase(options.databaseUrl).andThen((probed) =>
    ResultAsync.fromPromise(DBOSClient.create({ systemDatabaseUrl: options.databaseUrl, applicationName, logger: silent }), failed).map(
      (client): DbosClient => {
        // DBOS makes its tables when a worker or runner first launches; its client makes none. Until
        // they are there, each call asks again.
        let tables = probed.tables;
        const ready = (): ResultAsync<boolean, DbosFault> => (tables ? okAsync(true) : probeDatabase(options.databaseUrl).map((p) => (tables = p.tables)));
        const enqueue = (job: RunJob): ResultAsync<Enqueued, DbosFault> =>
          parseJob(job).asyncAndThen((parsed) =>
            ready().andThen((made) =>
              !made
                ? errAsync<Enqueued, DbosFault>({ code: "database-failed", database, reason: NO_TABLES })
                : ResultAsync.fromPromise(
                    // A run that ended with a fault is no final answer: its next attempt is enqueued.
                    enqueueAttempt(
                      parsed,
                      lookWith((id) => client.getWorkflow(id)),
                      (tried, id) =>
                        client.enqueue(
                          { workflowName: DISPATCH_NAME, queueName: options.queue ?? DEFAULT_QUEUE, workflowID: dispatchIdOf(id), applicationName },
                          tried,
                        ),
                    ),
                    failed,
                  ),
            ),
          );
        return {
          enqueue,
          // With no tables, no run was ever enqueued: an empty list, and no run of any id.
          runs: () => ready().andThen((made) => (made ? listRuns(client) : okAsync([]))),
          run: (id) => ready().andThen((made) => (made ? showRun(client, id) : errAsync<RunDetail, DbosFault>({ code: "run-unknown", id }))),
          close: () => client.destroy(),
        };
      },
    ),
  );
}

const NO_TABLES =
  "no worker has started on it yet, so it has no DBOS tables to queue a run in: start a worker (decay worker --database-url ...) once, then enqueue";
