// @decay/executor/cli: the `decay` CLI's main, for embedding the CLI in another program.
export { main } from "../cli/main.js";
export type { CliIo } from "../cli/io.js";
export { VERSION } from "../cli/version.js";
