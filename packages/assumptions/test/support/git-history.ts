// Test-only: a small real history made with system git, and system git as the independent oracle
// of which commit a ref names and what its root tree holds. Never exported from an entry.
import { execFileSync } from "node:child_process";
import * as nodeFs from "node:fs";
import { join } from "node:path";
import type { DirEntry } from "../../src/tree.js";
import { commitSpec, git } from "./test-fixtures.js";

/** The commits of `makeHistory`, each with a different root listing. */
export interface History {
  readonly dir: string;
  /** c1 (a) ← c2 (a b, tag v1) ← merge (a b s, tag lw) ← c4 (a b d s); side: c1 ← c3 (a s). */
  readonly c1: string;
  readonly c2: string;
  readonly c3: string;
  readonly merge: string;
  readonly c4: string;
}

function commitFile(dir: string, name: string): string {
  nodeFs.writeFileSync(join(dir, name), `${name}\n`);
  git(dir, "add", name);
  git(dir, "commit", "-q", "-m", `add ${name}`);
  return git(dir, "rev-parse", "HEAD");
}

/**
 * Makes, in `dir`, main: c1 ← c2 ← merge ← c4 where merge's second parent is side's c3 (on c1);
 * annotated tag `v1` on c2, `v1n` an annotated tag of `v1`, lightweight `lw` on the merge,
 * `treetag` on c4's tree. HEAD is main at c4.
 */
export function makeHistory(dir: string): History {
  commitSpec(dir, { files: { "a.txt": "a\n" }, links: {} });
  const c1 = git(dir, "rev-parse", "HEAD");
  const c2 = commitFile(dir, "b.txt");
  git(dir, "tag", "-a", "-m", "release", "v1");
  git(dir, "-c", "advice.nestedTag=false", "tag", "-a", "-m", "nested", "v1n", "v1");
  git(dir, "checkout", "-q", "-b", "side", c1);
  const c3 = commitFile(dir, "s.txt");
  git(dir, "checkout", "-q", "main");
  git(dir, "merge", "-q", "--no-ff", "-m", "merge side", "side");
  const merge = git(dir, "rev-parse", "HEAD");
  git(dir, "tag", "lw");
  const c4 = commitFile(dir, "d.txt");
  git(dir, "tag", "treetag", "HEAD^{tree}");
  return { dir, c1, c2, c3, merge, c4 };
}

/** The commit system git says `ref` names (`git rev-parse --verify -q REF^{commit}`), or undefined. */
export function gitSays(dir: string, ref: string): string | undefined {
  const args = ["-C", dir, "rev-parse", "--verify", "-q", "--end-of-options", `${ref}^{commit}`];
  const env = { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" };
  try {
    // stderr is dropped: git explains each refusal there, and the caller only needs "none".
    return execFileSync("git", args, { env, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return undefined;
  }
}

const TYPES: Record<string, DirEntry["type"]> = { "040000": "directory", "120000": "symlink", "160000": "submodule" };

/** The root entries of `commit` as `git ls-tree` lists them, sorted by name. */
export function lsTree(dir: string, commit: string): DirEntry[] {
  return git(dir, "ls-tree", commit)
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => {
      const [meta = "", name = ""] = line.split("\t");
      const mode = meta.split(" ")[0] ?? "";
      return { name, type: TYPES[mode] ?? (mode.startsWith("100") ? "file" : "other") };
    })
    .sort((a, b) => (a.name < b.name ? -1 : 1));
}

/** Every object id in the repository (loose and packed). */
export function allObjects(dir: string): string[] {
  return git(dir, "cat-file", "--batch-all-objects", "--batch-check=%(objectname)").split("\n");
}
