// @decay/contract/cli: the `decay-contract` CLI's main and its exit codes, for embedding the CLI in
// another program. Named exports only.
export type { CliIo } from "../cli/io.js";
export type { CliFault } from "../cli/main.js";
export { exitCodeFor, main } from "../cli/main.js";
export { VERSION } from "../version.js";
