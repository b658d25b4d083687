import { errAsync, okAsync, ResultAsync } from "neverthrow";
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

/** The part of a `fs.promises` FileHandle the adapter reads through. */
export interface FileHandleLike {
  stat(): Promise<StatsLike>;
  read(buffer: Uint8Array, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
  close(): Promise<void>;
}

/**
 * The subset of a node:fs-shaped object the tree adapters use: `node:fs` itself, a memfs
 * `createFsFromVolume(vol)` / `memfs().fs`, or anything else of that shape.
 */
export interface FsLike {
  readonly constants: { readonly O_RDONLY: number; readonly O_NONBLOCK: number; readonly O_NOFOLLOW: number };
  readonly promises: {
    /** memfs types its answer loosely (names or dirents); a non-dirent answer is refused at run time. */
    readdir(
      path: string,
      options: { encoding: "buffer"; withFileTypes: true },
    ): Promise<readonly (DirentLike | string | Uint8Array)[]>;
    lstat(path: string): Promise<StatsLike>;
    open(path: string, flags: number): Promise<FileHandleLike>;
    readlink(path: string, options: { encoding: "buffer" }): Promise<Uint8Array | string>;
  };
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

function attempt<T>(op: Op, path: string, run: () => Promise<T>): ResultAsync<T, TreeError> {
  return ResultAsync.fromPromise(
    Promise.resolve().then(run),
    (e) => fromErrno(op, path, e),
  );
}

function entryType(d: DirentLike): EntryType {
  if (d.isSymbolicLink()) return "symlink";
  if (d.isDirectory()) return "directory";
  return d.isFile() ? "file" : "other";
}

function nameOf(raw: Uint8Array | string): string | undefined {
  return typeof raw === "string" ? raw : decodeName(raw);
}

function toEntries(
  path: string,
  dirents: readonly (DirentLike | string | Uint8Array)[],
): ResultAsync<readonly DirEntry[], TreeError> {
  const entries: DirEntry[] = [];
  for (const d of dirents) {
    if (typeof d === "string" || d instanceof Uint8Array) {
      return errAsync(treeError("tree-io", path, "the filesystem listed names without their types"));
    }
    const name = nameOf(d.name);
    if (name === undefined) return errAsync(treeError("tree-io", path, "an entry's name is not UTF-8"));
    entries.push({ name, type: entryType(d) });
  }
  return okAsync(entries);
}

function statKind(s: StatsLike): string | undefined {
  if (s.isFile()) return undefined;
  if (s.isDirectory()) return "a directory";
  return s.isSymbolicLink() ? "a symbolic link" : "a FIFO, socket or device";
}

function sizeOf(s: StatsLike): number {
  return Number(s.size);
}

/**
 * Reads at most `limit` bytes from an open handle, stopping at end of file. The buffer starts
 * at `expected` bytes (the fstat size plus one) and grows only if the file grows under it.
 */
async function readUpTo(handle: FileHandleLike, expected: number, limit: number): Promise<Uint8Array> {
  let buffer = new Uint8Array(Math.min(expected, limit));
  let filled = 0;
  for (;;) {
    if (filled === buffer.length) {
      if (buffer.length >= limit) break;
      const grown = new Uint8Array(Math.min(buffer.length * 2 + 1, limit));
      grown.set(buffer);
      buffer = grown;
    }
    const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return buffer.subarray(0, filled);
}

type Opened = { ok: Uint8Array } | { refuse: TreeError };

/** Opens without blocking and without following a final link, verifies by fstat, reads bounded. */
async function readOpened(fs: FsLike, abs: string, path: string, maxBytes: number): Promise<Opened> {
  const { O_RDONLY, O_NONBLOCK, O_NOFOLLOW } = fs.constants;
  const handle = await fs.promises.open(abs, O_RDONLY | O_NONBLOCK | O_NOFOLLOW);
  try {
    const stat = await handle.stat();
    const kind = statKind(stat);
    if (kind !== undefined) return { refuse: treeError("tree-not-a-file", path, kind) };
    if (sizeOf(stat) > maxBytes) return { refuse: treeError("tree-too-large", path, `${maxBytes} bytes`) };
    const bytes = await readUpTo(handle, sizeOf(stat) + 1, maxBytes + 1);
    if (bytes.length > maxBytes) return { refuse: treeError("tree-too-large", path, `${maxBytes} bytes`) };
    return { ok: bytes };
  } finally {
    await handle.close();
  }
}

function readFile(fs: FsLike, abs: string, path: string, maxBytes: number): ResultAsync<Uint8Array, TreeError> {
  return attempt("read", path, () => fs.promises.lstat(abs)).andThen((stat) => {
    const kind = statKind(stat);
    if (kind !== undefined) return errAsync(treeError("tree-not-a-file", path, kind));
    if (sizeOf(stat) > maxBytes) return errAsync(treeError("tree-too-large", path, `${maxBytes} bytes`));
    return attempt("read", path, () => readOpened(fs, abs, path, maxBytes)).andThen((r) =>
      "ok" in r ? okAsync(r.ok) : errAsync(r.refuse),
    );
  });
}

/** Lists a directory; a path naming a link (other than the root itself) is not listed through. */
function listDir(fs: FsLike, abs: string, path: string): ResultAsync<readonly DirEntry[], TreeError> {
  const checked =
    path === ""
      ? okAsync(undefined)
      : attempt("list", path, () => fs.promises.lstat(abs)).andThen((stat) =>
          stat.isDirectory() ? okAsync(undefined) : errAsync(treeError("tree-not-a-directory", path, statKind(stat))),
        );
  return checked
    .andThen(() => attempt("list", path, () => fs.promises.readdir(abs, { encoding: "buffer", withFileTypes: true })))
    .andThen((dirents) => toEntries(path, dirents));
}

function guarded<T>(path: string, run: () => ResultAsync<T, TreeError>): ResultAsync<T, TreeError> {
  return escapesTree(path) ? errAsync(treeError("tree-io", path, "the path leaves the tree")) : run();
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
    readLink: (path) =>
      guarded(path, () =>
        attempt("readLink", path, () => fs.promises.readlink(abs(path), { encoding: "buffer" })).andThen((raw) => {
          const target = nameOf(raw);
          return target === undefined
            ? errAsync(treeError("tree-io", path, "the link target is not UTF-8"))
            : okAsync(target);
        }),
      ),
  };
}
