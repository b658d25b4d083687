// Worker affinity: a run's steps name a clone on the disk of the worker that runs it, so once a
// worker has started a run, only that worker may resume it. DBOS's recovery puts a killed worker's
// runs back on the queue they were on; so a queued run is admitted on the shared queue by a small
// dispatcher workflow, which starts the run itself on the admitting worker's own queue, one no other
// worker listens on. Names only here (no DBOS import): the CLI's listings load this file.

/** The workflow name of a queued run's dispatcher. */
export const DISPATCH_NAME = "decay-dispatch";

const DISPATCH_PREFIX = "dispatch:";

/** The dispatcher's workflow id for a run id: one dispatcher a run, however often it is enqueued. */
export function dispatchIdOf(runId: string): string {
  return `${DISPATCH_PREFIX}${runId}`;
}

/** The run id a dispatcher's workflow id stands for. */
export function runIdOfDispatch(dispatchId: string): string {
  return dispatchId.startsWith(DISPATCH_PREFIX) ? dispatchId.slice(DISPATCH_PREFIX.length) : dispatchId;
}

/** What a queue name may hold: no `@`, which names a worker's own queue (`<queue>@<executor id>`). */
export const QUEUE_NAME = /^[A-Za-z0-9._-]+$/;

/** The rule QUEUE_NAME holds a name to, in words. */
export const QUEUE_NAME_RULE = "may hold letters, digits and . _ - only";

/** Why `name` is no queue name (the rule and the name), or `undefined` when it is one. */
export function queueNameIssue(name: string): string | undefined {
  return QUEUE_NAME.test(name) ? undefined : `${QUEUE_NAME_RULE}, not ${JSON.stringify(name)}`;
}

/** What an executor id may hold. */
export const EXECUTOR_ID = /^[A-Za-z0-9._:@-]+$/;

/**
 * Why `id` is no executor id (DBOS's default `local`, or a character outside `EXECUTOR_ID`), or
 * `undefined` when it is one. An empty id is said by each caller (a missing flag, a missing option).
 */
export function executorIdIssue(id: string): string | undefined {
  if (id === "local") return "must not be DBOS's default `local`: give each worker its own id";
  return EXECUTOR_ID.test(id) ? undefined : `may hold letters, digits and . _ : @ - only, not ${JSON.stringify(id)}`;
}

/**
 * Why `version` cannot be an application version, or undefined. A version is compared byte for
 * byte: `" v1"` and `"v1"` would be two, and the runs of one would wait for ever for a worker of
 * the other, so no whitespace at either end and no control character.
 */
export function appVersionIssue(version: string): string | undefined {
  if (version === "") return "is required: the version runs in flight resume on";
  return /^\s|\s$|[\u0000-\u001f\u007f]/.test(version)
    ? `must have no whitespace at either end and no control character, not ${JSON.stringify(version)}`
    : undefined;
}

/** A worker's own queue: `<queue>@<executor id>` (queue names hold no `@`). */
export function workerQueueOf(queue: string, executorId: string): string {
  return `${queue}@${executorId}`;
}

/** The executor id whose own queue `queueName` is, or null for a shared queue. */
export function queueOwner(queueName: string | undefined): string | null {
  const at = queueName?.indexOf("@") ?? -1;
  return queueName === undefined || at < 0 ? null : queueName.slice(at + 1);
}
