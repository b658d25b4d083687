// @decay/assumptions/cli: the `plan-decay` CLI's main, for embedding the CLI in another program.
export { main } from "../cli/main.js";
export type { CliIo, CliWriter } from "../cli/main.js";
