// Internal API shared by the decay CLIs: named exports only.
export type { ProcessLike, SealOptions, WriteSync } from "./process.js";
export { sealedProcess } from "./process.js";
export type { CliWriter, StdStreams } from "./streams.js";
export { bestEffort, drain, inputName, readArgument, reasonOf, writeText } from "./streams.js";
