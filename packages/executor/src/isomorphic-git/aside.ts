// Setting uncommitted work aside as `git stash push --include-untracked` stores it, so that
// `git stash pop` (or `list`, `show`) restores it: one commit of the working tree on HEAD, the index
// and the untracked files as its second and third parents, `refs/stash` and its log pointing at it.
import { concatBytes } from "@decay/portable";
import { currentBranch, resolveRef, STAGE, walk, writeBlob, writeRef, writeTree } from "isomorphic-git";
import { noFileDirectorySwap } from "./guard.js";
import { commitAt, type Leaf, type Repo } from "./objects.js";
import { cleanMessage, commitTree, type Identity, identity, modeOfStat, noLinkRewrite, resetHard, sameEverywhere, status, workingMode } from "./worktree.js";

type TreeEntryIn = { mode: string; path: string; oid: string; type: "blob" | "tree" | "commit" };

/** A tree holding `files` (path → leaf), its subtrees written as needed. */
async function treeOf(r: Repo, files: ReadonlyMap<string, Leaf>): Promise<string> {
  const here: TreeEntryIn[] = [];
  const below = new Map<string, Map<string, Leaf>>();
  for (const [path, leaf] of files) {
    const slash = path.indexOf("/");
    if (slash === -1) here.push({ ...leaf, path, type: leaf.mode === "160000" ? "commit" : "blob" });
    else {
      const dir = path.slice(0, slash);
      const inner = below.get(dir) ?? new Map<string, Leaf>();
      below.set(dir, inner.set(path.slice(slash + 1), leaf));
    }
  }
  for (const [dir, inner] of below) here.push({ mode: "040000", path: dir, oid: await treeOf(r, inner), type: "tree" });
  return writeTree({ ...r, tree: here });
}

const encoder = new TextEncoder();
const bytesOf = (data: Uint8Array | string) => (typeof data === "string" ? encoder.encode(data) : data);

/** The working tree's version of `path` written as a blob: a link's target, else the file's bytes and executable bit. */
async function blobOfFile(r: Repo, path: string): Promise<Leaf> {
  const full = `${r.dir}/${path}`;
  const st = await r.fs.promises.lstat(full);
  const bytes = bytesOf(st.isSymbolicLink() ? await r.fs.promises.readlink(full) : await r.fs.promises.readFile(full));
  const oid = await writeBlob({ ...r, blob: bytes });
  return { oid, mode: modeOfStat(st) };
}

/** Every entry of the index, as leaves. */
async function indexLeaves(r: Repo): Promise<Map<string, Leaf>> {
  const out = new Map<string, Leaf>();
  await walk({
    fs: r.fs,
    dir: r.dir,
    gitdir: r.gitdir,
    cache: r.cache,
    trees: [STAGE()],
    map: async (path, [e]) => {
      if (e === null || e === undefined || (await e.type()) === "tree") return true;
      out.set(path, { mode: ((await e.mode()) as number).toString(8), oid: (await e.oid()) as string });
      return true;
    },
  });
  return out;
}

/** git's offset of the local time zone, `+0200`. */
function zone(): string {
  const minutes = -new Date().getTimezoneOffset();
  const abs = Math.abs(minutes);
  return `${minutes < 0 ? "-" : "+"}${String(Math.floor(abs / 60)).padStart(2, "0")}${String(abs % 60).padStart(2, "0")}`;
}

/** Points `refs/stash` at `id` and adds its line to the stash's log, which `stash@{0}` reads. */
async function pushStash(r: Repo, who: Identity, id: string, subject: string): Promise<void> {
  const { gitdir } = r;
  const old = await resolveRef({ ...r, ref: "refs/stash" }).catch(() => "0".repeat(40));
  await writeRef({ ...r, ref: "refs/stash", value: id, force: true });
  const log = `${gitdir}/logs/refs/stash`;
  await r.fs.promises.mkdir(`${gitdir}/logs/refs`, { recursive: true });
  const before = await r.fs.promises.readFile(log).then(bytesOf, () => new Uint8Array());
  const line = `${old} ${id} ${who.name} <${who.email}> ${Math.floor(Date.now() / 1000)} ${zone()}\t${subject}\n`;
  const added = encoder.encode(line);
  await r.fs.promises.writeFile(log, concatBytes([before, added], before.length + added.length));
}

/** Removes untracked files once they are held, and the directories they leave empty. */
async function removeFiles(r: Repo, paths: readonly string[]): Promise<void> {
  const dirs = new Set<string>();
  for (const path of paths) {
    await r.fs.promises.unlink(`${r.dir}/${path}`);
    const parts = path.split("/");
    for (let n = parts.length - 1; n > 0; n -= 1) dirs.add(parts.slice(0, n).join("/"));
  }
  const deepestFirst = [...dirs].sort((x, y) => y.split("/").length - x.split("/").length);
  for (const dir of deepestFirst) await r.fs.promises.rmdir(`${r.dir}/${dir}`).catch(() => undefined);
}

/** `Git.setAside`: the id of the stash commit holding every uncommitted change and untracked file; null when clean. */
export async function setAside(r: Repo, message: string, hasExcludes: boolean): Promise<string | null> {
  const st = await status(r, hasExcludes);
  const all = st.rows;
  if (all.every((row) => sameEverywhere(row) && !st.modes.has(row[0]))) return null;
  const who = await identity(r);
  const head = await commitAt(r, await resolveRef({ ...r, ref: "HEAD" }));
  noFileDirectorySwap([...st.head.keys(), ...all.filter(([, , w]) => w !== 0).map(([p]) => p)]);
  await noLinkRewrite(r, st, []);
  const branch = (await currentBranch(r)) || undefined;
  const on = branch ?? "(no branch)";
  const where = `${on}: ${head.oid.slice(0, 7)} ${head.message.split("\n")[0] ?? ""}`;
  const index = await commitTree(r, who, `index on ${where}\n`, await treeOf(r, await indexLeaves(r)), [head.oid], false);
  const untracked = all.filter(([, h, w, s]) => h === 0 && s === 0 && w !== 0).map(([p]) => p);
  const parents = [head.oid, index];
  if (untracked.length > 0) {
    const files = new Map<string, Leaf>();
    for (const p of untracked) files.set(p, await blobOfFile(r, p));
    parents.push(await commitTree(r, who, `untracked files on ${where}\n`, await treeOf(r, files), [], false));
  }
  // The working tree: every tracked path (in HEAD or the index) as its file is now.
  const work = new Map<string, Leaf>();
  const modeOnly: string[] = [];
  for (const [path, h, w, s] of all) {
    if ((h === 0 && s === 0) || w === 0) continue;
    // An unchanged file keeps HEAD's blob, with the mode it has now.
    const same = w === 1 ? st.head.get(path) : undefined;
    const mode = same === undefined ? undefined : await workingMode(r, path);
    work.set(path, same === undefined || mode === undefined ? await blobOfFile(r, path) : { oid: same.oid, mode });
    // isomorphic-git's checkout leaves a file of the same content as it is: one whose mode changed is written anew.
    if (mode !== undefined && mode !== same?.mode) modeOnly.push(path);
  }
  const text = cleanMessage(`On ${on}: ${message}`);
  const id = await commitTree(r, who, text, await treeOf(r, work), parents, false);
  await pushStash(r, who, id, text.split("\n")[0] ?? "");
  for (const path of modeOnly) await r.fs.promises.unlink(`${r.dir}/${path}`);
  await resetHard(r, branch ?? head.oid);
  await removeFiles(r, untracked);
  return id;
}
