import { thrownCode, type FsLikeCallback, type FsStats, type OpenFile, readOpenFile } from "@decay/portable";
import { err, ok, okAsync, ResultAsync } from "neverthrow";
import type { StoreFs, StoreFsError, StoreStat } from "./port.js";

type Done = (e: unknown) => void;
type Got<T> = (e: unknown, value?: T) => void;

/** The callback calls of the shared `FsLike` the store adapters make; node:fs and a memfs `fs` both fit. */
export type StoreFsLike = FsLikeCallback;

/** Turns whatever an fs call failed with into the port's error value. */
function fsError(op: string, path: string, e: unknown): StoreFsError {
  const code = thrownCode(e);
  const errno = typeof code === "string" ? code : "EUNKNOWN";
  const message = e instanceof Error ? e.message : String(e);
  return { code: "store-fs", errno, op, path, message };
}

/** Runs one callback-style call as a ResultAsync; a synchronous throw becomes an error value too. */
function call<T>(op: string, path: string, run: (cb: Got<T>) => void): ResultAsync<T, StoreFsError> {
  return new ResultAsync(
    new Promise((resolve) => {
      try {
        run((e, value) => resolve(e ? err(fsError(op, path, e)) : ok(value as T)));
      } catch (e) {
        resolve(err(fsError(op, path, e)));
      }
    }),
  );
}

function done(op: string, path: string, run: (cb: Done) => void): ResultAsync<void, StoreFsError> {
  return call<void>(op, path, (cb) => run((e) => cb(e, undefined)));
}

function toStat(s: FsStats): StoreStat {
  const type = s.isSymbolicLink() ? "symlink" : s.isDirectory() ? "directory" : s.isFile() ? "file" : "other";
  return { type, mode: Number(s.mode) & 0o7777, uid: Number(s.uid), size: Number(s.size) };
}

/** Writes every byte of `data` to `fd` from `offset` on, however many calls it takes. */
function writeAll(fs: StoreFsLike, fd: number, path: string, data: Uint8Array, offset = 0): ResultAsync<void, StoreFsError> {
  if (offset >= data.length) return okAsync(undefined);
  return call<number>("write", path, (cb) => fs.write(fd, data, offset, data.length - offset, offset, cb)).andThen((n) =>
    n > 0 ? writeAll(fs, fd, path, data, offset + n) : err(fsError("write", path, { code: "EIO", message: "write made no progress" })),
  );
}

/** Opens `path` with `flags`, runs `use(fd)`, and always closes; the first failure wins. */
function withFd(fs: StoreFsLike, path: string, flags: string, mode: number, use: (fd: number) => ResultAsync<void, StoreFsError>) {
  return call<number>("open", path, (cb) => fs.open(path, flags, mode, cb)).andThen((fd) =>
    ResultAsync.fromSafePromise(use(fd)).andThen((used) => done("close", path, (cb) => fs.close(fd, cb)).andThen(() => used)),
  );
}

/** A callback-style call as a promise, for the shared bounded reader. */
function promised<T>(run: (cb: Got<T>) => void): Promise<T> {
  return new Promise((resolve, reject) => run((e, value) => (e ? reject(e) : resolve(value as T))));
}

/** An open descriptor as the shared bounded reader of @decay/portable drives it. */
function openFile(fs: StoreFsLike, fd: number): OpenFile<FsStats> {
  return {
    stat: () => promised<FsStats>((cb) => fs.fstat(fd, cb)),
    read: (buffer, offset, length, position) =>
      promised<number>((cb) => fs.read(fd, buffer, offset, length, position, cb)).then((bytesRead) => ({ bytesRead })),
    close: () => promised<void>((cb) => fs.close(fd, (e) => cb(e))),
  };
}

/** At most `maxBytes` bytes of `path` (all of a shorter file), never more in memory. */
function readUpTo(fs: StoreFsLike, path: string, maxBytes: number): ResultAsync<Uint8Array, StoreFsError> {
  return call<number>("open", path, (cb) => fs.open(path, "r", 0, cb)).andThen((fd) =>
    ResultAsync.fromPromise(
      readOpenFile(openFile(fs, fd), (s) => Number(s.size), maxBytes),
      (e) => fsError("read", path, e),
    ),
  );
}

export interface FsStoreFsOptions {
  readonly uid: number;
  /** False where the filesystem has no durability to ask for (memfs). */
  readonly durableDirs: boolean;
}

/** The one adapter body over any fs-shaped object (`nodeStoreFs` in ./node is the other caller). */
export function fsStoreFs(fs: StoreFsLike, opts: FsStoreFsOptions): StoreFs {
  return {
    uid: () => opts.uid,
    mkdir: (path, mode) => done("mkdir", path, (cb) => fs.mkdir(path, { mode }, cb)),
    lstat: (path) => call<FsStats>("lstat", path, (cb) => fs.lstat(path, cb)).map(toStat),
    chmod: (path, mode) => done("chmod", path, (cb) => fs.chmod(path, mode, cb)),
    readdir: (path) => call<readonly unknown[]>("readdir", path, (cb) => fs.readdir(path, cb)).map((names) => names.map(String)),
    readFile: (path, maxBytes) => readUpTo(fs, path, maxBytes),
    writeNew: (path, data, mode) =>
      withFd(fs, path, "wx", mode, (fd) => writeAll(fs, fd, path, data).andThen(() => done("fsync", path, (cb) => fs.fsync(fd, cb)))),
    link: (existing, newPath) => done("link", newPath, (cb) => fs.link(existing, newPath, cb)),
    rename: (from, to) => done("rename", to, (cb) => fs.rename(from, to, cb)),
    unlink: (path) => done("unlink", path, (cb) => fs.unlink(path, cb)),
    fsyncDir: (path) =>
      opts.durableDirs
        ? withFd(fs, path, "r", 0, (fd) => done("fsync", path, (cb) => fs.fsync(fd, cb)))
        : call<FsStats>("fsyncDir", path, (cb) => fs.lstat(path, cb)).andThen((s) =>
            s.isDirectory() ? ok(undefined) : err(fsError("fsyncDir", path, { code: "ENOTDIR", message: "not a directory" })),
          ),
    realpath: (path) => call<unknown>("realpath", path, (cb) => fs.realpath(path, cb)).map(String),
  };
}

/**
 * The StoreFs over any node:fs-shaped object, e.g. a memfs `fs`. Directory fsync is a check
 * that the directory exists: an in-memory volume has no durability to ask for. `uid` is the
 * owner the store expects (default: this process's uid, which memfs also stamps on new nodes).
 */
export function memfsStoreFs(fs: StoreFsLike, opts: { readonly uid?: number } = {}): StoreFs {
  const uid = opts.uid ?? (globalThis as { process?: { getuid?: () => number } }).process?.getuid?.() ?? 0;
  return fsStoreFs(fs, { uid, durableDirs: false });
}
