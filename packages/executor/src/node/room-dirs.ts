// Where the git clean rooms and their spares live: outside the repository, in the system's temp
// directory unless the caller names another. Rooms get a fresh mkdtemp home each; spares a
// per-user directory that must be this user's own and closed to everyone else (a shared /tmp lets
// anyone create a name first).
import { chmod, lstat, mkdir, mkdtemp, readdir, realpath, rmdir, unlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { resolve } from "node:path";
import { thrownCode, type PrivateDirIssue, privateDirIssue } from "@decay/portable";
import { ResultAsync } from "neverthrow";
import { type ExecFault, reasonOf } from "../fault.js";
import { type RepoPlaces, type RoomHomes, roomHomes } from "../room-home.js";
import type { GitInvoker } from "./git-process.js";

type WorkspaceIo = Extract<ExecFault, { code: "workspace-io" }>;

/** A call of node:fs as a step: a rejection is a `workspace-io` fault naming `path`. */
export const fsStep = <T>(path: string, run: () => Promise<T>) =>
  ResultAsync.fromPromise(run(), (e): WorkspaceIo => ({ code: "workspace-io", path, reason: reasonOf(e) }));

/** What `op` gives, or null when what it acts on is already gone (ENOENT). */
function unlessGone<T>(op: Promise<T>): Promise<T | null> {
  return op.catch((e: unknown) => {
    if (thrownCode(e) === "ENOENT") return null;
    throw e;
  });
}

/** Removes the file or link `path`; one already gone is no fault. */
async function removeLeaf(path: Buffer): Promise<void> {
  await unlessGone(
    unlink(path).catch(async (e: unknown) => {
      // Windows will not unlink a read-only file (git makes its objects so) until it is writable.
      if (thrownCode(e) !== "EPERM" || process.platform !== "win32") throw e;
      await chmod(path, 0o666);
      await unlink(path);
    }),
  );
}

/**
 * Removes `path` and everything under it, as `rm -rf` does (a path already gone is no fault),
 * never through a link, with about `width` calls waiting at once. Node 20's recursive
 * `fs.promises.rm` starts a call on every entry of a directory at once, some 5 KB of memory each:
 * a room of 40,000 files took hundreds of megabytes to remove. Names are read as bytes, so a name
 * that is not UTF-8 is removed too.
 */
export async function removeTree(path: string, width = 16): Promise<void> {
  let spare = width;
  const removeDir = async (dir: Buffer): Promise<void> => {
    const entries = await unlessGone(readdir(dir, { withFileTypes: true, encoding: "buffer" }));
    if (entries === null) return;
    let next = 0;
    const work = async (): Promise<void> => {
      while (next < entries.length) {
        const entry = entries[next++] as (typeof entries)[number];
        const child = Buffer.concat([dir, SLASH, entry.name]);
        // The entry's own type, as listed: a link is removed, never followed.
        await (entry.isDirectory() ? removeDir(child) : removeLeaf(child));
      }
    };
    const helpers: Promise<void>[] = [];
    for (; spare > 0 && helpers.length + 1 < entries.length; spare -= 1) helpers.push(work().finally(() => (spare += 1)));
    const failed = (await Promise.allSettled([work(), ...helpers])).find((r) => r.status === "rejected");
    if (failed !== undefined) throw failed.reason;
    await unlessGone(rmdir(dir));
  };
  const top = Buffer.from(path);
  const st = await unlessGone(lstat(top));
  if (st === null) return;
  await (st.isDirectory() ? removeDir(top) : removeLeaf(top));
}

const SLASH = Buffer.from("/");

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
  return roomHomes({ mkdtemp, realpath, rm: (path) => removeTree(path) }, resolve(dir ?? tmpdir()), repoPlacesOf(git, repo), dirName);
}

/**
 * Makes `path` (mode 0700) unless it exists, then checks it is what this user made: a directory,
 * not a link, owned by `uid`, with no access for group or others. Anything else is a
 * `workspace-io` fault whose reason says why.
 */
export function privateDir(path: string, uid: number): ResultAsync<string, WorkspaceIo> {
  return fsStep(path, async () => {
    await mkdir(path, { mode: 0o700 }).catch((e: unknown) => {
      if (thrownCode(e) !== "EEXIST") throw e;
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
