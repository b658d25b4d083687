// The working tree and the index through isomorphic-git: what is dirty, committing it all, undoing a
// range, and setting changes aside as `git stash --include-untracked` does. Runtime-neutral.
import { add, checkout, commit, currentBranch, getConfig, isDescendent, remove, resolveRef, statusMatrix } from "isomorphic-git";
import { mustCommit, type Repo } from "./objects.js";

/** Who commits: the repository's `user.name` and `user.email`. */
export interface Identity {
  readonly name: string;
  readonly email: string;
}

/** One row of isomorphic-git's status matrix. */
export type Row = [path: string, head: number, workdir: number, stage: number];

const gitdirOf = (r: Repo) => r.gitdir ?? `${r.dir}/.git`;

/** The paths `git status` would name: every row of the status matrix but the unchanged ones; ignored files are never in it. */
export async function dirtyPaths(r: Repo): Promise<string[]> {
  return (await rows(r)).filter(([, h, w, s]) => !(h === 1 && w === 1 && s === 1)).map(([path]) => path);
}

/** The status matrix: `[path, head, workdir, stage]` per path (isomorphic-git's codes). */
export const rows = async (r: Repo): Promise<Row[]> => (await statusMatrix(r)) as Row[];

/**
 * The identity in the repository's config, or an error naming what is missing there: isomorphic-git
 * reads `<gitdir>/config` alone, never `~/.gitconfig`.
 */
export async function identity(r: Repo): Promise<Identity> {
  const [name, email] = await Promise.all(["user.name", "user.email"].map((path) => getConfig({ ...r, path })));
  const missing = [...(typeof name === "string" && name !== "" ? [] : ["user.name"]), ...(typeof email === "string" && email !== "" ? [] : ["user.email"])];
  if (missing.length > 0) {
    throw new Error(
      `no ${missing.join(" and no ")} in ${gitdirOf(r)}/config, the only config isomorphic-git reads (not ~/.gitconfig): set ${missing.length > 1 ? "them" : "it"} with git config ${missing[0]} …`,
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
export async function commitAll(r: Repo, message: string): Promise<string | null> {
  const all = await rows(r);
  // After staging, the index is the working tree: it differs from HEAD where the file changed, appeared or went.
  const changes = all.some(([, h, w]) => w === 2 || (h === 1 && w === 0));
  const who = changes ? await identity(r) : undefined;
  const text = cleanMessage(message);
  const gone = all.filter(([, , w, s]) => w === 0 && s !== 0).map(([p]) => p);
  const staged = all.filter(([, , w, s]) => w !== 0 && !(w === s && s !== 3)).map(([p]) => p);
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
export async function revertRange(r: Repo, from: string, to: string, message: string): Promise<string> {
  const head = await resolveRef({ ...r, ref: "HEAD" });
  if (head !== to) throw new Error(`HEAD is ${head}, not ${to}`);
  const start = await mustCommit(r, from);
  const inHistory = start.oid === head || (await isDescendent({ ...r, oid: head, ancestor: start.oid, depth: -1 }));
  if (!inHistory) throw new Error(`${from} is not in HEAD's history`);
  const who = await identity(r);
  const id = await commitTree(r, who, cleanMessage(message), start.tree, [head], true);
  await resetHard(r, (await currentBranch(r)) || id);
  return id;
}
