// Where the git clean rooms and their spares live: outside the repository, in the system's temp
// directory unless the caller names another. Rooms get a fresh mkdtemp home each; spares a
// per-user directory that must be this user's own and closed to everyone else (a shared /tmp lets
// anyone create a name first).
import { lstat, mkdir, mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { resolve } from "node:path";
import { type PrivateDirIssue, privateDirIssue } from "@decay/portable";
import { ResultAsync } from "neverthrow";
import { type ExecFault, reasonOf } from "../fault.js";
import { type RepoPlaces, type RoomHomes, roomHomes } from "../room-home.js";
import type { GitInvoker } from "./git-process.js";

type WorkspaceIo = Extract<ExecFault, { code: "workspace-io" }>;

/** A call of node:fs as a step: a rejection is a `workspace-io` fault naming `path`. */
export const fsStep = <T>(path: string, run: () => Promise<T>) =>
  ResultAsync.fromPromise(run(), (e): WorkspaceIo => ({ code: "workspace-io", path, reason: reasonOf(e) }));

/** The real path of the repository's common git directory (`.git` of the main working tree). */
export function commonDirOf(git: GitInvoker, repo: string): ResultAsync<string, ExecFault> {
  return git.ok(["rev-parse", "--git-common-dir"]).andThen((out) => fsStep(repo, () => realpath(resolve(repo, out.trim()))));
}

/** Where the repository's files are, as git finds them (in the environment of `git`). */
export function repoPlacesOf(git: GitInvoker, repo: string): () => ResultAsync<RepoPlaces, ExecFault> {
  return () =>
    ResultAsync.combine([
      fsStep(repo, () => realpath(repo)),
      commonDirOf(git, repo),
      git.raw(["rev-parse", "--show-toplevel"]).andThen((o) => fsStep(repo, async () => (o.exit === 0 ? realpath(o.stdout.trim()) : null))),
    ]).map(([real, common, top]) => ({ repo: real, common, top }));
}

/**
 * The homes of the rooms of the repository behind `git`, under `dir` (default `os.tmpdir()`), whose
 * faults name `dir` as `dirName` (default `dir`).
 */
export function nodeRoomHomes(git: GitInvoker, repo: string, dir: string | undefined, dirName?: string): RoomHomes {
  return roomHomes({ mkdtemp, realpath, rm }, resolve(dir ?? tmpdir()), repoPlacesOf(git, repo), dirName);
}

/**
 * Makes `path` (mode 0700) unless it exists, then checks it is what this user made: a directory,
 * not a link, owned by `uid`, with no access for group or others. Anything else is a
 * `workspace-io` fault whose reason says why.
 */
export function privateDir(path: string, uid: number): ResultAsync<string, WorkspaceIo> {
  return fsStep(path, async () => {
    await mkdir(path, { mode: 0o700 }).catch((e: unknown) => {
      if ((e as { code?: unknown }).code !== "EEXIST") throw e;
    });
    const st = await lstat(path);
    const type = st.isSymbolicLink() ? "symlink" : st.isDirectory() ? "directory" : "other";
    const found = privateDirIssue({ type, uid: st.uid, mode: st.mode }, uid);
    if (found !== null) throw new Error(why(found, uid));
    return path;
  });
}

/** Why a directory is not private, in words. */
function why(found: PrivateDirIssue, uid: number): string {
  switch (found.issue) {
    case "symlink":
      return "it is a symbolic link";
    case "not-a-directory":
      return "it is not a directory";
    case "foreign-owner":
      return `it is owned by uid ${found.uid}, not by this user (uid ${uid})`;
    case "open":
      return `others have access to it (mode ${found.mode.toString(8)})`;
  }
}
