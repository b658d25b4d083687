import * as nodeFs from "node:fs";
import { fsStoreFs, type StoreFsLike } from "../store/fs-adapter.js";
import type { StoreFs } from "../store/port.js";

/** The StoreFs over the real filesystem (node:fs), fsyncing files and directories. */
export function nodeStoreFs(): StoreFs {
  return fsStoreFs(nodeFs as unknown as StoreFsLike, { uid: process.getuid?.() ?? 0, durableDirs: true });
}
