// The public API of @decay/assumptions: named exports only, nothing else lives here.

// --- tree port (shared) ---
export type { DirEntry, EntryType, TreeError, TreeReader } from "./tree.js";

// --- core: parse / check / digest / author ---
export { Assumption, AssumptionKind, Report, ReportRow } from "./core/model.js";
export { ASSUMPTIONS_FAULT_CODES } from "./core/faults.js";
export type { AssumptionsFault, AssumptionsFaultCode, AuthorFault, CheckFault, Field, OptionFault, ParseFault } from "./core/faults.js";
export { describeFault } from "./core/describe.js";
export { MAX_PLAN_ROWS, parseAssumptions } from "./core/parse.js";
export { checkTree } from "./core/check.js";
export type { CheckOptions } from "./core/check.js";
export { digestPath, digestText } from "./core/digest.js";
export type { DigestPathOptions } from "./core/digest.js";
export { authorAssumptions } from "./core/author.js";
export type { AuthorOptions } from "./core/author.js";
export { DEFAULT_MAX_BYTES } from "./core/read.js";

// --- runtime-neutral adapters (the Node one is in ./node, the git one in ./git) ---
export { memfsTree } from "./adapters/memfs.js";
export type { DirentLike, FsTreeOptions, StatsLike, TreeFs } from "./adapters/fs.js";
export type { FsLike } from "@decay/portable";
