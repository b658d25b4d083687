// @decay/evidence/cli: the `decay-evidence` CLI's main and its faults, for embedding the CLI in
// another program. Named exports only.
export { decayEvidenceMain as main } from "../cli/main.js";
export type { CliIo, CliWriter } from "../cli/main.js";
export type { CliFault, CliOwnFault } from "../cli/fault.js";
export { describeCliFault, exitCodeFor } from "../cli/fault.js";
