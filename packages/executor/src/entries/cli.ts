// @decay/executor/cli: the `decay` CLI's main, for embedding it in another program. Named exports only.
export type { CliFault } from "../cli/fault.js";
export { CLI_FAULT_CODES, describeCliFault, exitCodeFor } from "../cli/fault.js";
export type { JournalIo } from "../cli/journal.js";
export { journalMain } from "../cli/journal.js";
export type { DecayIo } from "../cli/main.js";
export { main } from "../cli/main.js";
export { VERSION } from "../cli/version.js";
