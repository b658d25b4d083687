// The clean rooms over the git binary: a local clone, or a detached worktree of the repository.
import { thrownCode } from "@decay/portable";
import { lstat } from "node:fs/promises";
import { resolve } from "node:path";
import { errAsync, okAsync, type ResultAsync } from "neverthrow";
import type { ExecFault } from "../fault.js";
import type { CleanRoom, Shell } from "../ports.js";
import { openRoom, type RoomSteps } from "../room.js";
import { roomFingerprint } from "./room-fingerprint.js";
import { type GitInvoker, gitInvoker } from "./git-process.js";
import { fsStep, nodeRoomHomes, removeTree } from "./room-dirs.js";
import { nodeShell } from "./shell.js";
import { ownFilters, roomGitOptions, type SparesOff, sparesOf } from "./spare-rooms.js";

/** Options of the git clean rooms. */
export interface GitRoomOptions {
  /** The repository whose commits are materialised (its working tree is never read). */
  readonly repo: string;
  /** Runs a room's setup command (default `nodeShell()`). */
  readonly shell?: Shell;
  /** The environment git runs in (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * An existing directory the rooms are made in (default `os.tmpdir()`), each in a fresh directory
   * of its own made by `mkdtemp` (mode 0700) and removed on disposal. It must lie outside every
   * working tree: tools run in a room search upward from it (Node's module resolution,
   * package.json, tsconfig). A directory inside the repository, its git directory or (for a
   * linked worktree) the main working tree is refused (`option-invalid`).
   */
  readonly dir?: string;
  /**
   * What the caller's user calls `dir`, named as the `option` of the `option-invalid` fault
   * (default `dir`; `decay`, which takes the directory from `$TMPDIR`, passes `$TMPDIR`).
   */
  readonly dirName?: string;
}

const FULL_ID = /^[0-9a-f]{40}$/;

const removeDir = (dir: string) => fsStep(dir, () => removeTree(dir));

const exists = (path: string) =>
  fsStep(path, () =>
    lstat(path).then(
      () => true,
      (e: unknown) => {
        if (thrownCode(e) === "ENOENT") return false;
        throw e;
      },
    ),
  );

/** The full id of `commit` in the repository; a full id is taken as it is (the checkout verifies it). */
function fullId(git: GitInvoker, commit: string): ResultAsync<string, ExecFault> {
  if (FULL_ID.test(commit)) return okAsync(commit);
  return git.ok(["rev-parse", "--verify", "--end-of-options", `${commit}^{commit}`]).map((o) => o.trim());
}

/**
 * A clean room made as the seed does it by hand, but outside the repository:
 * `git clone --local --no-hardlinks --no-checkout` of the repository into a fresh private
 * directory (see `dir`), then a detached checkout of the commit. Disposal removes the directory.
 */
export function gitCloneRoom(options: GitRoomOptions): CleanRoom {
  const repo = resolve(options.repo);
  const git = gitInvoker(repo, options.env);
  const homes = nodeRoomHomes(git, repo, options.dir, options.dirName);
  const steps: RoomSteps = {
    home: homes.make,
    create: (dir, commit) =>
      fullId(git, commit).andThen((id) =>
        gitInvoker(resolve(dir, ".."), options.env)
          .ok(["clone", "--local", "--no-hardlinks", "--no-checkout", "--quiet", "--", repo, dir])
          .andThen(() => gitInvoker(dir, options.env).ok(["checkout", "--quiet", "--detach", id, "--"]))
          .map(() => id),
      ),
    remove: removeDir,
    drop: homes.drop,
    fingerprint: roomFingerprint,
  };
  const shell = options.shell ?? nodeShell();
  return { kind: "git-clone", open: (request) => openRoom(steps, request, shell), check: () => homes.base().map(() => undefined) };
}

/** Options of `gitWorktreeRoom`. */
export interface GitWorktreeRoomOptions extends GitRoomOptions {
  /**
   * How many disposed rooms are kept as spares and reset for later rooms (default 1; 0 removes every
   * room when it is disposed). Spares live in `<dir>/decay-spares-<uid>/<repository>/`, a directory
   * made 0700 and used only while it is this user's own, not a link, with no access for others:
   * otherwise (on a shared /tmp anyone can make the name first) no spare is kept, `onWarning` is
   * told once, and rooms open and dispose as with `spares: 0`. Where the platform has no user ids
   * (Windows) no spare is kept.
   */
  readonly spares?: number;
  /** Told (once) when the spares directory is not used; `describeSparesOff` words it. Nothing is printed. */
  readonly onWarning?: (warning: SparesOff) => void;
}

/** A worktree clean room: opening, disposal and `close`, which removes the spares it keeps. */
export interface WorktreeCleanRoom extends CleanRoom {
  close(): ResultAsync<void, ExecFault>;
}

/**
 * A clean room made with `git worktree add --detach` of the commit into a fresh private directory
 * outside the repository (see `dir`; the repository's hooks are not run). A disposed room is parked as a spare; the next room claims it, `git reset --hard`s it to
 * its commit and `git clean -ffdx`es it, which leaves exactly the commit's files and rewrites only
 * those that differ. A spare that cannot be claimed cleanly is removed and a fresh worktree added.
 * Rooms that are not parked are removed with `git worktree remove --force` and `git worktree prune`.
 */
export function gitWorktreeRoom(options: GitWorktreeRoomOptions): WorktreeCleanRoom {
  const repo = resolve(options.repo);
  const git = gitInvoker(repo, options.env);
  const homes = nodeRoomHomes(git, repo, options.dir, options.dirName);
  // The repository's own filter drivers as they are before the first room: a run opens one before
  // it calls any agent. Taken once; a failure is asked again.
  let filters: ReadonlyMap<string, string> | undefined;
  const trusted = () => (filters ? okAsync(filters) : ownFilters(git).map((found) => (filters = found)));
  const spares = sparesOf({ git, repo, count: options.spares ?? 1, env: options.env, homes, onWarning: options.onWarning, trusted });
  const prune = () => git.ok(["worktree", "prune"]).map(() => undefined);
  const add = (dir: string, id: string) =>
    trusted()
      .andThen((found) => roomGitOptions(git, found))
      .andThen((opts) => git.ok([...opts, "worktree", "add", "--detach", "--quiet", dir, id]));
  const removeRoom = (dir: string) =>
    git
      .raw(["worktree", "remove", "--force", dir])
      .andThen(() => removeDir(dir))
      .andThen(prune);
  // A room that cannot be parked is removed; a fault while parking removes it too, then says why.
  const park = (dir: string) =>
    exists(dir).andThen((there) =>
      there
        ? spares
            .park(dir)
            .orElse((fault) => removeRoom(dir).andThen(() => errAsync<boolean, ExecFault>(fault)))
            .andThen((parked) => (parked ? okAsync(undefined) : removeRoom(dir)))
        : prune(),
    );
  const steps: RoomSteps = {
    home: homes.make,
    create: (dir, commit) =>
      fullId(git, commit).andThen((id) =>
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
    drop: homes.drop,
    fingerprint: roomFingerprint,
  };
  const shell = options.shell ?? nodeShell();
  return {
    kind: "git-worktree",
    open: (request) => openRoom(steps, request, shell),
    close: () => spares.drain(),
    check: () => homes.base().map(() => undefined),
  };
}
