// Spare worktrees: a disposed worktree room is parked in a private directory of this user's
// outside the repository, and the next room claims it and resets it to its commit, so git rewrites
// only the files that differ instead of every file of the tree.
import { createHash } from "node:crypto";
import { lstat, mkdir, readFile, realpath, rm, rmdir } from "node:fs/promises";
import { basename, dirname } from "node:path";
import { okAsync, ResultAsync } from "neverthrow";
import type { ExecFault } from "../fault.js";
import type { RoomHomes } from "../room-home.js";
import type { GitInvoker } from "./git-process.js";
import { gitInvoker } from "./git-process.js";
import { commonDirOf, fsStep, privateDir } from "./room-dirs.js";

/** The parked worktrees of one repository. */
export interface Spares {
  /** Moves a spare to `dir` and resets it to `id`: true when `dir` now holds exactly the commit; false leaves nothing at `dir`. */
  claim(dir: string, id: string): ResultAsync<boolean, ExecFault>;
  /** Parks the worktree at `dir`: false when it is not a worktree that can be parked, or every slot is taken. */
  park(dir: string): ResultAsync<boolean, ExecFault>;
  /** Removes every spare and its worktree entry. */
  drain(): ResultAsync<void, ExecFault>;
}

const present = (path: string) =>
  ResultAsync.fromSafePromise(
    lstat(path).then(
      () => true,
      () => false,
    ),
  );

const NO_HOOKS = ["-c", "core.hooksPath=/dev/null"];

/** The directory of one repository's spares: its main working tree's name and a digest of its git directory. */
function keyOf(common: string): string {
  const name = basename(basename(common) === ".git" ? dirname(common) : common).replace(/[^A-Za-z0-9._-]+/g, "-");
  return `${name.slice(0, 40)}-${createHash("sha256").update(common).digest("hex").slice(0, 16)}`;
}

/** This user's id; undefined where the platform has none (Windows), and then no spare is kept. */
const userId = (): number | undefined => (typeof process.getuid === "function" ? process.getuid() : undefined);

/**
 * The spares of the repository whose git invoker is `git`: at most `count`, in
 * `<rooms dir>/decay-spares-<uid>/<repository key>/spare-k`. The per-user directory is made 0700
 * and refused unless it is a directory of this user's with no access for others.
 */
export function sparesOf(
  git: GitInvoker,
  repo: string,
  count: number,
  env: Readonly<Record<string, string | undefined>> | undefined,
  homes: RoomHomes,
): Spares {
  let common: ResultAsync<string, ExecFault> | undefined;
  const commonDir = () => (common ??= commonDirOf(git, repo));
  const uid = userId();
  const keep = uid === undefined ? 0 : count;
  // The repository's spare directory inside this user's checked private one.
  const home = () =>
    homes
      .base()
      .andThen((base) => privateDir(`${base}/decay-spares-${uid}`, uid as number))
      .andThen((root) => commonDir().map((c) => `${root}/${keyOf(c)}`));
  const slots = () => (keep === 0 ? okAsync([]) : home().map((h) => Array.from({ length: keep }, (_, k) => `${h}/spare-${k}`)));
  const removeWorktree = (dir: string) =>
    git
      .raw(["worktree", "remove", "--force", "--force", dir])
      .andThen(() => fsStep(dir, () => rm(dir, { recursive: true, force: true })))
      .andThen(() => git.ok(["worktree", "prune"]))
      .map(() => undefined);

  // The room's `.git` must still be the file git wrote, naming a worktree of this repository:
  // otherwise git run inside it would act on whatever repository it names now.
  const ownWorktree = (dir: string) =>
    commonDir().andThen((c) =>
      ResultAsync.fromSafePromise(
        readFile(`${dir}/.git`, "utf8")
          .then((text) => realpath(/^gitdir: (.+)\n?$/.exec(text)?.[1] ?? "\0"))
          .then(
            (gitdir) => gitdir.startsWith(`${c}/worktrees/`),
            () => false,
          ),
      ),
    );
  // The index is rebuilt from the commit (no stat data, no flags a command set), every file's
  // content is hashed against it, and only files that differ are rewritten; then everything
  // untracked or ignored goes.
  const reset = (dir: string, id: string) => {
    const room = gitInvoker(dir, env);
    return room
      .ok(["read-tree", id])
      .andThen(() => room.raw(["update-index", "-q", "--refresh"]))
      .andThen(() => room.ok([...NO_HOOKS, "reset", "--hard", "--quiet", id, "--"]))
      .andThen(() => room.ok(["clean", "-ffdxq"]))
      .map(() => true);
  };
  const tryClaim = (slot: string, dir: string, id: string): ResultAsync<boolean, ExecFault> =>
    present(slot).andThen((there) => {
      if (!there) return okAsync(false);
      // A move is one rename: of two claims of the same spare, one finds it gone and fails.
      return git.raw(["worktree", "move", slot, dir]).andThen((moved) => {
        if (moved.exit !== 0) return okAsync(false);
        return ownWorktree(dir)
          .andThen((own) => (own ? reset(dir, id) : okAsync(false)))
          .orElse(() => okAsync(false))
          .andThen((clean) => (clean ? okAsync(true) : removeWorktree(dir).map(() => false)));
      });
    });
  const firstOf = (paths: readonly string[], attempt: (path: string) => ResultAsync<boolean, ExecFault>): ResultAsync<boolean, ExecFault> => {
    const [head, ...rest] = paths;
    if (head === undefined) return okAsync(false);
    return attempt(head).andThen((done) => (done ? okAsync(true) : firstOf(rest, attempt)));
  };
  return {
    claim: (dir, id) => slots().andThen((s) => firstOf(s, (slot) => tryClaim(slot, dir, id))),
    park: (dir) =>
      slots().andThen((s) => {
        const [first] = s;
        if (first === undefined) return okAsync(false);
        return fsStep(first, () => mkdir(dirname(first), { recursive: true, mode: 0o700 })).andThen(() =>
          firstOf(s, (slot) => present(slot).andThen((taken) => (taken ? okAsync(false) : git.raw(["worktree", "move", dir, slot]).map((o) => o.exit === 0)))),
        );
      }),
    drain: () =>
      slots().andThen((s) =>
        s
          .reduce<ResultAsync<void, ExecFault>>(
            (acc, slot) => acc.andThen(() => present(slot)).andThen((there) => (there ? removeWorktree(slot) : okAsync(undefined))),
            okAsync(undefined),
          )
          // The repository's spare directory goes once empty; another adapter may have parked there since.
          .andThen(() => (s[0] === undefined ? okAsync(undefined) : ResultAsync.fromSafePromise(rmdir(dirname(s[0])).catch(() => undefined)))),
      ),
  };
}
