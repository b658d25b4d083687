// The ports the executor's core calls. Each is the smallest interface the run needs; the caller
// passes adapters in (see docs/executor.md). Nothing here imports a runtime.
import type { TreeReader } from "@decay/assumptions";
import type { ResultAsync } from "neverthrow";
import type { BoundedDiff } from "./diff-cut.js";
import type { ExecFault } from "./fault.js";

/** One command to run through a `Shell`: `sh -c command` in `cwd`. */
export interface ShellRequest {
  readonly command: string;
  readonly cwd: string;
  /** Killed with its whole process group after this many milliseconds. */
  readonly timeoutMs: number;
  /** Extra environment variables, merged over the adapter's base environment. */
  readonly env?: Readonly<Record<string, string>>;
  /** Bytes of stdout and of stderr kept (the tail); default 64 KiB each. */
  readonly maxOutputBytes?: number;
}

/** What a command did. `exit` is null when a signal ended it. Outputs are tails, at most the cap. */
export interface ShellResult {
  readonly exit: number | null;
  readonly signal: string | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly durationMs: number;
  readonly timedOut: boolean;
  /** True when more output was produced than the cap kept. */
  readonly truncated: boolean;
}

/** Runs commands. A command that could not be started is a fault; any exit is a result. */
export interface Shell {
  run(request: ShellRequest): ResultAsync<ShellResult, ExecFault>;
}

/** What a `PatternMatcher` answers when a match ran past its time bound, which it names. */
export interface PatternTimeout {
  readonly timeoutMs: number;
}

/** What a `PatternMatcher` answers when the user interrupted a match (Ctrl-C): no verdict either. */
export interface PatternInterrupted {
  readonly interrupted: true;
}

/**
 * Judges an acceptance row's regular expression against a command's output. `atLeast` tells
 * whether `pattern` (a JavaScript `RegExp` source, no flags) matches `text` at least `min` times,
 * counted as a global `exec` loop counts them (an empty match steps one position on), stopping at
 * the `min`th; or, out of its time bound, a `PatternTimeout`, or, stopped by the user, a
 * `PatternInterrupted`: never a yes or a no.
 */
export interface PatternMatcher {
  atLeast(pattern: string, text: string, min: number): boolean | PatternTimeout | PatternInterrupted;
}

/** A directory materialised from one commit; `dispose` removes it and every trace of it. */
export interface Room {
  readonly dir: string;
  readonly commit: string;
  dispose(): ResultAsync<void, ExecFault>;
  /**
   * Optional: whether nothing in the room changed since it was handed over (after its setup): no
   * entry added, removed or touched. A verification pass over several stages gives the next stage
   * the same room only when this answers true; a room without it is replaced for every stage, so
   * what one stage's commands leave never decides another's verdict.
   */
  unchanged?(): ResultAsync<boolean, ExecFault>;
}

/**
 * What to materialise: a commit of the repository. Where the room's directory is made is the
 * adapter's choice, never the run's: a fresh directory of its own, private to the user, outside the
 * repository's working tree and git directory, so that nothing found by searching upward from the
 * room (Node's module resolution, package.json, tsconfig, .npmrc) comes from the working tree.
 */
export interface RoomRequest {
  readonly commit: string;
  /** The room directory's own name (a step name): one plain path component, shown in paths and logs. */
  readonly name: string;
  /** Run once in the fresh directory before it is handed back (`npm ci`); a failure is a fault. */
  readonly setup?: { readonly command: string; readonly timeoutMs: number };
}

/**
 * Materialises a commit into a directory that never saw the working tree and does not lie inside
 * the repository. Every `open` makes a new directory; `dispose` removes it and everything the
 * adapter made for it.
 */
export interface CleanRoom {
  /** How the adapter names itself in ledgers and reports (`git-clone`, `git-worktree`, `isomorphic`). */
  readonly kind: string;
  open(request: RoomRequest): ResultAsync<Room, ExecFault>;
  /** Releases what the adapter keeps between rooms (spare worktrees); rooms opened afterwards start cold. */
  close?(): ResultAsync<void, ExecFault>;
  /**
   * Optional: whether rooms can be made where this adapter makes them (its directory exists and
   * lies outside the repository). A run and a verification ask before they write or switch
   * anything, so such a fault changes nothing.
   */
  check?(): ResultAsync<void, ExecFault>;
}

/** Lines and files a range of commits changed. */
export interface DiffStats {
  readonly files: number;
  readonly insertions: number;
  readonly deletions: number;
  readonly paths: readonly string[];
}

/** One commit as `log` reports it. */
export interface CommitInfo {
  readonly id: string;
  /** The full message (subject, blank line, body); whether a trailing newline is kept is the adapter's. */
  readonly message: string;
}

/**
 * The repository the run works in. There is no push, fetch, remote operation or force here, by
 * construction: an adapter cannot be asked for one.
 */
export interface Git {
  /** The full id of HEAD. */
  head(): ResultAsync<string, ExecFault>;
  /** The current branch name; null when HEAD is detached. */
  branch(): ResultAsync<string | null, ExecFault>;
  /** The repository's default branch (origin's HEAD, then `init.defaultBranch`, then main/master); null when none can be told. */
  defaultBranch(): ResultAsync<string | null, ExecFault>;
  /** The full id of the commit branch `name` (`refs/heads/<name>`) points at; null when there is no such branch. */
  branchHead(name: string): ResultAsync<string | null, ExecFault>;
  /** Switch to `name`, creating it at HEAD first when it does not exist. */
  switchBranch(name: string): ResultAsync<void, ExecFault>;
  /** Paths with uncommitted changes (staged, unstaged or untracked; ignored files excluded). */
  dirty(): ResultAsync<readonly string[], ExecFault>;
  /** Commit every change of the working tree; null when there was nothing to commit. */
  commitAll(message: string): ResultAsync<string | null, ExecFault>;
  /**
   * Add one commit that undoes every commit in `from..to` (HEAD must be `to`, with `from` in its
   * history): its tree is `from`'s tree. Returns the new commit's id.
   */
  revert(from: string, to: string, message: string): ResultAsync<string, ExecFault>;
  /**
   * Commits reachable from `to` and not from `from` (all of `to`'s history when `from` is null),
   * newest first, optionally only those touching `paths` (each a path from the top, taken as
   * written, not as a pattern; an empty list touches nothing, so no commit).
   */
  log(from: string | null, to: string, paths?: readonly string[]): ResultAsync<readonly CommitInfo[], ExecFault>;
  /**
   * Every path some commit in `from..to` changed, each once, from the top of the working tree: a
   * commit with one parent against that parent (a rename as both its paths), a root commit all its
   * files, a merge only the paths whose content differs from every one of its parents (what the merge
   * itself wrote: a conflict resolved, an edit made while merging). What a merge took from one side
   * is the change of that side's own commits, which the range holds too. Every commit in the range
   * counts, side branches included, with no history simplification.
   */
  changedPaths(from: string, to: string): ResultAsync<readonly string[], ExecFault>;
  /** Changed files and lines between two commits. */
  diffStats(from: string, to: string): ResultAsync<DiffStats, ExecFault>;
  /**
   * The patch between two commits, as `git diff --no-renames` prints it, kept within `maxBytes`
   * (`diffCutter`): whole files in order while they fit, each file that does not left out and
   * named in `truncated` with the full size. Never holds more than `maxBytes` of it.
   */
  diff(from: string, to: string, maxBytes: number): ResultAsync<BoundedDiff, ExecFault>;
  /** Paths of every file tracked at `commit`. */
  listFiles(commit: string): ResultAsync<readonly string[], ExecFault>;
  /** The tree of `commit`, read without a checkout: the run checks and pins acceptance's surface through it. */
  tree(commit: string): TreeReader;
  /** Set uncommitted changes (untracked files included) aside without losing them; the id of what holds them, null when clean. */
  setAside(message: string): ResultAsync<string | null, ExecFault>;
  /**
   * Optional: the top of the working tree when the adapter works in a directory below it, null
   * when it works at the top. A run and a verification refuse a repository below the top
   * (`repo-not-top`) before they change anything: a clean room is a checkout of the whole
   * repository and runs acceptance at its top. An adapter that only works at the top need not
   * have it.
   */
  topAbove?(): ResultAsync<string | null, ExecFault>;
}

/** A file the run opened to read: node:fs's and memfs's `FileHandle` both fit. */
export interface WorkspaceFileHandle {
  /** fstat of the open file: what was opened, whatever the path names by now. */
  stat(): Promise<{ isFile(): boolean; isDirectory?(): boolean; readonly size: number | bigint }>;
  /** Reads up to `length` bytes at `position` into `buffer` from `offset`; 0 bytes read at the end. */
  read(buffer: Uint8Array, offset: number, length: number, position: number): Promise<{ readonly bytesRead: number }>;
  close(): Promise<void>;
}

/** The filesystem calls the run makes for its workspace, ledger and plan: node:fs and memfs both fit. */
export interface WorkspaceFs {
  /**
   * Open flags; `O_NONBLOCK` and `O_NOFOLLOW` may be missing where the platform has none
   * (Windows). With `O_NOFOLLOW`, a link the run would write through is refused before it writes.
   */
  readonly constants: { readonly O_RDONLY: number; readonly O_NONBLOCK?: number; readonly O_NOFOLLOW?: number };
  readonly promises: {
    mkdir(path: string, options: { recursive: true }): Promise<unknown>;
    writeFile(path: string, data: string | Uint8Array): Promise<unknown>;
    /**
     * Opens a file to read with numeric `flags` (`O_RDONLY | O_NONBLOCK`: a FIFO opens at once
     * instead of waiting for a writer). Follows links; the run then checks and reads the open
     * file alone: a regular file, at most `maxReadBytes`.
     */
    open(path: string, flags: number): Promise<WorkspaceFileHandle>;
    rm(path: string, options: { recursive: true; force: true }): Promise<unknown>;
    /**
     * Optional: the path with every link on it followed (node:fs and memfs have it). With it, a
     * contract that names its plan by an absolute path reaching the repository through a link is
     * placed in the repository; without it, such a plan counts as lying outside. A path given as
     * bytes (as memfs may type it) is read as UTF-8.
     */
    realpath?(path: string): Promise<string | Uint8Array>;
  };
}

/**
 * Keeps a second run out of a working tree while one runs there (they would set aside, commit and
 * switch under each other). `decay run` passes `nodeRunLock()`; without one, `runPlan` takes no lock.
 */
export interface RunLock {
  /**
   * Take the working tree at `repo` for one run; the fault `run-in-progress` while a live run holds
   * it. The answer releases it (idempotent); a claim its run left when it died is taken over.
   */
  acquire(repo: string): ResultAsync<() => Promise<void>, ExecFault>;
}
