// The public API of @decay/assumptions: named exports only, nothing else lives here.

// --- tree port (shared) ---
export type { DirEntry, EntryType, TreeError, TreeReader } from "./tree.js";

// --- parse / check / digest / author (core) ---

// --- adapters (node fs, memfs) ---

// --- CLI entry for embedding ---
