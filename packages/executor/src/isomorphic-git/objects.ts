// Reading a repository's objects with isomorphic-git: commits by name, trees listed, walked and
// compared. Runtime-neutral: every byte goes through the fs the caller passed.
import { expandOid, type PromiseFsClient, readCommit, readObject, resolveRef, type TreeEntry } from "isomorphic-git";

/** The fs calls the Git adapter makes beyond what isomorphic-git reads and writes with: node:fs and memfs both fit. */
export type IsomorphicGitFs = PromiseFsClient & {
  readonly promises: {
    /** Reads a file's bytes (a working-tree file set aside, the stash's log). */
    readFile(path: string): Promise<Uint8Array | string>;
    writeFile(path: string, data: string | Uint8Array): Promise<unknown>;
    mkdir(path: string, options: { recursive: true }): Promise<unknown>;
    /** Removes an untracked file once it is set aside, then the directories it leaves empty (`rmdir`). */
    unlink(path: string): Promise<unknown>;
    rmdir(path: string): Promise<unknown>;
    /** Tells a link from a file, and an executable file by its mode's bits. */
    lstat(path: string): Promise<{ isSymbolicLink(): boolean; readonly mode: number }>;
    /** Reads what a link points to, as a string: an untracked or changed link set aside. */
    readlink(path: string): Promise<string>;
  };
};

/** One repository as isomorphic-git is told about it, with a cache for one operation. */
export interface Repo {
  readonly fs: IsomorphicGitFs;
  readonly dir: string;
  readonly gitdir: string;
  readonly cache: object;
}

/** A file, link or gitlink of a tree: its mode (`100644`, `100755`, `120000`, `160000`) and object id. */
export interface Leaf {
  readonly mode: string;
  readonly oid: string;
}

/** One path whose leaf differs between two trees; a side without it is undefined. */
export interface LeafChange {
  readonly path: string;
  readonly before?: Leaf;
  readonly after?: Leaf;
}

/** A commit as the walks need it. */
export interface CommitNode {
  readonly oid: string;
  readonly tree: string;
  readonly parents: readonly string[];
  readonly message: string;
  /** Committer time, seconds since the epoch. */
  readonly time: number;
}

const FULL_ID = /^[0-9a-f]{40}$/;
const SHORT_ID = /^[0-9a-f]{4,39}$/;

/** The commit `name` names (a full or short id, HEAD, a branch, a tag or a full ref, tags peeled); null when it names none. */
export async function commitNamed(r: Repo, name: string): Promise<CommitNode | null> {
  let oid: string | undefined;
  if (FULL_ID.test(name)) oid = name;
  else {
    oid = await resolveRef({ ...r, ref: name }).catch(() => undefined);
    if (oid === undefined && SHORT_ID.test(name)) oid = await expandOid({ ...r, oid: name }).catch(() => undefined);
  }
  if (oid === undefined) return null;
  return commitAt(r, oid).catch((e: unknown) => {
    if (FULL_ID.test(name)) throw e;
    return null;
  });
}

/** The commit `oid` (a tag is peeled); a missing or corrupt object throws isomorphic-git's error. */
export async function commitAt(r: Repo, oid: string): Promise<CommitNode> {
  const read = await readCommit({ ...r, oid });
  const c = read.commit;
  return { oid: read.oid, tree: c.tree, parents: c.parent, message: c.message, time: c.committer.timestamp };
}

/** The commit `name` names, or an error that says it names none. */
export async function mustCommit(r: Repo, name: string): Promise<CommitNode> {
  const c = await commitNamed(r, name);
  if (c === null) throw new Error(`${name} is not a commit`);
  return c;
}

const utf8 = new TextDecoder();
const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");

/**
 * The entries of the tree `oid`, parsed here: isomorphic-git's `readTree` refuses a name git takes
 * on Linux (one holding a backslash), which would make every read of the history fail.
 */
export async function entries(r: Repo, oid: string): Promise<readonly TreeEntry[]> {
  const read = await readObject({ ...r, oid, format: "content" });
  if (read.type !== "tree") throw new Error(`${oid} is a ${read.type}, not a tree`);
  const bytes = read.object as Uint8Array;
  const out: TreeEntry[] = [];
  for (let at = 0; at < bytes.length; ) {
    const space = bytes.indexOf(0x20, at);
    const nul = bytes.indexOf(0, space);
    if (space < 0 || nul < 0 || nul + 21 > bytes.length) throw new Error(`the tree ${oid} is corrupt`);
    const raw = utf8.decode(bytes.subarray(at, space));
    const mode = raw === "40000" ? "040000" : raw === "100755" || raw === "120000" || raw === "160000" ? raw : "100644";
    const type = mode === "040000" ? "tree" : mode === "160000" ? "commit" : "blob";
    out.push({ mode, path: utf8.decode(bytes.subarray(space + 1, nul)), oid: hex(bytes.subarray(nul + 1, nul + 21)), type });
    at = nul + 21;
  }
  return out;
}

const join = (base: string, name: string) => (base === "" ? name : `${base}/${name}`);

/** git's order of tree entries: by name, a tree's name as if it ended in `/`; by code point (UTF-8 byte order). */
function key(e: TreeEntry): string {
  return e.type === "tree" ? `${e.path}/` : e.path;
}

function compareKeys(x: string, y: string): number {
  const a = [...x];
  const b = [...y];
  for (let i = 0; i < Math.min(a.length, b.length); i += 1) {
    const d = (a[i]?.codePointAt(0) ?? 0) - (b[i]?.codePointAt(0) ?? 0);
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

const leafOf = (e: TreeEntry | undefined): Leaf | undefined => (e === undefined || e.type === "tree" ? undefined : { mode: e.mode, oid: e.oid });

/**
 * Every leaf that differs between the trees `older` and `newer` (null: the empty tree), in git's
 * order; a path that is a file on one side and a directory on the other is a leaf removed or added
 * plus the leaves below the directory. Equal subtrees are never read.
 */
export async function diffTrees(r: Repo, older: string | null, newer: string | null, base = ""): Promise<LeafChange[]> {
  const [a, b] = await Promise.all([older === null ? [] : entries(r, older), newer === null ? [] : entries(r, newer)]);
  const byKey = new Map<string, [TreeEntry | undefined, TreeEntry | undefined]>();
  for (const e of a) byKey.set(key(e), [e, undefined]);
  for (const e of b) byKey.set(key(e), [byKey.get(key(e))?.[0], e]);
  const out: LeafChange[] = [];
  for (const k of [...byKey.keys()].sort(compareKeys)) {
    const [x, y] = byKey.get(k) ?? [];
    const path = join(base, (x ?? y)?.path ?? "");
    if (x?.type === "tree" || y?.type === "tree") {
      if (x?.oid !== y?.oid) out.push(...(await diffTrees(r, x?.oid ?? null, y?.oid ?? null, path)));
      continue;
    }
    if (x?.oid === y?.oid && x?.mode === y?.mode) continue;
    const before = leafOf(x);
    const after = leafOf(y);
    out.push({ path, ...(before ? { before } : {}), ...(after ? { after } : {}) });
  }
  return out;
}

/** Every leaf of the tree `oid` with its path, in git's order. */
export async function leaves(r: Repo, oid: string): Promise<(Leaf & { path: string })[]> {
  return (await diffTrees(r, null, oid)).map((c) => ({ path: c.path, ...(c.after as Leaf) }));
}

/** The entry at `path` (components split on `/`, a trailing `/` naming a directory) in the tree `oid`; undefined when none. */
export async function entryAt(r: Repo, oid: string, path: string): Promise<Leaf | undefined> {
  const parts = path.split("/");
  const wantsTree = parts.at(-1) === "" && parts.length > 1;
  if (wantsTree) parts.pop();
  let here: Leaf = { mode: "040000", oid };
  for (const name of parts) {
    if (here.mode !== "040000") return undefined;
    const found = (await entries(r, here.oid)).find((e) => e.path === name);
    if (found === undefined) return undefined;
    here = { mode: found.type === "tree" ? "040000" : found.mode, oid: found.oid };
  }
  return wantsTree && here.mode !== "040000" ? undefined : here;
}
