import type { ResultAsync } from "neverthrow";

/**
 * What a directory entry is, judged by lstat (a link is reported as a link, never followed).
 * `other` covers FIFOs, sockets and devices: the gate never reads one.
 */
export type EntryType = "file" | "directory" | "symlink" | "other";

/** One entry of a directory listing, named exactly as the tree spells it. */
export interface DirEntry {
  readonly name: string;
  readonly type: EntryType;
}

/**
 * A failure of the tree itself (not a verdict). `path` is the tree-relative path that failed,
 * `""` for the root.
 */
export interface TreeError {
  readonly code: "tree-not-found" | "tree-not-a-directory" | "tree-not-a-file" | "tree-too-large" | "tree-io";
  readonly path: string;
  readonly message: string;
}

/**
 * The port the gate reads a tree through: the smallest interface the core calls.
 *
 * Paths are tree-relative, `/`-separated, spelled exactly as the tree's own entries are
 * (never normalised by the adapter), and `""` names the root. Adapters: `nodeTree`,
 * `memfsTree` (root entry) and `gitTree` (`@decay/assumptions/git`).
 */
export interface TreeReader {
  /** A human description of where the tree lives (a directory, or `ref` in a repository). */
  readonly describe: string;
  /** Lists a directory's entries with their lstat type; order is not significant. */
  list(path: string): ResultAsync<readonly DirEntry[], TreeError>;
  /**
   * Reads a regular file's bytes. Refuses anything that is not a regular file
   * (`tree-not-a-file`) and anything over `maxBytes` (`tree-too-large`), without blocking.
   */
  read(path: string, maxBytes: number): ResultAsync<Uint8Array, TreeError>;
  /**
   * Optional, for speed: reads a regular file exactly as `read` does (same refusals) and hands
   * its bytes to `use`, whose answer it returns. The bytes are lent: `use` must not keep them,
   * since the adapter may read the next file into the same memory once `use` returns. An
   * adapter without it is read through `read`.
   */
  readWith?<T>(path: string, maxBytes: number, use: (bytes: Uint8Array) => T): ResultAsync<T, TreeError>;
  /** Reads a symbolic link's target text as stored. */
  readLink(path: string): ResultAsync<string, TreeError>;
}
