// Where a repository's objects, refs and HEAD live, and which object a ref name names (refs read
// by git-refs.ts); the linked-worktree layout (a `.git` file, `commondir`, a per-worktree HEAD) is
// resolved here, and a repository format gitTree does not read is refused (git-format.ts).
import type { PromiseFsClient } from "isomorphic-git";
import { errAsync, okAsync, ResultAsync } from "neverthrow";
import type { TreeError } from "../tree.js";
import { formatProblem } from "./git-format.js";
import { isRefusal } from "./git-guard.js";
import { BrokenRef, lookUpRef, type ReadRef, symrefTarget } from "./git-refs.js";
import { errorCode, errorSaid, errorWords, joinTree, treeError } from "./tree-error.js";

/** A filesystem isomorphic-git can use (node:fs, a memfs `fs`), typed for the one call made here. */
export type GitFs = PromiseFsClient & {
  readonly promises: { readFile(path: string): Promise<Uint8Array | string> };
};

/** The two directories of a repository: `gitdir` holds HEAD, `commondir` holds refs and objects. */
export interface RepoLayout {
  readonly gitdir: string;
  readonly commondir: string;
}

const OID = /^[0-9a-f]{40}$/;

function missing(e: unknown): boolean {
  const code = errorCode(e);
  return code === "ENOENT" || code === "ENOTDIR" || code === "NotFoundError";
}

/**
 * Runs one isomorphic-git or fs call, which may throw synchronously as well as reject; `onError`
 * words its failure, once. The one wrapper every git adapter call goes through.
 */
export function gitCall<T>(run: () => Promise<T>, onError: (e: unknown) => TreeError): ResultAsync<T, TreeError> {
  return ResultAsync.fromPromise(Promise.resolve().then(run), onError);
}

/** The words for a failed object read: the guard's sentence, a missing object, or a corrupt one, each naming the object. */
export function objectProblem(e: unknown, oid: string, gitdir: string): string {
  if (isRefusal(e)) return e.detail;
  const code = errorCode(e);
  if (code === "NotFoundError") return `the git object ${oid} is missing from ${gitdir}/objects`;
  return `the git object ${oid} in ${gitdir}/objects is corrupt: ${errorWords(e)}`;
}

/** `gitCall`, where a missing file, directory or object answers `undefined` instead of failing. */
function unlessMissing<T>(run: () => Promise<T>, onError: (e: unknown) => TreeError): ResultAsync<T | undefined, TreeError> {
  const found = (): Promise<T | undefined> =>
    run().catch((e: unknown) => {
      if (missing(e)) return undefined;
      throw e;
    });
  return gitCall(found, onError);
}

// A repository file's text, whichever form the fs answers in.
function asText(raw: Uint8Array | string): string {
  return typeof raw === "string" ? raw : new TextDecoder().decode(raw);
}

/** Reads a small repository file as text; `undefined` when it does not exist. */
function readText(fs: GitFs, path: string): ResultAsync<string | undefined, TreeError> {
  return unlessMissing(
    async () => asText(await fs.promises.readFile(path)),
    (e) => treeError("tree-io", "", `${path}: ${errorSaid(e)}`),
  );
}

function isAbsolute(path: string): boolean {
  return path.startsWith("/") || /^[A-Za-z]:[\\/]/.test(path);
}

function against(base: string, path: string): string {
  return isAbsolute(path) ? path : joinTree(base, path);
}

/**
 * The failure for a `dir` holding no repository: no `.git` there and not a bare repository. A
 * subdirectory of a working tree is one too: gitTree reads a repository from its top level.
 * Marked with `reason`, so a caller tells it from other `tree-not-found` without its words.
 */
function notARepository(dir: string): TreeError {
  return {
    code: "tree-not-found",
    path: "",
    message: `${dir} is not a git repository: it holds no .git and is not a bare repository (give the repository's top level)`,
    reason: "not-a-repository",
  };
}

function gitdirOf(fs: GitFs, dir: string): ResultAsync<string, TreeError> {
  const dotgit = joinTree(dir, ".git");
  return readText(fs, joinTree(dotgit, "HEAD")).andThen((head) => {
    if (head !== undefined) return okAsync(dotgit);
    return readText(fs, dotgit).andThen((file) => {
      if (file !== undefined) {
        const line = /^gitdir: *(.+?)\s*$/m.exec(file);
        if (line?.[1]) return okAsync(against(dir, line[1]));
        return errAsync(treeError("tree-io", "", `${dotgit} is a file without a "gitdir:" line`));
      }
      // No .git at all: `dir` may itself be a bare repository.
      return readText(fs, joinTree(dir, "HEAD")).andThen((bare) => (bare === undefined ? errAsync(notARepository(dir)) : okAsync(dir)));
    });
  });
}

/** Refuses, naming it and why, a repository whose format gitTree does not read (see git-format.ts). */
function readable(fs: GitFs, layout: RepoLayout): ResultAsync<RepoLayout, TreeError> {
  const at = (path: string) => readText(fs, joinTree(layout.commondir, path));
  const replace = joinTree(layout.commondir, "refs/replace");
  const replaceRefs = unlessMissing(
    () => fs.promises.readdir(replace),
    (e) => treeError("tree-io", "", `${replace}: ${errorSaid(e)}`),
  );
  return ResultAsync.combine([at("config"), at("objects/info/alternates"), at("packed-refs"), at("info/grafts"), replaceRefs]).andThen(
    ([config, alternates, packedRefs, grafts, replaced]) => {
      const problem = formatProblem(layout.commondir, { config, alternates, packedRefs, grafts, replaceRefs: replaced ?? [] });
      return problem === undefined ? okAsync(layout) : errAsync(treeError("tree-io", "", problem));
    },
  );
}

/** Finds the worktree gitdir (from a `.git` directory or a `.git` file) and its common dir; refuses a format gitTree does not read. */
export function locateRepository(fs: GitFs, dir: string): ResultAsync<RepoLayout, TreeError> {
  return gitdirOf(fs, dir)
    .andThen((gitdir) =>
      readText(fs, joinTree(gitdir, "commondir")).map((common) => ({
        gitdir,
        commondir: common === undefined || common.trim() === "" ? gitdir : against(gitdir, common.trim()),
      })),
    )
    .andThen((layout) => readable(fs, layout));
}

/** Looks a name up in the common dir as git does (git-refs.ts; `exactly`: a full name as it is); `undefined` when no ref has it. */
function lookUp(fs: GitFs, layout: RepoLayout, name: string, exactly = false): ResultAsync<string | undefined, TreeError> {
  if (OID.test(name)) return okAsync(name);
  const read: ReadRef = (path) =>
    fs.promises.readFile(path).then(asText, (e: unknown) => {
      if (missing(e) || errorCode(e) === "EISDIR") return undefined;
      throw e;
    });
  return gitCall(
    () => lookUpRef(read, layout.commondir, name, exactly),
    (e) => treeError("tree-io", "", e instanceof BrokenRef ? e.message : `resolving "${name}": ${errorSaid(e)}`),
  );
}

/**
 * The object id a ref name (no suffixes) names, or `undefined` when none does. `HEAD` is read from
 * the worktree's own gitdir (a linked worktree has its own HEAD); every other ref, and the branch
 * HEAD points at (a full name under refs/, else HEAD is broken), from the common dir. A 40-hex id
 * is returned as it is.
 */
export function resolveName(fs: GitFs, layout: RepoLayout, name: string): ResultAsync<string | undefined, TreeError> {
  if (name !== "HEAD") return lookUp(fs, layout, name);
  const path = joinTree(layout.gitdir, "HEAD");
  return readText(fs, path).andThen((head) => {
    const text = head?.trim() ?? "";
    const target = /^ref:\s*(\S+)$/.exec(text)?.[1];
    if (target === undefined) return okAsync(OID.test(text) ? text : undefined);
    // git takes a HEAD pointing anywhere but under refs/ for no repository at all.
    if (!target.startsWith("refs/") || !symrefTarget(target)) {
      return errAsync(treeError("tree-io", "", `${path} is broken: ${JSON.stringify(target)} is not a ref under refs/`));
    }
    return lookUp(fs, layout, target, true);
  });
}

/** The commits `shallow` lists (git reads them as having no parents); a line that is no object id is a tree-io naming the file. */
export function shallowCommits(fs: GitFs, layout: RepoLayout): ResultAsync<ReadonlySet<string>, TreeError> {
  const path = joinTree(layout.commondir, "shallow");
  return readText(fs, path).andThen((text) => {
    const lines = (text ?? "").split("\n").filter((l) => l !== "");
    const bad = lines.find((l) => !OID.test(l));
    return bad === undefined ? okAsync(new Set(lines)) : errAsync(treeError("tree-io", "", `${path} has a line that is no object id: ${JSON.stringify(bad)}`));
  });
}
