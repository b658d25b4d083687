// @decay/executor/dbos: plan runs as DBOS workflows (Postgres, or PGlite in this process). The only
// entry that loads @dbos-inc/dbos-sdk and @electric-sql/pglite(-socket), all optional peers.
export { dbosRunner } from "../dbos/runner.js";
export type { DbosRunner } from "../dbos/runner.js";
export { DEFAULT_QUEUE } from "../dbos/options.js";
export type { DbosRunnerOptions, DbosTarget } from "../dbos/options.js";
export { DBOS_FAULT_CODES, describeDbosFault } from "../dbos/fault.js";
export type { DbosFault } from "../dbos/fault.js";
export { JobSettings, RunJob, RunOutcome, runIdOf } from "../dbos/job.js";
export { RunDetail, RunSummary, WORKFLOW_NAME } from "../dbos/status.js";
export { dbosSteps } from "../dbos/workflow.js";
export type { Bundle, Checkout, PortsFor, Results, RunPorts } from "../dbos/workflow.js";
export { gitBundle, gitCheckout, inPlace, readReportMd } from "../dbos/checkout.js";
export { dbosClient } from "../dbos/client.js";
export type { DbosClient } from "../dbos/client.js";
