// Internal API shared by the decay CLIs: named exports only.
export type { ProcessLike, SealOptions, WriteSync } from "./process.js";
export { sealedProcess } from "./process.js";
export type { CliWriter, StdStreams } from "./streams.js";
export { bestEffort, inputName, reasonOf, writeText } from "./streams.js";
export type { BoundedOptions, InputFs, InputRefusal, InputSource, StatLike } from "./input.js";
export { DEFAULT_MAX_INPUT_BYTES, notRegular, readBounded } from "./input.js";
export type { OutputFs, OutputRefusal, OutputSink } from "./output.js";
export { writeOutput } from "./output.js";
