// The clean rooms over the git binary: a local clone, or a detached worktree of the repository.
import { mkdir, rm } from "node:fs/promises";
import { resolve } from "node:path";
import { okAsync, ResultAsync } from "neverthrow";
import { type ExecFault, reasonOf } from "../fault.js";
import type { CleanRoom, Shell } from "../ports.js";
import { openRoom, type RoomSteps } from "../room.js";
import { type GitInvoker, gitInvoker } from "./git-process.js";
import { nodeShell } from "./shell.js";

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

/**
 * A clean room made with `git worktree add --detach` of the commit (the repository's hooks are not
 * run). Disposal runs `git worktree remove --force` and `git worktree prune`, so no worktree entry
 * is left behind.
 */
export function gitWorktreeRoom(options: GitRoomOptions): CleanRoom {
  const repo = resolve(options.repo);
  const git = gitInvoker(repo, options.env);
  const prune = () => git.ok(["worktree", "prune"]).map(() => undefined);
  const steps: RoomSteps = {
    // A previous room's directory goes first; prune then drops its entry.
    clear: (dir) => removeDir(dir).andThen(prune),
    create: (dir, parent, commit) =>
      io(parent, () => mkdir(parent, { recursive: true }))
        .andThen(() => fullId(git, commit))
        .andThen((id) =>
          git.ok(["-c", "core.hooksPath=/dev/null", "worktree", "add", "--detach", "--quiet", dir, id]).map(() => id),
        ),
    remove: (dir) =>
      git
        .raw(["worktree", "remove", "--force", dir])
        .andThen(() => removeDir(dir))
        .andThen(prune),
  };
  return roomOf("git-worktree", steps, options.shell ?? nodeShell());
}
