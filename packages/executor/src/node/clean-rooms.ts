// The clean rooms over the git binary: a local clone, or a detached worktree of the repository.
import { lstat, mkdir, rm } from "node:fs/promises";
import { resolve } from "node:path";
import { okAsync, ResultAsync } from "neverthrow";
import { type ExecFault, reasonOf } from "../fault.js";
import type { CleanRoom, Shell } from "../ports.js";
import { openRoom, type RoomSteps } from "../room.js";
import { type GitInvoker, gitInvoker } from "./git-process.js";
import { nodeShell } from "./shell.js";
import { sparesOf } from "./spare-rooms.js";

/** Options of the git clean rooms. */
export interface GitRoomOptions {
  /** The repository whose commits are materialised (its working tree is never read). */
  readonly repo: string;
  /** Runs a room's setup command (default `nodeShell()`). */
  readonly shell?: Shell;
  /** The environment git runs in (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

const FULL_ID = /^[0-9a-f]{40}$/;

function io(path: string, run: () => Promise<unknown>): ResultAsync<void, ExecFault> {
  return ResultAsync.fromPromise(run(), (e): ExecFault => ({ code: "workspace-io", path, reason: reasonOf(e) })).map(() => undefined);
}

const removeDir = (dir: string) => io(dir, () => rm(dir, { recursive: true, force: true }));

const exists = (path: string) =>
  ResultAsync.fromPromise(
    lstat(path).then(
      () => true,
      (e: unknown) => {
        if ((e as { code?: unknown }).code === "ENOENT") return false;
        throw e;
      },
    ),
    (e): ExecFault => ({ code: "workspace-io", path, reason: reasonOf(e) }),
  );

/** The full id of `commit` in the repository; a full id is taken as it is (the checkout verifies it). */
function fullId(git: GitInvoker, commit: string): ResultAsync<string, ExecFault> {
  if (FULL_ID.test(commit)) return okAsync(commit);
  return git.ok(["rev-parse", "--verify", "--end-of-options", `${commit}^{commit}`]).map((o) => o.trim());
}

function roomOf(kind: string, steps: RoomSteps, shell: Shell): CleanRoom {
  return {
    kind,
    open: (request) => openRoom(steps, { ...request, parent: resolve(request.parent) }, shell),
  };
}

/**
 * A clean room made as the seed does it by hand: `git clone --local --no-hardlinks --no-checkout`
 * of the repository, then a detached checkout of the commit. Disposal removes the directory.
 */
export function gitCloneRoom(options: GitRoomOptions): CleanRoom {
  const repo = resolve(options.repo);
  const git = gitInvoker(repo, options.env);
  const steps: RoomSteps = {
    clear: removeDir,
    create: (dir, parent, commit) =>
      io(parent, () => mkdir(parent, { recursive: true }))
        .andThen(() => fullId(git, commit))
        .andThen((id) =>
          gitInvoker(parent, options.env)
            .ok(["clone", "--local", "--no-hardlinks", "--no-checkout", "--quiet", "--", repo, dir])
            .andThen(() => gitInvoker(dir, options.env).ok(["checkout", "--quiet", "--detach", id, "--"]))
            .map(() => id),
        ),
    remove: removeDir,
  };
  return roomOf("git-clone", steps, options.shell ?? nodeShell());
}

/** Options of `gitWorktreeRoom`. */
export interface GitWorktreeRoomOptions extends GitRoomOptions {
  /**
   * How many disposed rooms are kept as spares under `<git-common-dir>/decay-rooms/` and reset for
   * later rooms (default 1; 0 removes every room when it is disposed).
   */
  readonly spares?: number;
}

/** A worktree clean room: opening, disposal and `close`, which removes the spares it keeps. */
export interface WorktreeCleanRoom extends CleanRoom {
  close(): ResultAsync<void, ExecFault>;
}

/**
 * A clean room made with `git worktree add --detach` of the commit (the repository's hooks are not
 * run). A disposed room is parked as a spare; the next room claims it, `git reset --hard`s it to
 * its commit and `git clean -ffdx`es it, which leaves exactly the commit's files and rewrites only
 * those that differ. A spare that cannot be claimed cleanly is removed and a fresh worktree added.
 * Rooms that are not parked are removed with `git worktree remove --force` and `git worktree prune`.
 */
export function gitWorktreeRoom(options: GitWorktreeRoomOptions): WorktreeCleanRoom {
  const repo = resolve(options.repo);
  const git = gitInvoker(repo, options.env);
  const spares = sparesOf(git, repo, options.spares ?? 1, options.env);
  const prune = () => git.ok(["worktree", "prune"]).map(() => undefined);
  const add = (dir: string, id: string) => git.ok(["-c", "core.hooksPath=/dev/null", "worktree", "add", "--detach", "--quiet", dir, id]);
  const removeRoom = (dir: string) =>
    git
      .raw(["worktree", "remove", "--force", dir])
      .andThen(() => removeDir(dir))
      .andThen(prune);
  const park = (dir: string) =>
    exists(dir).andThen((there) => (there ? spares.park(dir).andThen((parked) => (parked ? okAsync(undefined) : removeRoom(dir))) : prune()));
  const steps: RoomSteps = {
    // A previous room left at the same name is parked (or removed); no directory, nothing to do.
    clear: (dir) => exists(dir).andThen((there) => (there ? park(dir) : okAsync(undefined))),
    create: (dir, parent, commit) =>
      io(parent, () => mkdir(parent, { recursive: true }))
        .andThen(() => fullId(git, commit))
        .andThen((id) =>
          spares.claim(dir, id).andThen((claimed) =>
            claimed
              ? okAsync(id)
              : // An entry whose directory someone else deleted blocks `add` until it is pruned: prune, then once more.
                add(dir, id)
                  .orElse(() => prune().andThen(() => add(dir, id)))
                  .map(() => id),
          ),
        ),
    remove: park,
  };
  return { ...roomOf("git-worktree", steps, options.shell ?? nodeShell()), close: () => spares.drain() };
}
