// isomorphic-git reads a global `Buffer` in a browser (its documented requirement, not decay's).
// This module is imported first, so the global exists before isomorphic-git runs.
import { Buffer } from "buffer/";

(globalThis as { Buffer?: unknown }).Buffer = Buffer;
