import { err, ok, type Result } from "neverthrow";
import type { TreeError } from "../tree.js";
import { errorCode, treeError } from "./tree-error.js";

/** What an lstat/fstat answer must tell the adapter. */
export interface StatsLike {
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
  readonly size: number | bigint;
}

/** One entry of `readdir(path, { withFileTypes: true, encoding: "buffer" })`. */
export interface DirentLike {
  readonly name: Uint8Array | string;
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
}

/**
 * The subset of a node:fs-shaped object the tree adapters use: `node:fs` itself, a memfs
 * `createFsFromVolume(vol)` / `memfs().fs`, or anything else of that shape. Only synchronous
 * calls are used: for the small files the gate mostly reads, a thread-pool round trip costs more
 * than the read itself. The port stays asynchronous.
 */
export interface FsLike {
  readonly constants: { readonly O_RDONLY: number; readonly O_NONBLOCK: number; readonly O_NOFOLLOW: number };
  /**
   * Names decoded as UTF-8 (the common case), or as bytes when a name must be decoded strictly.
   * memfs types its answer loosely (names or dirents); a non-dirent answer is refused at run time.
   */
  readdirSync(path: string, options: { withFileTypes: true }): readonly (DirentLike | string | Uint8Array)[];
  readdirSync(
    path: string,
    options: { encoding: "buffer"; withFileTypes: true },
  ): readonly (DirentLike | string | Uint8Array)[];
  lstatSync(path: string): StatsLike;
  openSync(path: string, flags: number): number;
  fstatSync(fd: number): StatsLike;
  readSync(fd: number, buffer: Uint8Array, offset: number, length: number, position: number): number;
  closeSync(fd: number): void;
  readlinkSync(path: string, options: { encoding: "buffer" }): Uint8Array | string;
}

/** Which port operation an fs call serves (an errno means different things per operation). */
export type Op = "list" | "read" | "readLink";

/** The one mapping from an errno to a TreeError, per operation. */
export function fromErrno(op: Op, path: string, e: unknown): TreeError {
  const code = errorCode(e);
  if (code === "ENOENT") return treeError("tree-not-found", path);
  if (code === "ENOTDIR") return op === "list" ? treeError("tree-not-a-directory", path) : treeError("tree-not-found", path);
  if (code === "EINVAL" && op === "readLink") return treeError("tree-not-a-file", path, "not a symbolic link");
  return treeError("tree-io", path, code);
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
