// @decay/executor/dbos: plan runs as DBOS workflows (Postgres, or PGlite in this process). The only
// entry that loads @dbos-inc/dbos-sdk and @electric-sql/pglite(-socket), all optional peers.
export { dbosRunner } from "../node/dbos/runner.js";
export type { DbosRunner } from "../node/dbos/runner.js";
export { DEFAULT_QUEUE } from "../node/dbos/options.js";
export type { DbosRunnerOptions, DbosTarget } from "../node/dbos/options.js";
export { DBOS_FAULT_CODES, describeDbosFault } from "../node/dbos/fault.js";
export type { DbosFault } from "../node/dbos/fault.js";
export { JobSettings, RunJob, RunOutcome, runIdOf } from "../node/dbos/job.js";
export type { Enqueued } from "../node/dbos/job.js";
export { RunDetail, RunSummary, WORKFLOW_NAME } from "../node/dbos/status.js";
export { DISPATCH_NAME, dispatchIdOf, workerQueueOf } from "../node/dbos/affinity.js";
export { dbosSteps } from "../node/dbos/workflow.js";
export type { Bundle, Checkout, PortsFor, Results, RunPorts } from "../node/dbos/workflow.js";
export { gitBundle, gitCheckout, inPlace, readReportMd } from "../node/dbos/checkout.js";
export { dbosClient } from "../node/dbos/client.js";
export type { DbosClient } from "../node/dbos/client.js";
