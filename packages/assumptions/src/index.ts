// The public API of @decay/assumptions: named exports only, nothing else lives here.

// --- tree port (shared) ---
export type { DirEntry, EntryType, TreeError, TreeReader } from "./tree.js";

// --- core: parse / check / digest / author ---

// --- adapters: node fs, memfs, fault-injecting wrapper ---
export { nodeTree } from "./adapters/node.js";
export { memfsTree } from "./adapters/memfs.js";
export type { DirentLike, FileHandleLike, FsLike, FsTreeOptions, StatsLike } from "./adapters/fs.js";
export { faultyTree } from "./adapters/faulty.js";
export type { TreeFaultInjector, TreeOp } from "./adapters/faulty.js";

// --- CLI entry for embedding ---
