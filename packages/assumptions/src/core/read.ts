import { err, ok, type Result, type ResultAsync } from "neverthrow";
import type { CheckFault } from "./faults.js";
import { type Listings, treeFault } from "./listing.js";
import type { Located } from "./locate.js";
import type { Maybe } from "./maybe.js";
import type { TreeError } from "../tree.js";

/** Default bound on one file read: 64 MiB. A larger file is refused, never read without bound. */
export const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;

function settled<T>(read: Result<Result<T, CheckFault>, TreeError>): Result<T, CheckFault> {
  return read.mapErr(treeFault).andThen((used) => used);
}

async function readLater<T>(read: ResultAsync<Uint8Array, TreeError>, use: (bytes: Uint8Array) => Result<T, CheckFault>) {
  return settled(await read.map(use));
}

/**
 * Reads the regular file a found path leads to and passes its bytes to `use` (which must not keep
 * them: a tree may lend its read buffer); `undefined` for a dangling link. A directory, FIFO,
 * socket or device there is a fault: only regular files are ever read. Answers at once through
 * the tree's `now` face when it has one.
 */
export function readFound<T>(
  listings: Listings,
  found: Extract<Located, { state: "found" }>,
  maxBytes: number,
  use: (bytes: Uint8Array) => Result<T, CheckFault>,
): Maybe<Result<T | undefined, CheckFault>> {
  const { resolved, spelled } = found;
  if (!resolved) return ok(undefined);
  if (resolved.type === "directory") return err({ code: "not-a-file", path: spelled, entry: "directory" });
  if (resolved.type === "other") return err({ code: "not-a-file", path: spelled, entry: "other" });
  if (resolved.type === "submodule") return err({ code: "submodule", path: spelled });
  const { tree } = listings;
  if (tree.now) return settled(tree.now.readWith(resolved.path, maxBytes, use));
  return readLater(tree.read(resolved.path, maxBytes), use);
}
