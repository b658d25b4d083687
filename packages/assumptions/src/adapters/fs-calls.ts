import type { FsDirent, FsLikeSync, FsStats } from "@decay/portable";
import { err, ok, type Result } from "neverthrow";
import type { TreeError } from "../tree.js";
import { errorCode, errorSaid, treeError } from "./tree-error.js";

/** What an lstat/fstat answer must tell the adapter. */
export type StatsLike = Omit<FsStats, "mode" | "uid">;

/** One entry of `readdir(path, { withFileTypes: true, encoding: "buffer" })`. */
export type DirentLike = FsDirent;

/**
 * The calls of the shared `FsLike` the tree adapters make: `node:fs` itself, a memfs
 * `createFsFromVolume(vol)` / `memfs().fs`, or anything else of that shape. Only synchronous
 * calls are used: for the small files the gate mostly reads, a thread-pool round trip costs more
 * than the read itself. The port stays asynchronous.
 */
export type TreeFs = FsLikeSync;

/** Which port operation an fs call serves (an errno means different things per operation). */
export type Op = "list" | "read" | "readLink";

/** The one mapping from an errno to a TreeError, per operation. */
export function fromErrno(op: Op, path: string, e: unknown): TreeError {
  const code = errorCode(e);
  if (code === "ENOENT") return treeError("tree-not-found", path);
  if (code === "ENOTDIR") return op === "list" ? treeError("tree-not-a-directory", path) : treeError("tree-not-found", path);
  if (code === "EINVAL" && op === "readLink") return treeError("tree-not-a-file", path, "not a symbolic link");
  return treeError("tree-io", path, errorSaid(e));
}

/** Runs one throwing fs call, its error mapped once, here. */
export function attempt<T>(op: Op, path: string, run: () => T): Result<T, TreeError> {
  try {
    return ok(run());
  } catch (e) {
    return err(fromErrno(op, path, e));
  }
}

/** What a non-regular entry is, in words; `undefined` for a regular file. */
export function statKind(s: StatsLike): string | undefined {
  if (s.isFile()) return undefined;
  if (s.isDirectory()) return "a directory";
  return s.isSymbolicLink() ? "a symbolic link" : "a FIFO, socket or device";
}
