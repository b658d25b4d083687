// A clean room with no git binary: isomorphic-git reads the commit's trees and blobs from the
// repository's object store and the files are written through an fs passed in. Runtime-neutral.
import { expandOid, type PromiseFsClient, readBlob, readCommit, readTree, resolveRef, type TreeEntry } from "isomorphic-git";
import { ResultAsync } from "neverthrow";
import { type ExecFault, reasonOf } from "./fault.js";
import type { CleanRoom, Shell } from "./ports.js";
import { openRoom, type RoomSteps } from "./room.js";
import { type RepoPlaces, roomHomes } from "./room-home.js";

/** The fs calls the room makes beyond what isomorphic-git reads with: node:fs and memfs both fit. */
export type RoomFs = PromiseFsClient & {
  readonly promises: {
    mkdir(path: string, options?: { recursive?: boolean }): Promise<unknown>;
    writeFile(path: string, data: Uint8Array): Promise<unknown>;
    rm(path: string, options: { recursive: true; force: true }): Promise<unknown>;
    symlink(target: string, path: string): Promise<unknown>;
    /** Makes each room's own directory, `<dir>/decay-room-XXXXXX` (node:fs makes it 0700). */
    mkdtemp(prefix: string): Promise<string>;
    /** Resolves `dir` and the repository's paths before `dir` is checked to lie outside the repository. */
    realpath(path: string): Promise<string>;
    /** Reads a `.git` file and `commondir` to find the common git directory (the main checkout of a linked worktree). */
    readFile(path: string, encoding: "utf8"): Promise<string>;
    /** Without it executable bits are not set. */
    chmod?(path: string, mode: number): Promise<unknown>;
  };
};

/** Options of `isomorphicRoom`. */
export interface IsomorphicRoomOptions {
  readonly fs: RoomFs;
  /** The repository's working tree; its `.git` is read, never the working tree itself. */
  readonly repo: string;
  /** The git directory when it is not `<repo>/.git`. */
  readonly gitdir?: string;
  /**
   * An existing directory the rooms are made in, each in a fresh directory of its own made by
   * `mkdtemp` and removed on disposal; in Node, `os.tmpdir()`. It must lie outside every working
   * tree: tools run in a room search upward from it (Node's module resolution, package.json,
   * tsconfig). A directory inside the repository, its git directory or (for a linked worktree) the
   * main working tree is refused (`option-invalid`).
   */
  readonly dir: string;
  /**
   * What the caller's user calls `dir`, named as the `option` of the `option-invalid` fault
   * (default `dir`; `decay`, which takes the directory from `$TMPDIR`, passes `$TMPDIR`).
   */
  readonly dirName?: string;
  /** Runs a room's setup command; a room asked for a setup without one is an `option-invalid` fault. */
  readonly shell?: Shell;
  /** How many files are written at once (default 16). */
  readonly width?: number;
}

const FULL_ID = /^[0-9a-f]{40}$/;
const decoder = new TextDecoder();

/** A tree to list into `path`, or one entry of a listed tree to write into `dir`. */
type Job = { readonly tree: string; readonly path: string } | { readonly entry: TreeEntry; readonly dir: string };

interface Reader {
  readonly fs: RoomFs;
  readonly at: { dir: string; gitdir?: string; cache: object };
}

/** Entry names a checkout must never write: they would leave the room or reach into `.git`. */
function unsafe(name: string): boolean {
  return name === "" || name === "." || name === ".." || name.toLowerCase() === ".git" || /[/\\\0]/.test(name);
}

async function writeEntry(r: Reader, dir: string, entry: TreeEntry): Promise<Job[]> {
  const path = `${dir}/${entry.path}`;
  const p = r.fs.promises;
  if (unsafe(entry.path)) throw new Error(`the tree entry ${JSON.stringify(path)} is not a safe file name`);
  if (entry.type === "tree") {
    await p.mkdir(path);
    return [{ tree: entry.oid, path }];
  }
  // A submodule is an empty directory in a checkout, as git leaves it.
  if (entry.type === "commit") return p.mkdir(path).then(() => []);
  const { blob } = await readBlob({ fs: r.fs, ...r.at, oid: entry.oid });
  if (entry.mode === "120000") await p.symlink(decoder.decode(blob), path);
  else await p.writeFile(path, blob);
  if (entry.mode === "100755" && p.chmod !== undefined) await p.chmod(path, 0o755);
  return [];
}

async function runJob(r: Reader, job: Job): Promise<Job[]> {
  if ("entry" in job) return writeEntry(r, job.dir, job.entry);
  const { tree } = await readTree({ fs: r.fs, ...r.at, oid: job.tree });
  return tree.map((entry) => ({ entry, dir: job.path }));
}

/**
 * Runs `run` over `jobs` and every job it yields, at most `width` at once. After a failure nothing
 * new starts, and the promise settles only once every started job has, so no write outlives it.
 */
function drain(jobs: Job[], width: number, run: (job: Job) => Promise<Job[]>): Promise<void> {
  return new Promise((done, fail) => {
    let active = 0;
    let failure: { e: unknown } | undefined;
    const settle = (more: Job[]) => {
      active -= 1;
      jobs.push(...more);
      pump();
    };
    const pump = () => {
      while (failure === undefined && active < width && jobs.length > 0) {
        const job = jobs.pop() as Job;
        active += 1;
        run(job).then(settle, (e: unknown) => {
          failure ??= { e };
          settle([]);
        });
      }
      if (active > 0) return;
      if (failure !== undefined) fail(failure.e);
      else if (jobs.length === 0) done();
    };
    pump();
  });
}

async function commitOf(r: Reader, commit: string): Promise<{ oid: string; tree: string }> {
  let oid = commit;
  if (!FULL_ID.test(commit)) {
    oid = await resolveRef({ fs: r.fs, ...r.at, ref: commit }).catch(() => expandOid({ fs: r.fs, ...r.at, oid: commit }));
  }
  const read = await readCommit({ fs: r.fs, ...r.at, oid });
  return { oid: read.oid, tree: read.commit.tree };
}

/** A path as git writes one in `.git` or `commondir`: absolute (POSIX or Windows), else relative to the file's directory. */
const pathIn = (dir: string, text: string) => (/^(?:\/|[A-Za-z]:[/\\]|\\\\)/.test(text) ? text : `${dir}/${text}`);

/**
 * Where the repository's files are, read as git finds them: the git directory is `gitdir`, else
 * `<repo>/.git` when it is a directory, or the one a `.git` file names (`gitdir: …`, as a linked
 * worktree's does); the common git directory is the one its `commondir` names, else itself.
 */
async function placesOf(p: RoomFs["promises"], repo: string, gitdir: string | undefined): Promise<RepoPlaces> {
  const top = await p.realpath(repo);
  const dotGit = `${top}/.git`;
  const named = (text: string) => /^gitdir: *(.+?)\r?$/m.exec(text)?.[1];
  const git =
    gitdir ??
    (await p.readFile(dotGit, "utf8").then(
      (text) => pathIn(top, named(text) ?? ".git"),
      () => dotGit,
    ));
  const common = await p.readFile(`${git}/commondir`, "utf8").then(
    (text) => pathIn(git, text.split(/\r?\n/)[0] ?? "."),
    () => git,
  );
  return { repo: top, top, common: await p.realpath(common) };
}

/**
 * A `CleanRoom` that writes a commit's files with isomorphic-git, no git binary: symbolic links and
 * executable bits (when the fs has `chmod`) as committed. Needs only the repository's object store,
 * so it runs wherever an fs does; `repo` is a main working tree (or pass `gitdir`), as isomorphic-git
 * does not follow a linked worktree's `.git` file.
 */
export function isomorphicRoom(options: IsomorphicRoomOptions): CleanRoom {
  const p = options.fs.promises;
  const removeDir = (dir: string) =>
    ResultAsync.fromPromise(
      Promise.resolve().then(() => p.rm(dir, { recursive: true, force: true })),
      (e): ExecFault => ({ code: "workspace-io", path: dir, reason: reasonOf(e) }),
    ).map(() => undefined);
  const places = () =>
    ResultAsync.fromPromise(
      Promise.resolve().then(() => placesOf(p, options.repo, options.gitdir)),
      (e): ExecFault => ({ code: "workspace-io", path: options.repo, reason: reasonOf(e) }),
    );
  const homes = roomHomes(p, options.dir, places, options.dirName);
  const create = async (dir: string, commit: string) => {
    const r: Reader = { fs: options.fs, at: { dir: options.repo, cache: {}, ...(options.gitdir ? { gitdir: options.gitdir } : {}) } };
    const found = await commitOf(r, commit);
    await p.mkdir(dir);
    await drain([{ tree: found.tree, path: dir }], options.width ?? 16, (job) => runJob(r, job));
    return found.oid;
  };
  const steps: RoomSteps = {
    home: homes.make,
    create: (dir, commit) =>
      ResultAsync.fromPromise(
        Promise.resolve().then(() => create(dir, commit)),
        (e): ExecFault => ({ code: "room-failed", commit, reason: reasonOf(e) }),
      ),
    remove: removeDir,
    drop: homes.drop,
  };
  return { kind: "isomorphic", open: (request) => openRoom(steps, request, options.shell), check: () => homes.base().map(() => undefined) };
}
