// The public API of @decay/assumptions: named exports only, nothing else lives here.

// --- tree port (shared) ---
export type { DirEntry, EntryType, TreeError, TreeReader } from "./tree.js";

// --- core: parse / check / digest / author ---

// --- adapters: node fs, memfs, fault-injecting wrapper ---

// --- CLI entry for embedding ---
