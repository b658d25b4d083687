import { err, ok, type Result } from "neverthrow";
import type { CheckFault } from "./faults.js";
import { type Listings, treeFault } from "./listing.js";
import type { Found } from "./locate.js";

/** Default bound on one file read: 64 MiB. A larger file is refused, never read without bound. */
export const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;

/**
 * Reads the regular file a found path leads to; `undefined` for a dangling link. A directory,
 * FIFO, socket or device there is a fault: only regular files are ever read.
 */
export function readFound(listings: Listings, found: Found, maxBytes: number): PromiseLike<Result<Uint8Array | undefined, CheckFault>> {
  const { resolved, spelled } = found;
  if (!resolved) return Promise.resolve(ok(undefined));
  if (resolved.type === "directory") return Promise.resolve(err({ code: "not-a-file", path: spelled, entry: "directory" }));
  if (resolved.type === "other") return Promise.resolve(err({ code: "not-a-file", path: spelled, entry: "other" }));
  if (resolved.type === "submodule") return Promise.resolve(err({ code: "submodule", path: spelled }));
  // The reader's own promise, chained once: no async step of its own per file.
  return listings.tree.read(resolved.path, maxBytes).then((read) => (read.isOk() ? ok(read.value) : err(treeFault(read.error))));
}
