// Where the git clean rooms and their spares live: outside the repository, in the system's temp
// directory unless the caller names another. Rooms get a fresh mkdtemp home each; spares a
// per-user directory that must be this user's own and closed to everyone else (a shared /tmp lets
// anyone create a name first).
import { lstat, mkdir, mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, resolve } from "node:path";
import { ResultAsync } from "neverthrow";
import { type ExecFault, reasonOf } from "../fault.js";
import { type RoomHomes, roomHomes } from "../room-home.js";
import type { GitInvoker } from "./git-process.js";

const fsStep = <T>(path: string, run: () => Promise<T>) =>
  ResultAsync.fromPromise(run(), (e): ExecFault => ({ code: "workspace-io", path, reason: reasonOf(e) }));

/** The real path of the repository's common git directory (`.git` of the main working tree). */
export function commonDirOf(git: GitInvoker, repo: string): ResultAsync<string, ExecFault> {
  return git.ok(["rev-parse", "--git-common-dir"]).andThen((out) => fsStep(repo, () => realpath(resolve(repo, out.trim()))));
}

/**
 * The real paths no room may lie in: the directory given as the repository, its working tree's top,
 * its common git directory and, when that is a `.git`, the main working tree holding it.
 */
export function repoDirsOf(git: GitInvoker, repo: string): () => ResultAsync<readonly string[], ExecFault> {
  return () =>
    ResultAsync.combine([
      fsStep(repo, () => realpath(repo)),
      commonDirOf(git, repo),
      git.raw(["rev-parse", "--show-toplevel"]).andThen((o) => fsStep(repo, async () => (o.exit === 0 ? realpath(o.stdout.trim()) : null))),
    ]).map(([top, common, work]) => {
      const dirs = [top, common, ...(work === null ? [] : [work])];
      return basename(common) === ".git" ? [...dirs, dirname(common)] : dirs;
    });
}

/** The homes of the rooms of the repository behind `git`, under `dir` (default `os.tmpdir()`). */
export function nodeRoomHomes(git: GitInvoker, repo: string, dir: string | undefined): RoomHomes {
  return roomHomes({ mkdtemp, realpath, rm }, resolve(dir ?? tmpdir()), repoDirsOf(git, repo));
}

/**
 * Makes `path` (mode 0700) unless it exists, then checks it is what this user made: a directory,
 * not a link, owned by `uid`, with no access for group or others. Anything else is refused.
 */
export function privateDir(path: string, uid: number): ResultAsync<string, ExecFault> {
  return fsStep(path, async () => {
    await mkdir(path, { mode: 0o700 }).catch((e: unknown) => {
      if ((e as { code?: unknown }).code !== "EEXIST") throw e;
    });
    const st = await lstat(path);
    const refuse = (why: string) => {
      throw new Error(`refused as a private directory for spare rooms: ${why}; remove it, or pass another \`dir\``);
    };
    if (!st.isDirectory()) refuse(st.isSymbolicLink() ? "it is a symbolic link" : "it is not a directory");
    if (st.uid !== uid) refuse(`it is owned by uid ${st.uid}, not by this user (uid ${uid})`);
    if ((st.mode & 0o077) !== 0) refuse(`others have access to it (mode ${(st.mode & 0o777).toString(8)})`);
    return path;
  });
}
