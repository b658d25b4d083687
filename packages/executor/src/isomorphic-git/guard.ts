// What isomorphic-git would get wrong in silence on the working side, refused before anything is
// read into an answer or written: each fault names the feature and says to use systemGit.
// Runtime-neutral.
import { getConfig } from "isomorphic-git";
import { type IndexFile, readIndex } from "./index-file.js";
import type { Repo } from "./objects.js";

const refuse = (feature: string, effect: string): never => {
  throw new Error(`${feature} is not supported by isomorphicGit (${effect}): use systemGit`);
};

const isAttributes = (path: string) => path === ".gitattributes" || path.endsWith("/.gitattributes");

const exists = (r: Repo, path: string) =>
  r.fs.promises.lstat(path).then(
    () => true,
    () => false,
  );

/** What git leaves in the git directory while an operation is under way. */
const IN_PROGRESS: readonly (readonly [string, string])[] = [
  ["MERGE_HEAD", "a merge in progress (MERGE_HEAD)"],
  ["CHERRY_PICK_HEAD", "a cherry-pick in progress (CHERRY_PICK_HEAD)"],
  ["REVERT_HEAD", "a revert in progress (REVERT_HEAD)"],
  ["rebase-merge", "a rebase in progress (rebase-merge)"],
  ["rebase-apply", "a rebase or am in progress (rebase-apply)"],
];

/**
 * Refuses a change over `paths` (every path a checkout or reset would touch) where a path is a file
 * on one side and a directory on the other: isomorphic-git's checkout then loses the file, or
 * fails after it has written.
 */
export function noFileDirectorySwap(paths: Iterable<string>): void {
  const all = new Set(paths);
  for (const p of all) {
    for (let i = p.lastIndexOf("/"); i > 0; i = p.lastIndexOf("/", i - 1)) {
      const parent = p.slice(0, i);
      if (all.has(parent))
        refuse(`a path that is a file on one side and a directory on the other (${parent})`, "its checkout loses the file or stops half-way");
    }
  }
}

/** A git config boolean read as git reads it: `true`/`yes`/`on`/`1` (and a bare key) hold, `false`/`no`/`off`/`0` do not; anything else, or none, is undefined. */
export function configFlag(v: unknown): boolean | undefined {
  if (typeof v === "boolean") return v;
  if (typeof v !== "string") return undefined;
  if (/^(true|yes|on|1)$/i.test(v.trim())) return true;
  return /^(false|no|off|0)$/i.test(v.trim()) ? false : undefined;
}

/**
 * The index of `r`, once the repository is known to hold nothing the working-side methods would get
 * wrong: a sparse checkout or skip-worktree or assume-unchanged entries, an index of version 4 or a
 * split index, attributes (`.gitattributes`, `info/attributes`, `core.attributesFile`), submodules,
 * `core.fileMode=false`, a merge, cherry-pick, revert or rebase under way, or a `core.excludesFile`
 * the adapter was not given the rules of (`hasExcludes`).
 */
export async function supportedIndex(r: Repo, hasExcludes: boolean): Promise<IndexFile> {
  const { gitdir } = r;
  const config = async (path: string): Promise<unknown> => getConfig({ ...r, path });
  if (configFlag(await config("core.sparseCheckout")) === true)
    refuse("a sparse checkout (core.sparseCheckout)", "files outside the sparse set would look deleted");
  if (await config("core.attributesFile")) refuse("core.attributesFile", "attributes change what git stores and compares");
  if (await exists(r, `${gitdir}/info/attributes`)) refuse(`${gitdir}/info/attributes`, "attributes change what git stores and compares");
  if (!hasExcludes && (await config("core.excludesFile"))) {
    refuse("core.excludesFile", "the files it ignores would be seen as untracked; pass its rules as the excludes option");
  }
  if (configFlag(await config("core.fileMode")) === false) refuse("core.fileMode=false", "isomorphic-git would commit the executable bit it finds on disk");
  for (const [file, what] of IN_PROGRESS) if (await exists(r, `${gitdir}/${file}`)) refuse(what, "a commit would leave it half done");
  const index = await readIndex(r);
  if (index.version === 4) refuse("an index of version 4 (index.version=4, feature.manyFiles)", "isomorphic-git cannot read it");
  if (index.extensions.includes("link")) refuse("a split index (core.splitIndex)", "isomorphic-git reads only part of it");
  if (index.extensions.includes("sdir")) refuse("a sparse index", "isomorphic-git cannot read it");
  for (const e of index.entries) {
    if (e.skipWorktree) refuse(`the skip-worktree bit (${e.path}; sparse checkout)`, "the file would look deleted or changed");
    if (e.assumeUnchanged) refuse(`the assume-unchanged bit (${e.path})`, "the file would be committed although git would not look at it");
    if (e.mode === "160000") refuse(`a submodule (${e.path})`, "isomorphic-git does not see a submodule's commit change");
    if (isAttributes(e.path)) refuse(`a .gitattributes file (${e.path})`, "attributes change what git stores and compares");
  }
  return index;
}

/** Refuses an untracked `.gitattributes` among the paths a status names. */
export function noAttributes(paths: Iterable<string>): void {
  for (const p of paths) if (isAttributes(p)) refuse(`a .gitattributes file (${p})`, "attributes change what git stores and compares");
}
