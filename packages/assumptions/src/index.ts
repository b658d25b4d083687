// The public API of @decay/assumptions: named exports only, nothing else lives here.

// --- tree port (shared) ---
export type { DirEntry, EntryType, TreeError, TreeReader, TreeReaderNow } from "./tree.js";

// --- core: parse / check / digest / author ---
export { Assumption, AssumptionKind, Report, ReportRow } from "./core/model.js";
export { ASSUMPTIONS_FAULT_CODES } from "./core/faults.js";
export type { AssumptionsFault, AssumptionsFaultCode, AuthorFault, CheckFault, Field, ParseFault } from "./core/faults.js";
export { describeFault } from "./core/describe.js";
export { parseAssumptions } from "./core/parse.js";
export { checkTree } from "./core/check.js";
export type { CheckOptions } from "./core/check.js";
export { digestPath, digestText } from "./core/digest.js";
export type { DigestPathOptions } from "./core/digest.js";
export { authorAssumptions } from "./core/author.js";
export type { AuthorOptions } from "./core/author.js";
export { DEFAULT_MAX_BYTES } from "./core/read.js";

// --- adapters: node fs, memfs, fault-injecting wrapper ---
export { nodeTree } from "./adapters/node.js";
export { memfsTree } from "./adapters/memfs.js";
export type { DirentLike, FsLike, FsTreeOptions, StatsLike } from "./adapters/fs.js";
export { faultyTree } from "./adapters/faulty.js";
export type { TreeFaultInjector, TreeOp } from "./adapters/faulty.js";

// --- CLI entry for embedding ---
export { main as planDecayMain } from "./cli/main.js";
export type { CliIo, CliWriter } from "./cli/main.js";
