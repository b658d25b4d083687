// isomorphic-git reads a global `Buffer` in a browser (its own documented requirement, not decay's).
// main.ts imports this module first, so the global exists before isomorphic-git runs.
import { Buffer } from "buffer/";

(globalThis as { Buffer?: unknown }).Buffer = Buffer;
