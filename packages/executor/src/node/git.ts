// Git over the system git binary. Only local operations exist here: no command that talks to
// another repository is ever built, so none can be asked for.
import * as nodeFs from "node:fs";
import { gitTree } from "@decay/assumptions/git";
import { errAsync, okAsync, type ResultAsync } from "neverthrow";
import { type BoundedDiff, diffCutter, diffHeaderPath } from "../diff-cut.js";
import { type ExecFault, reasonOf } from "../fault.js";
import type { CommitInfo, Git } from "../ports.js";
import { type GitInvoker, gitFailed, gitInvoker } from "./git-process.js";
import { parseNumstat, parseStatus } from "./git-parse.js";

/** Options of `systemGit`. */
export interface SystemGitOptions {
  /**
   * The repository's working tree. A directory below its top works for reading history, but a run
   * or a verification refuses it (`topAbove` names the top), and `tree` reads commits from `dir`.
   */
  readonly dir: string;
  /** The environment git runs in (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

// Commits the run makes are its own: no hooks (a hook could reach outward), no signing prompt.
const COMMIT = ["-c", "commit.gpgSign=false", "commit", "--quiet", "--no-verify", "--cleanup=whitespace"];
const FALLBACK_IDENTITY = ["-c", "user.name=decay", "-c", "user.email=decay@localhost"];

const lines = (text: string) => text.split("\n").filter((l) => l !== "");

/** A yes/no question to git: its output on exit 0, null on exit 1 ("no"), a fault on anything else. */
function probe(git: GitInvoker, args: readonly string[]): ResultAsync<string | null, ExecFault> {
  return git.raw(args).andThen((o) => {
    if (o.exit === 0) return okAsync(o.stdout.trim());
    return o.exit === 1 ? okAsync(null) : errAsync(gitFailed(args, o));
  });
}

type Where = Pick<Git, "head" | "branch" | "branchHead" | "defaultBranch" | "switchBranch" | "dirty">;

/** Where the repository stands, and moving between branches. */
function where(git: GitInvoker, dir: string): Where {
  const branchExists = (name: string) => probe(git, ["show-ref", "--verify", "--quiet", `refs/heads/${name}`]).map((o) => o !== null);
  return {
    head: () =>
      probe(git, ["rev-parse", "--verify", "--quiet", "HEAD"]).andThen((id) =>
        id === null ? errAsync<string, ExecFault>({ code: "no-head", repo: dir }) : okAsync(id),
      ),
    branch: () => probe(git, ["symbolic-ref", "--quiet", "HEAD"]).map((ref) => (ref?.startsWith("refs/heads/") ? ref.slice("refs/heads/".length) : null)),
    branchHead: (name) => probe(git, ["rev-parse", "--verify", "--quiet", "--end-of-options", `refs/heads/${name}^{commit}`]).map((id) => id || null),
    defaultBranch: () => defaultBranch(git, branchExists),
    switchBranch: (name) => {
      if (name.startsWith("-") || name.trim() === "") {
        return errAsync({ code: "git-failed", op: "switch", reason: `${JSON.stringify(name)} is not a branch name` });
      }
      return branchExists(name)
        .andThen((exists) => git.ok(exists ? ["switch", "--quiet", name] : ["switch", "--quiet", "--create", name]))
        .map(() => undefined);
    },
    dirty: () => git.ok(["status", "--porcelain=v1", "-z", "--untracked-files=all"]).map(parseStatus),
  };
}

/** Making commits and setting changes aside, as the configured identity or the fallback one. */
function changes(git: GitInvoker, at: Where): Pick<Git, "commitAll" | "revert" | "setAside"> {
  let identity: ResultAsync<string[], ExecFault> | undefined;
  const who = () => {
    identity ??= git.raw(["config", "user.email"]).map((o) => (o.stdout.trim() === "" ? FALLBACK_IDENTITY : []));
    return identity;
  };
  const commitIndex = (message: string, extra: readonly string[] = []) =>
    who()
      .andThen((id) => git.ok([...id, ...COMMIT, ...extra, "-m", message]))
      .andThen(at.head);
  return {
    commitAll: (message) =>
      git
        .ok(["add", "--all"])
        .andThen(() => probe(git, ["diff", "--cached", "--quiet"]))
        .andThen((same) => (same === null ? commitIndex(message) : okAsync(null))),
    revert: (from, to, message) =>
      undoable(git, at, from, to)
        // The index and the files become `from`'s tree: every commit of the range is undone at once,
        // merges and all, and nothing can conflict. An empty result is still recorded as a commit.
        .andThen((id) => git.ok(["read-tree", "-u", "--reset", id]))
        .andThen(() => commitIndex(message, ["--allow-empty"])),
    setAside: (message) =>
      at.dirty().andThen((paths) => {
        if (paths.length === 0) return okAsync(null);
        return who()
          .andThen((id) => git.ok([...id, "stash", "--include-untracked", "--quiet", "-m", message]))
          .andThen(() => git.ok(["rev-parse", "--verify", "refs/stash"]))
          .map((o) => o.trim());
      }),
  };
}

/** `from`'s full id when the range `from..to` can be undone: HEAD is `to` and `from` is in its history. */
function undoable(git: GitInvoker, at: Where, from: string, to: string): ResultAsync<string, ExecFault> {
  const refuse = (reason: string) => errAsync<string, ExecFault>({ code: "git-failed", op: `revert ${from}..${to}`, reason });
  return at.head().andThen((head) => {
    if (head !== to) return refuse(`HEAD is ${head}, not ${to}`);
    return probe(git, ["rev-parse", "--verify", "--quiet", "--end-of-options", `${from}^{commit}`]).andThen((id) => {
      if (id === null) return refuse(`${from} is not a commit`);
      return probe(git, ["merge-base", "--is-ancestor", id, head]).andThen((yes) => (yes === null ? refuse(`${from} is not in HEAD's history`) : okAsync(id)));
    });
  });
}

/** Reading history: commits, diffs and the files of a commit. */
function history(git: GitInvoker): Pick<Git, "log" | "changedPaths" | "diffStats" | "diff" | "listFiles"> {
  // git's defaults, whatever the repository's config says (diff.algorithm, diff.ignoreSubmodules,
  // diff.orderFile, diff.relative): the counts and the patch are the same in every repository.
  const DIFF = ["diff", "--no-ext-diff", "--no-textconv", "--diff-algorithm=myers", "--ignore-submodules=none", "-O/dev/null", "--no-relative"];
  // And the patch's shape (core.abbrev, diff.context, diff.interHunkContext, diff.indentHeuristic,
  // diff.submodule, diff.suppressBlankEmpty): the patch isomorphicGit writes, whoever runs it.
  const PATCH = [
    "-c",
    "diff.suppressBlankEmpty=false",
    ...DIFF,
    "--abbrev=7",
    "--unified=3",
    "--inter-hunk-context=0",
    "--indent-heuristic",
    "--submodule=short",
  ];
  return {
    log: (from, to, paths) => log(git, from, to, paths),
    changedPaths: (from, to) => changedPaths(git, from, to),
    diffStats: (from, to) => git.ok([...DIFF, "--numstat", "-z", "--no-renames", "--end-of-options", from, to, "--"]).map(parseNumstat),
    diff: (from, to, maxBytes) =>
      boundedDiff(git, [...PATCH, "--no-color", "--no-renames", "--src-prefix=a/", "--dst-prefix=b/", "--end-of-options", from, to, "--"], maxBytes),
    listFiles: (commit) =>
      git.ok(["ls-tree", "-r", "-z", "--name-only", "--full-tree", "--end-of-options", commit]).map((o) => o.split("\0").filter((p) => p !== "")),
  };
}

/** The patch `args` print, streamed through a cutter: at most `maxBytes` of it is ever held. */
function boundedDiff(git: GitInvoker, args: readonly string[], maxBytes: number): ResultAsync<BoundedDiff, ExecFault> {
  const cut = diffCutter(maxBytes, diffHeaderPath);
  return git.stream(args, (c) => cut.push(c)).andThen((o) => (o.exit === 0 ? okAsync(cut.end()) : errAsync(gitFailed(args, o))));
}

/** Where a directory stands in its git working tree. */
export type TreePlace =
  | { readonly at: "top" }
  | { readonly at: "below"; readonly top: string }
  /** In no working tree: git's own words. */
  | { readonly at: "outside"; readonly reason: string }
  /** The top git names cannot be resolved on disk. */
  | { readonly at: "unresolved"; readonly top: string; readonly reason: string };

/** Where `dir` stands in its working tree, by `git rev-parse --show-toplevel` and both real paths. */
export function treePlace(git: GitInvoker, dir: string): ResultAsync<TreePlace, ExecFault> {
  return git.raw(["rev-parse", "--show-toplevel"]).map((o): TreePlace => {
    if (o.exit !== 0) return { at: "outside", reason: o.stderr.trim().split("\n")[0] || `git rev-parse --show-toplevel exited ${o.exit}` };
    const top = o.stdout.replace(/\r?\n$/, "");
    try {
      return nodeFs.realpathSync(top) === nodeFs.realpathSync(dir) ? { at: "top" } : { at: "below", top };
    } catch (e) {
      return { at: "unresolved", top, reason: reasonOf(e) };
    }
  });
}

function topAbove(git: GitInvoker, dir: string): ResultAsync<string | null, ExecFault> {
  return treePlace(git, dir).andThen((p) => {
    if (p.at === "top") return okAsync(null);
    if (p.at === "below") return okAsync(p.top);
    if (p.at === "outside") return errAsync<string | null, ExecFault>({ code: "git-failed", op: "rev-parse --show-toplevel", reason: p.reason });
    return errAsync<string | null, ExecFault>({ code: "workspace-io", path: p.top, reason: `the top of the working tree cannot be resolved (${p.reason})` });
  });
}

/**
 * A `Git` over the `git` binary for the repository at `dir`. When no committer e-mail is configured,
 * commits are made as `decay <decay@localhost>`. Every failure is a `git-failed` fault naming the
 * command and git's own message.
 */
export function systemGit(options: SystemGitOptions): Git {
  const git = gitInvoker(options.dir, options.env);
  const at = where(git, options.dir);
  // Commits are read through isomorphic-git over node:fs (no checkout); `dir` is then the top of the working tree.
  const tree = (commit: string) => gitTree({ fs: nodeFs, dir: options.dir, ref: commit, describe: `commit ${commit}` });
  return { ...at, ...changes(git, at), ...history(git), tree, topAbove: () => topAbove(git, options.dir) };
}

function defaultBranch(git: GitInvoker, exists: (name: string) => ResultAsync<boolean, ExecFault>): ResultAsync<string | null, ExecFault> {
  const firstExisting = (names: readonly string[]): ResultAsync<string | null, ExecFault> => {
    const [name, ...rest] = names;
    if (name === undefined) return okAsync(null);
    return exists(name).andThen((yes) => (yes ? okAsync(name) : firstExisting(rest)));
  };
  const origin = "refs/remotes/origin/";
  return probe(git, ["symbolic-ref", "--quiet", `${origin}HEAD`]).andThen((ref) => {
    if (ref?.startsWith(origin)) return okAsync(ref.slice(origin.length));
    return git.raw(["config", "init.defaultBranch"]).andThen((c) => firstExisting([...lines(c.stdout).map((l) => l.trim()), "main", "master"]));
  });
}

function log(git: GitInvoker, from: string | null, to: string, paths?: readonly string[]): ResultAsync<readonly CommitInfo[], ExecFault> {
  if (paths !== undefined && paths.length === 0) return okAsync([]);
  const range = from === null ? [`${to}^{commit}`] : [`${to}^{commit}`, `^${from}^{commit}`];
  const args = ["--literal-pathspecs", "log", "-z", "--format=%H%n%B", "--end-of-options", ...range, "--", ...(paths ?? [])];
  return git.ok(args).map((out) =>
    out
      .split("\0")
      .filter((r) => r !== "")
      .map((record) => {
        const nl = record.indexOf("\n");
        return { id: record.slice(0, nl), message: record.slice(nl + 1).trimEnd() };
      }),
  );
}

/**
 * One `git log` over the whole range, every commit's paths and no commit line (`--format=`): `-c`
 * lists a merge's paths that differ from all its parents, `--root` a root commit's files whatever
 * `log.showRoot` says, `--no-renames` both paths of a rename, and `diff.relative` off keeps the paths
 * from the top of the working tree in a directory below it.
 */
function changedPaths(git: GitInvoker, from: string, to: string): ResultAsync<readonly string[], ExecFault> {
  const args = [
    "-c",
    "diff.relative=false",
    "log",
    "-z",
    "--format=",
    "--name-only",
    "-c",
    "--root",
    "--no-renames",
    "--no-ext-diff",
    "--end-of-options",
    // Peeled to commits: a negative that names a blob or a tree would be dropped without a word,
    // and the range be the whole history.
    `${to}^{commit}`,
    `^${from}^{commit}`,
    "--",
  ];
  return git.ok(args).map((out) => [...new Set(out.split("\0").filter((p) => p !== ""))]);
}
