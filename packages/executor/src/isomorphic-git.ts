// The Git port over isomorphic-git: no git binary, every byte through the fs passed in (node:fs or
// a memfs volume). Only local operations are imported: nothing here can reach another repository.
// Runtime-neutral.
import { thrownCode } from "@decay/portable";
import { gitTree } from "@decay/assumptions/git";
import { branch, currentBranch, findRoot, getConfig, resolveRef } from "isomorphic-git";
import { errAsync, okAsync, ResultAsync } from "neverthrow";
import { diffCutter, diffHeaderPath } from "./diff-cut.js";
import { type ExecFault, reasonOf } from "./fault.js";
import { setAside } from "./isomorphic-git/aside.js";
import { changedInRange, logRange } from "./isomorphic-git/history.js";
import { type IsomorphicGitFs, leaves, mustCommit, type Repo } from "./isomorphic-git/objects.js";
import { isBranchName, withExcludes } from "./isomorphic-git/names.js";
import { diffRange } from "./isomorphic-git/range-diff.js";
import { commitAll, dirtyPaths, revertRange, switchTo } from "./isomorphic-git/worktree.js";
import type { Git } from "./ports.js";

export type { IsomorphicGitFs } from "./isomorphic-git/objects.js";

/** Options of `isomorphicGit`. */
export interface IsomorphicGitOptions {
  readonly fs: IsomorphicGitFs;
  /** The top of the repository's main working tree (isomorphic-git reads no linked worktree's `.git` file). */
  readonly dir: string;
  /** The git directory when it is not `<dir>/.git`. */
  readonly gitdir?: string;
  /**
   * Ignore rules beyond the repository's own `.gitignore` files and `info/exclude`, in `.gitignore`
   * syntax, matched from the top of the working tree: pass the text of the user's global excludes
   * (`core.excludesFile`, by default `~/.config/git/ignore`), which isomorphic-git cannot read.
   * Without it a file ignored only there is seen as untracked, and `commitAll` commits it; a
   * repository whose own config sets `core.excludesFile` is refused unless this is given.
   */
  readonly excludes?: string;
}

const textOf = (data: Uint8Array | string) => (typeof data === "string" ? data : new TextDecoder().decode(data));

/** Names `git switch` would never take as a branch: an option, nothing, or a name git refuses. */
const notABranch = (name: string) => !isBranchName(name);

/**
 * A `Git` over isomorphic-git for the repository whose working tree is `dir`. Commits are made as
 * the `user.name` and `user.email` of the repository's own config (isomorphic-git reads no other);
 * a commit without them is a `git-failed` fault that names what is missing. Every failure is a
 * `git-failed` fault naming the port's method and isomorphic-git's message.
 */
export function isomorphicGit(options: IsomorphicGitOptions): Git {
  const hasExcludes = options.excludes !== undefined;
  // Where isomorphic-git itself looks when no gitdir is given.
  const gitdir = options.gitdir ? options.gitdir : `${options.dir}/.git`;
  const fs = hasExcludes ? withExcludes(options.fs, gitdir, options.excludes ?? "") : options.fs;
  const repo = (): Repo => ({ fs, dir: options.dir, gitdir, cache: {} });
  const run = <T>(op: string, work: (r: Repo) => Promise<T>): ResultAsync<T, ExecFault> =>
    ResultAsync.fromPromise(
      Promise.resolve().then(() => work(repo())),
      (e): ExecFault => ({ code: "git-failed", op, reason: reasonOf(e) }),
    );
  const branchExists = (r: Repo, name: string) =>
    resolveRef({ ...r, ref: `refs/heads/${name}` }).then(
      () => true,
      () => false,
    );
  const head = (): ResultAsync<string, ExecFault> =>
    run("resolve HEAD", async (r) => {
      return resolveRef({ ...r, ref: "HEAD" }).catch(async (e: unknown) => {
        // HEAD names a branch with no commit yet: no head, not a failure.
        const named = await r.fs.promises.readFile(`${r.gitdir}/HEAD`).then(textOf, () => "");
        if (named.startsWith("ref: ")) return null;
        throw e;
      });
    }).andThen((id) => (id === null ? errAsync<string, ExecFault>({ code: "no-head", repo: options.dir }) : okAsync(id)));
  return {
    head,
    branch: () => run("current branch", async (r) => (await currentBranch(r)) || null),
    branchHead: (name) =>
      notABranch(name)
        ? okAsync(null)
        : run(`branch ${name}`, (r) =>
            resolveRef({ ...r, ref: `refs/heads/${name}` }).catch((e: unknown) => {
              if (thrownCode(e) === "NotFoundError") return null;
              throw e;
            }),
          ),
    defaultBranch: () =>
      run("default branch", async (r) => {
        const origin = "refs/remotes/origin/";
        const to = await resolveRef({ ...r, ref: `${origin}HEAD`, depth: 1 }).catch(() => "");
        if (to.startsWith(origin)) return to.slice(origin.length);
        const configured: unknown = await getConfig({ ...r, path: "init.defaultBranch" });
        for (const name of [...(typeof configured === "string" ? [configured.trim()] : []), "main", "master"]) {
          if (name !== "" && (await branchExists(r, name))) return name;
        }
        return null;
      }),
    switchBranch: (name) => {
      if (notABranch(name)) return errAsync({ code: "git-failed", op: "switch", reason: `${JSON.stringify(name)} is not a branch name` });
      return run(`switch ${name}`, async (r) => {
        if (await branchExists(r, name)) await switchTo(r, name, hasExcludes);
        else await branch({ ...r, ref: name, checkout: true });
      });
    },
    dirty: () => run("status", (r) => dirtyPaths(r, hasExcludes)),
    commitAll: (message) => run("commit", (r) => commitAll(r, message, hasExcludes)),
    revert: (from, to, message) => run(`revert ${from}..${to}`, (r) => revertRange(r, from, to, message, hasExcludes)),
    log: (from, to, paths) => run(`log ${from === null ? to : `${from}..${to}`}`, (r) => logRange(r, from, to, paths)),
    changedPaths: (from, to) => run(`changed paths ${from}..${to}`, (r) => changedInRange(r, from, to)),
    diffStats: (from, to) => run(`diff --numstat ${from} ${to}`, (r) => diffRange(r, from, to)),
    // File by file through the cutter: at most `maxBytes` of the patch is ever held.
    diff: (from, to, maxBytes) =>
      run(`diff ${from} ${to}`, async (r) => {
        const cut = diffCutter(maxBytes, diffHeaderPath);
        await diffRange(r, from, to, (patch) => cut.push(patch));
        return cut.end();
      }),
    listFiles: (commit) => run(`list files ${commit}`, async (r) => (await leaves(r, (await mustCommit(r, commit)).tree)).map((l) => l.path)),
    tree: (commit) => gitTree({ fs: options.fs, dir: options.gitdir ?? options.dir, ref: commit, describe: `commit ${commit}` }),
    setAside: (message) => run("stash", (r) => setAside(r, message, hasExcludes)),
    topAbove: () =>
      run("find the top", async (r) => {
        if (options.gitdir !== undefined) return null;
        const top = await findRoot({ fs: r.fs, filepath: options.dir });
        return top.replace(/\/+$/, "") === options.dir.replace(/\/+$/, "") ? null : top;
      }),
  };
}
