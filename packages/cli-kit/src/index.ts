// Internal API shared by the decay CLIs: named exports only.
export type { ProcessLike, SealOptions, WriteSync } from "./process.js";
export { sealedProcess } from "./process.js";
export type { CliWriter, StdStreams } from "./streams.js";
export { bestEffort, inputName, reasonInWords, reasonOf, writeText } from "./streams.js";
export type { JsonFaultBody } from "./json-fault.js";
export { jsonAsked, jsonFaultLine } from "./json-fault.js";
export type { BoundedOptions, InputFs, InputRefusal, InputSource, StatLike } from "./input.js";
export { byteLimit, DEFAULT_MAX_INPUT_BYTES, MAX_INPUT_CEILING, notRegular, readBounded } from "./input.js";
export type { OutputFs, OutputOptions, OutputRefusal, OutputSink } from "./output.js";
export { writeOutput } from "./output.js";
export type { ArgFault, ArgSpec, FlagSpec, FlagSpecs, FlagValues, ParsedArgs } from "./args.js";
export {
  ARG_FAULT_CODES,
  asks,
  describeArgFault,
  helpHint,
  onlyFlags,
  parseArgv,
  quoted,
  shown,
  versionAfterCommand,
  versionAlone,
  versionAsked,
  versionLine,
} from "./args.js";
export type { CheckItem, ToolInfo } from "./formats/item.js";
export type { AnnotationTarget } from "./formats/github.js";
export { annotation, escapeData, escapeProperty, renderAnnotations } from "./formats/github.js";
export type { JunitSuite } from "./formats/junit.js";
export { renderJunit, xmlAttribute, xmlText } from "./formats/junit.js";
export { pathUri, renderSarif, SARIF_SCHEMA_URI } from "./formats/sarif.js";
export { repoRelative } from "./formats/location.js";
