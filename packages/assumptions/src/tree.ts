import type { ResultAsync } from "neverthrow";

/**
 * What a directory entry is, judged by lstat (a link is reported as a link, never followed).
 * `other` covers FIFOs, sockets and devices: the gate never reads one. `submodule` is a git
 * gitlink (mode 160000): another repository's commit, never checked.
 */
export type EntryType = "file" | "directory" | "symlink" | "other" | "submodule";

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
  /**
   * Optional: why, for a caller that acts on it (the message is for people and may change).
   * `not-a-repository`: `gitTree`'s `dir` holds no repository (no `.git` there and not a bare
   * repository), with code `tree-not-found` and path `""`. Absent for every other failure.
   */
  readonly reason?: "not-a-repository";
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
   * Optional: `true` when a nested repository in this tree (a checked-out submodule: a directory
   * other than the root that holds `.git`) is read as ordinary directories. Absent or `false`:
   * naming one or reaching into it is a `submodule` fault. A gitlink (`submodule` entry) is a
   * fault either way: nothing is checked out there to descend into.
   */
  readonly descendsSubmodules?: boolean;
  /**
   * Optional: SHA-256 (lowercase hex) of bytes, from the runtime the adapter lives in (`node:crypto`
   * for `nodeTree`). Absent: the core's portable implementation. Both give the same digest.
   */
  readonly sha256Hex?: (bytes: Uint8Array) => string;
  /** Reads a symbolic link's target text as stored. */
  readLink(path: string): ResultAsync<string, TreeError>;
  /**
   * Optional: how many of this reader's calls the gate keeps waiting at once (a positive
   * integer). A reader that answers at once, by synchronous calls underneath, gains nothing from
   * overlapping them and gives 1 (`nodeTree`, `memfsTree`); a reader bound by a rate limit gives
   * that limit. Absent, or not a positive integer: 16, for a reader that waits (`gitTree`, a
   * network).
   */
  readonly inFlight?: number;
}
