import { err, ok, okAsync, type Result, type ResultAsync } from "neverthrow";
import type { DirEntry, EntryType, TreeError, TreeReader } from "../tree.js";
import { decodeName, errorCode, escapesTree, joinTree, treeError } from "./tree-error.js";

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
 * calls are used: the gate reads thousands of small files, and a thread-pool round trip per
 * call cost more than the read itself (see docs/performance.md). The port stays asynchronous.
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

/** Options shared by `nodeTree` and `memfsTree`. */
export interface FsTreeOptions {
  /** How the tree names itself in reports; defaults to the root as given. */
  readonly describe?: string;
}

type Op = "list" | "read" | "readLink";

/** The one mapping from an errno to a TreeError, per operation. */
function fromErrno(op: Op, path: string, e: unknown): TreeError {
  const code = errorCode(e);
  if (code === "ENOENT") return treeError("tree-not-found", path);
  if (code === "ENOTDIR") return op === "list" ? treeError("tree-not-a-directory", path) : treeError("tree-not-found", path);
  if (code === "EINVAL" && op === "readLink") return treeError("tree-not-a-file", path, "not a symbolic link");
  return treeError("tree-io", path, code);
}

/** Runs one throwing fs call, its error mapped once, here. */
function attempt<T>(op: Op, path: string, run: () => T): Result<T, TreeError> {
  try {
    return ok(run());
  } catch (e) {
    return err(fromErrno(op, path, e));
  }
}

function later<T>(result: Result<T, TreeError>): ResultAsync<T, TreeError> {
  return result.asyncAndThen((value) => okAsync(value));
}

function entryType(d: DirentLike): EntryType {
  if (d.isSymbolicLink()) return "symlink";
  if (d.isDirectory()) return "directory";
  return d.isFile() ? "file" : "other";
}

function nameOf(raw: Uint8Array | string): string | undefined {
  return typeof raw === "string" ? raw : decodeName(raw);
}

function toEntries(path: string, dirents: readonly (DirentLike | string | Uint8Array)[]): Result<readonly DirEntry[], TreeError> {
  const entries: DirEntry[] = new Array(dirents.length);
  for (let i = 0; i < dirents.length; i += 1) {
    const d = dirents[i] as DirentLike | string | Uint8Array;
    if (typeof d === "string" || d instanceof Uint8Array) {
      return err(treeError("tree-io", path, "the filesystem listed names without their types"));
    }
    const name = nameOf(d.name);
    if (name === undefined) return err(treeError("tree-io", path, "an entry's name is not UTF-8"));
    entries[i] = { name, type: entryType(d) };
  }
  return ok(entries);
}

function statKind(s: StatsLike): string | undefined {
  if (s.isFile()) return undefined;
  if (s.isDirectory()) return "a directory";
  return s.isSymbolicLink() ? "a symbolic link" : "a FIFO, socket or device";
}

/**
 * Reads at most `limit` bytes from an open regular file, stopping at end of file. The buffer
 * starts at `expected` bytes (the fstat size plus one), so a file that did not change is read by
 * one call: a short read of a regular file is its end. It grows only if the file grows under it.
 */
function readUpTo(fs: FsLike, fd: number, expected: number, limit: number): Uint8Array {
  let buffer = new Uint8Array(Math.min(expected, limit));
  let filled = 0;
  for (;;) {
    if (filled === buffer.length) {
      if (buffer.length >= limit) break;
      const grown = new Uint8Array(Math.min(buffer.length * 2 + 1, limit));
      grown.set(buffer);
      buffer = grown;
    }
    const want = buffer.length - filled;
    const got = fs.readSync(fd, buffer, filled, want, filled);
    filled += got;
    if (got < want) break;
  }
  return buffer.subarray(0, filled);
}

/** Verifies an open descriptor by fstat (a regular file within bounds) and reads it bounded. */
function readOpened(fs: FsLike, fd: number, path: string, maxBytes: number): Result<Uint8Array, TreeError> {
  const stat = fs.fstatSync(fd);
  const kind = statKind(stat);
  if (kind !== undefined) return err(treeError("tree-not-a-file", path, kind));
  const tooLarge = err(treeError("tree-too-large", path, `${maxBytes} bytes`));
  if (Number(stat.size) > maxBytes) return tooLarge;
  const bytes = readUpTo(fs, fd, Number(stat.size) + 1, maxBytes + 1);
  return bytes.length > maxBytes ? tooLarge : ok(bytes);
}

/**
 * Why an open was refused. `O_NOFOLLOW` makes a final link fail (ELOOP), a socket cannot be
 * opened (ENXIO), memfs refuses a directory (EISDIR): lstat names what is there; anything
 * else, or an lstat that finds a regular file after all, stays the open's own error.
 */
function openRefused(fs: FsLike, abs: string, path: string, e: unknown): TreeError {
  const code = errorCode(e);
  if (code === "ELOOP" || code === "ENXIO" || code === "EISDIR") {
    const stat = attempt("read", path, () => fs.lstatSync(abs));
    const kind = stat.isOk() ? statKind(stat.value) : undefined;
    if (kind !== undefined) return treeError("tree-not-a-file", path, kind);
  }
  return fromErrno("read", path, e);
}

/**
 * One open without blocking (`O_NONBLOCK`: a FIFO never waits for a writer) and without
 * following a final link (`O_NOFOLLOW`), one fstat, one bounded read, one close.
 */
function readFile(fs: FsLike, abs: string, path: string, maxBytes: number): Result<Uint8Array, TreeError> {
  const { O_RDONLY, O_NONBLOCK, O_NOFOLLOW } = fs.constants;
  let fd: number;
  try {
    fd = fs.openSync(abs, O_RDONLY | O_NONBLOCK | O_NOFOLLOW);
  } catch (e) {
    return err(openRefused(fs, abs, path, e));
  }
  const read = attempt("read", path, () => readOpened(fs, fd, path, maxBytes)).andThen((r) => r);
  const closed = attempt("read", path, () => fs.closeSync(fd));
  return read.andThen((bytes) => closed.map(() => bytes));
}

/** Lists a directory; a path naming a link (other than the root itself) is not listed through. */
function listDir(fs: FsLike, abs: string, path: string): Result<readonly DirEntry[], TreeError> {
  const checked: Result<unknown, TreeError> =
    path === ""
      ? ok(undefined)
      : attempt("list", path, () => fs.lstatSync(abs)).andThen((stat) =>
          stat.isDirectory() ? ok(undefined) : err(treeError("tree-not-a-directory", path, statKind(stat))),
        );
  return checked.andThen(() => attempt("list", path, () => fs.readdirSync(abs, { withFileTypes: true }))).andThen((dirents) => {
    const listed = toEntries(path, dirents);
    return listed.isOk() && listed.value.some((e) => e.name.includes(REPLACEMENT)) ? listStrictly(fs, abs, path) : listed;
  });
}

/** U+FFFD: what a lenient UTF-8 decoding puts where a name's bytes are not UTF-8. */
const REPLACEMENT = "\uFFFD";

/**
 * Lists again with names as bytes, decoded strictly: taken only when a leniently decoded name
 * holds U+FFFD, which is either a real U+FFFD or bytes that are not UTF-8 (refused). Decoding
 * 100,000 names as bytes costs more than the listing itself, so it is never the first try.
 */
function listStrictly(fs: FsLike, abs: string, path: string): Result<readonly DirEntry[], TreeError> {
  return attempt("list", path, () => fs.readdirSync(abs, { encoding: "buffer", withFileTypes: true })).andThen((dirents) =>
    toEntries(path, dirents),
  );
}

function readLink(fs: FsLike, abs: string, path: string): Result<string, TreeError> {
  return attempt("readLink", path, () => fs.readlinkSync(abs, { encoding: "buffer" })).andThen((raw) => {
    const target = nameOf(raw);
    return target === undefined ? err(treeError("tree-io", path, "the link target is not UTF-8")) : ok(target);
  });
}

function guarded<T>(path: string, run: () => Result<T, TreeError>): ResultAsync<T, TreeError> {
  return later(escapesTree(path) ? err(treeError("tree-io", path, "the path leaves the tree")) : run());
}

/**
 * A TreeReader over any node:fs-shaped object rooted at `root` (the one body behind
 * `nodeTree` and `memfsTree`). Lists by lstat type, never reads a non-regular file, never
 * reads more than `maxBytes + 1` bytes.
 */
export function fsTree(fs: FsLike, root: string, opts: FsTreeOptions = {}): TreeReader {
  const abs = (path: string): string => joinTree(root, path);
  return {
    describe: opts.describe ?? root,
    list: (path) => guarded(path, () => listDir(fs, abs(path), path)),
    read: (path, maxBytes) => guarded(path, () => readFile(fs, abs(path), path, maxBytes)),
    readLink: (path) => guarded(path, () => readLink(fs, abs(path), path)),
  };
}
