// The working tree and the index through isomorphic-git: what is dirty, committing it all, undoing a
// range, and setting changes aside as `git stash --include-untracked` does. Runtime-neutral.
import { add, checkout, commit, currentBranch, getConfig, isDescendent, remove, resolveRef, statusMatrix } from "isomorphic-git";
import { configFlag, noAttributes, noFileDirectorySwap, supportedIndex } from "./guard.js";
import { caseMismatch, type Listings, listingFs } from "./ignore-case.js";
import type { IndexFile } from "./index-file.js";
import { diffTrees, type Leaf, type LeafChange, leaves, mustCommit, type Repo } from "./objects.js";

/** Who commits: the repository's `user.name` and `user.email`. */
export interface Identity {
  readonly name: string;
  readonly email: string;
}

/** One row of isomorphic-git's status matrix. */
export type Row = [path: string, head: number, workdir: number, stage: number];

/** A row whose file is the same in HEAD, the working tree and the index (its mode aside: see `Status.modes`). */
export const sameEverywhere = ([, h, w, s]: Row): boolean => h === 1 && w === 1 && s === 1;

/** The working tree's state: isomorphic-git's status matrix and what it does not see. */
export interface Status {
  readonly rows: readonly Row[];
  /** Paths whose file's executable bit differs from the index's mode, or whose index mode differs from HEAD's. */
  readonly modes: ReadonlySet<string>;
  /** Index entries marked intent-to-add whose file is there. */
  readonly intentToAdd: ReadonlySet<string>;
  /** HEAD's files, links and gitlinks by path; none without a HEAD commit. */
  readonly head: ReadonlyMap<string, Leaf>;
}

/** The paths `git status` would name: every row of the status matrix but the unchanged ones, and mode changes; ignored files are never in it. */
export async function dirtyPaths(r: Repo, hasExcludes: boolean): Promise<string[]> {
  const st = await status(r, hasExcludes);
  return st.rows.filter((row) => !sameEverywhere(row) || st.modes.has(row[0])).map(([path]) => path);
}

/** The status matrix: `[path, head, workdir, stage]` per path (isomorphic-git's codes). */
export const rows = async (r: Repo): Promise<Row[]> => (await statusMatrix(r)) as Row[];

/** The status, once the repository holds nothing isomorphic-git would get wrong (see `supportedIndex`). */
export async function status(r: Repo, hasExcludes: boolean): Promise<Status> {
  const index = await supportedIndex(r, hasExcludes);
  const listings: Listings = new Map();
  const all = await rows({ ...r, fs: listingFs(r.fs, r.dir, listings) });
  const tracked = all.filter(([, h, , s]) => h !== 0 || s !== 0).map(([p]) => p);
  // With core.ignorecase git matches ignore rules regardless of case too, as isomorphic-git does.
  const blind = configFlag(await getConfig({ ...r, path: "core.ignorecase" })) === true;
  const odd = blind ? null : await caseMismatch(r.fs, r.dir, r.gitdir, listings, tracked);
  if (odd !== null) {
    throw new Error(
      `${odd} is ignored only when ignore rules match regardless of case, or only when they match case as written: isomorphic-git matches them regardless of case, git (core.ignorecase false) as written; use systemGit`,
    );
  }
  noAttributes(all.map(([p]) => p));
  const present = new Set(all.filter(([, , w]) => w !== 0).map(([p]) => p));
  const headId = await resolveRef({ ...r, ref: "HEAD" }).catch(() => null);
  const head = new Map(
    headId === null ? [] : (await leaves(r, (await mustCommit(r, headId)).tree)).map((l) => [l.path, { mode: l.mode, oid: l.oid }] as const),
  );
  return {
    rows: all,
    modes: await modeChanges(r, index, present, head),
    intentToAdd: new Set(index.entries.filter((e) => e.intentToAdd && present.has(e.path)).map((e) => e.path)),
    head,
  };
}

const regular = (mode: string | undefined) => mode === "100644" || mode === "100755";

/** The mode git records for a working file of this lstat (a link's, or a file's by its executable bit). */
export function modeOfStat(st: { isSymbolicLink(): boolean; readonly mode: number }): string {
  return st.isSymbolicLink() ? "120000" : st.mode & 0o111 ? "100755" : "100644";
}

/** The mode git records for the working file at `path` (see `modeOfStat`). */
export async function workingMode(r: Repo, path: string): Promise<string> {
  return modeOfStat(await r.fs.promises.lstat(`${r.dir}/${path}`));
}

/** Paths whose mode changed as git sees it where isomorphic-git compares ids alone. */
async function modeChanges(r: Repo, index: IndexFile, present: ReadonlySet<string>, head: ReadonlyMap<string, Leaf>): Promise<Set<string>> {
  const out = new Set<string>();
  // core.fileMode=false is refused before any status (`supportedIndex`): the bits always count here.
  for (const e of index.entries) {
    const before = head.get(e.path)?.mode;
    if (regular(before) && regular(e.mode) && before !== e.mode) out.add(e.path);
    else if (regular(e.mode) && present.has(e.path)) {
      const now = await workingMode(r, e.path);
      if (regular(now) && now !== e.mode) out.add(e.path);
    }
  }
  return out;
}

/**
 * The identity in the repository's config, or an error naming what is missing there: isomorphic-git
 * reads `<gitdir>/config` alone, never `~/.gitconfig`.
 */
export async function identity(r: Repo): Promise<Identity> {
  const [name, email] = await Promise.all(["user.name", "user.email"].map((path) => getConfig({ ...r, path })));
  const missing = [...(typeof name === "string" && name !== "" ? [] : ["user.name"]), ...(typeof email === "string" && email !== "" ? [] : ["user.email"])];
  if (missing.length > 0) {
    throw new Error(
      `no ${missing.join(" and no ")} in ${r.gitdir}/config, the only config isomorphic-git reads (not ~/.gitconfig): set ${missing.length > 1 ? "them" : "it"} with git config ${missing[0]} …`,
    );
  }
  return { name: name as string, email: email as string };
}

/** A message as `git commit --cleanup=whitespace` keeps it: trailing spaces, leading and trailing blank lines and repeated blank lines dropped. */
export function cleanMessage(message: string): string {
  const lines = message.split("\n").map((l) => l.replace(/[ \t\r\v\f]+$/, ""));
  const kept = lines.filter((l, i) => l !== "" || (i > 0 && lines[i - 1] !== ""));
  while (kept[0] === "") kept.shift();
  while (kept.at(-1) === "") kept.pop();
  if (kept.length === 0) throw new Error("the commit message is empty once its whitespace is cleaned up");
  return `${kept.join("\n")}\n`;
}

/** Writes a commit of `tree` on `parent`; `moveHead` moves the current branch (or a detached HEAD) to it. */
export async function commitTree(r: Repo, who: Identity, message: string, tree: string, parent: string[], moveHead: boolean): Promise<string> {
  return commit({ ...r, author: who, committer: who, message, tree, parent, noUpdateBranch: !moveHead });
}

/** `Git.commitAll`: stages every change (deletions and untracked files included) and commits; null when HEAD's tree would not change. */
export async function commitAll(r: Repo, message: string, hasExcludes: boolean): Promise<string | null> {
  const st = await status(r, hasExcludes);
  const all = st.rows;
  // After staging, the index is the working tree: it differs from HEAD where the file changed, appeared or went,
  // or changed mode; an intent-to-add entry is only a promise, whatever its id.
  const changes = all.some(([, h, w]) => w === 2 || (h === 1 && w === 0)) || st.modes.size > 0 || st.intentToAdd.size > 0;
  const who = changes ? await identity(r) : undefined;
  const text = cleanMessage(message);
  const gone = all.filter(([, , w, s]) => w === 0 && s !== 0).map(([p]) => p);
  const staged = all.filter(([p, , w, s]) => w !== 0 && (!(w === s && s !== 3) || st.modes.has(p) || st.intentToAdd.has(p))).map(([p]) => p);
  if (gone.length > 0) await remove({ ...r, filepath: gone });
  if (staged.length > 0) await add({ ...r, filepath: staged });
  if (who === undefined) return null;
  return commit({ ...r, author: who, committer: who, message: text });
}

/** Makes the index and the tracked files HEAD's (`ref`: the branch, or HEAD's id when detached), leaving HEAD where it is. */
export async function resetHard(r: Repo, ref: string): Promise<void> {
  await checkout({ ...r, ref, force: true, noUpdateHead: true });
}

/**
 * `Git.revert`: one commit on HEAD whose tree is `from`'s, then the index and the files made that
 * tree. Refused, with nothing changed, when HEAD is not `to` or `from` is no commit in its history.
 */
export async function revertRange(r: Repo, from: string, to: string, message: string, hasExcludes: boolean): Promise<string> {
  const head = await resolveRef({ ...r, ref: "HEAD" });
  if (head !== to) throw new Error(`HEAD is ${head}, not ${to}`);
  const start = await mustCommit(r, from);
  const inHistory = start.oid === head || (await isDescendent({ ...r, oid: head, ancestor: start.oid, depth: -1 }));
  if (!inHistory) throw new Error(`${from} is not in HEAD's history`);
  const st = await status(r, hasExcludes);
  // A reset over uncommitted changes would keep some (an exec bit) and lose others: git's revert
  // refuses them too.
  const changed = st.rows.find((row) => !(row[1] === 0 && row[3] === 0) && (!sameEverywhere(row) || st.modes.has(row[0])));
  if (changed !== undefined) throw new Error(`revert needs no uncommitted change to a tracked file, and ${changed[0]} has one: commit or set it aside first`);
  const changes = await diffTrees(r, (await mustCommit(r, head)).tree, start.tree);
  noFileDirectorySwap(changes.map((c) => c.path));
  await noLinkRewrite(r, st, changes);
  const who = await identity(r);
  const id = await commitTree(r, who, cleanMessage(message), start.tree, [head], true);
  await resetHard(r, (await currentBranch(r)) || id);
  return id;
}

/**
 * Refuses, before anything is written, a checkout from HEAD's tree by `changes` (none: a reset of
 * the working tree) that would rewrite a symbolic link: isomorphic-git's checkout fails half-way
 * there (EEXIST), after files are written.
 */
export async function noLinkRewrite(r: Repo, st: Status, changes: readonly LeafChange[]): Promise<void> {
  const links = changes.filter((c) => c.before?.mode === "120000" || c.after?.mode === "120000");
  const dirty = [];
  for (const row of st.rows) {
    const [p, h, w, s] = row;
    if (sameEverywhere(row) || (h === 0 && s === 0) || w === 0) continue;
    if ((await workingMode(r, p)) === "120000") dirty.push(p);
  }
  for (const row of st.rows) if (!sameEverywhere(row) && st.head.get(row[0])?.mode === "120000") dirty.push(row[0]);
  const named = [...links.map((c) => c.path), ...dirty];
  if (named.length > 0) {
    throw new Error(`rewriting a symbolic link (${named[0]}) is not supported by isomorphicGit (its checkout fails half-way there): use systemGit`);
  }
}

/**
 * `Git.switchBranch` to an existing branch, refused before anything is written when the index holds
 * staged changes (isomorphic-git's checkout drops a staged new file) or a symbolic link would be rewritten.
 */
export async function switchTo(r: Repo, name: string, hasExcludes: boolean): Promise<void> {
  const st = await status(r, hasExcludes);
  const staged = st.rows.find(([p, h, , s]) => s !== h || st.intentToAdd.has(p) || st.modes.has(p));
  if (staged !== undefined) {
    throw new Error(
      `switching with staged changes (${staged[0]}) is not supported by isomorphicGit (its checkout drops a staged file): commit them, or use systemGit`,
    );
  }
  const headId = await resolveRef({ ...r, ref: "HEAD" }).catch(() => null);
  if (headId !== null) {
    const changes = await diffTrees(r, (await mustCommit(r, headId)).tree, (await mustCommit(r, `refs/heads/${name}`)).tree);
    noFileDirectorySwap([...changes.map((c) => c.path), ...st.rows.filter((row) => !sameEverywhere(row)).map(([p]) => p)]);
    await noLinkRewrite(r, st, changes);
  }
  await checkout({ ...r, ref: name });
}
