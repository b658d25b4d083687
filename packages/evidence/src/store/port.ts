import type { StoreFault } from "./fault.js";
import type { ResultAsync } from "neverthrow";

/** What lstat says of a path, reduced to what the store decides on. */
export interface StoreStat {
  readonly type: "file" | "directory" | "symlink" | "other";
  /** Permission bits (`mode & 0o7777`). */
  readonly mode: number;
  readonly uid: number;
  readonly size: number;
}

/** A filesystem failure at the adapter edge: `errno` is the system code (`ENOENT`, `EEXIST`, …). */
export interface StoreFsError {
  readonly code: "store-fs";
  readonly errno: string;
  readonly op: string;
  readonly path: string;
  readonly message: string;
}

/**
 * The filesystem operations the pending store needs, nothing more. Paths are absolute and
 * `/`-separated. Adapters: `nodeStoreFs()`, `memfsStoreFs(vol)`, and a fault-injecting wrapper.
 */
export interface StoreFs {
  /** The user id the store must own its directories as. */
  uid(): number;
  /** Creates one directory (not recursive) with `mode`; `EEXIST` when it exists. */
  mkdir(path: string, mode: number): ResultAsync<void, StoreFsError>;
  lstat(path: string): ResultAsync<StoreStat, StoreFsError>;
  chmod(path: string, mode: number): ResultAsync<void, StoreFsError>;
  /** Entry names of a directory. */
  readdir(path: string): ResultAsync<readonly string[], StoreFsError>;
  /** At most `maxBytes` bytes of the file (all of a shorter one); no more is ever held in memory. */
  readFile(path: string, maxBytes: number): ResultAsync<Uint8Array, StoreFsError>;
  /** Creates `path` exclusively with `mode`, writes `data`, fsyncs and closes it. */
  writeNew(path: string, data: Uint8Array, mode: number): ResultAsync<void, StoreFsError>;
  /** Hard-links `existing` to `newPath`; `EEXIST` when `newPath` exists. */
  link(existing: string, newPath: string): ResultAsync<void, StoreFsError>;
  /** Atomically replaces `to` with `from`. */
  rename(from: string, to: string): ResultAsync<void, StoreFsError>;
  unlink(path: string): ResultAsync<void, StoreFsError>;
  /** fsyncs a directory so a rename or link in it is durable. */
  fsyncDir(path: string): ResultAsync<void, StoreFsError>;
  /** The canonical absolute path with every symlink resolved; `ENOENT` when it does not exist. */
  realpath(path: string): ResultAsync<string, StoreFsError>;
}

/** What one git run ended with. */
export interface GitRun {
  readonly status: number;
  readonly stdout: string;
}

/**
 * Runs `git -C repo ...args` in `env` minus every inherited `GIT_*` variable. Any exit status is
 * a value; only a git that cannot run at all is a `git-failed` fault. The store asks git only
 * about a legacy in-repository store (is it ignored, does git track anything in it).
 */
export type GitRunner = (repo: string, args: readonly string[], env: Readonly<Record<string, string | undefined>>) => ResultAsync<GitRun, StoreFault>;
