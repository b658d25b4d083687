// Commits git stores but cannot check out as written, made with system git's plumbing: a link
// whose target is empty, an empty subtree, a subtree of empty trees. `--ref` must judge them as the
// files a checkout (and the kernel) would give, or refuse, never judge the tree object as written.
import { execFileSync } from "node:child_process";
import * as nodeFs from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { commitSpec, git, scratchDir } from "../../test/support/test-fixtures.js";
import { checkTree } from "../core/check.js";
import { parseAssumptions } from "../core/parse.js";
import { nodeTree } from "../node/tree.js";
import type { TreeReader } from "../tree.js";
import { gitTree } from "./git.js";

const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

/** System git with `input` on its standard input (plumbing that needs no identity). */
function withInput(dir: string, input: string, ...args: string[]): string {
  return execFileSync("git", ["-C", dir, ...args], { input, encoding: "utf8" }).trim();
}

/** A repository whose `main` holds `f` (`hi`) and the entries `extra` (ls-tree lines) that `mktree` adds. */
async function crafted(extra: (empty: { blob: string; tree: string }, dir: string) => string): Promise<string> {
  const dir = join(await scratchDir("decay-checkout-"), "r");
  commitSpec(dir, { files: { f: "hi\n" }, links: {} });
  const empty = { blob: withInput(dir, "", "hash-object", "-w", "--stdin"), tree: withInput(dir, "", "mktree") };
  const tree = withInput(dir, `${git(dir, "ls-tree", "HEAD")}\n${extra(empty, dir)}\n`, "mktree");
  git(dir, "update-ref", "refs/heads/main", git(dir, "commit-tree", tree, "-m", "crafted"));
  return dir;
}

// One row at a time: each row's status, or its fault's code.
async function each(tree: TreeReader, rows: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const row of rows) {
    const got = await checkTree({ tree, assumptions: parseAssumptions(`${row}\n`)._unsafeUnwrap() });
    out.push(got.isOk() ? (got.value.rows[0]?.status ?? "none") : got.error.code);
  }
  return out;
}

describe("a commit is judged as its checkout", () => {
  test("a link with an empty target is dangling, as the kernel has it (ENOENT), never the link's own directory", async () => {
    const dir = await crafted((empty) => `120000 blob ${empty.blob}\tl`);
    expect(git(dir, "cat-file", "-s", "HEAD:l")).toBe("0");
    const rows = ["exists\tl", "absent\tl", "exists\tl/", "exists\tl/f", "absent\tl/f", "contains\tl/f\thi", "lacks\tl/f\thi", "absent\tL/f"];
    const commit = await each(gitTree({ fs: nodeFs, dir, ref: "HEAD" }), rows);
    // The kernel's answer for a link that leads nowhere: a dangling link on disk.
    const disk = join(dir, "..", "disk");
    nodeFs.mkdirSync(disk);
    nodeFs.writeFileSync(join(disk, "f"), "hi\n");
    nodeFs.symlinkSync("nowhere", join(disk, "l"));
    expect(commit).toEqual(await each(nodeTree(disk), rows));
    expect(commit).toEqual(["hold", "diverge", "diverge", "diverge", "hold", "diverge", "diverge", "diverge"]);
    // The adapter alone, for a path handed to it through the link: not found, as ENOENT.
    const tree = gitTree({ fs: nodeFs, dir, ref: "HEAD" });
    expect((await tree.readLink("l"))._unsafeUnwrap()).toBe("");
    expect((await tree.read("l/f", 100))._unsafeUnwrapErr().code).toBe("tree-not-found");
    expect((await tree.list("l/"))._unsafeUnwrapErr().code).toBe("tree-not-found");
  });

  test("an empty subtree is nothing there, as a clone makes no directory for it", async () => {
    const dir = await crafted((empty) => `040000 tree ${empty.tree}\tempty`);
    expect(git(dir, "ls-tree", "HEAD", "empty")).toContain(EMPTY_TREE);
    const clone = join(dir, "..", "clone");
    git(join(dir, ".."), "clone", "-q", dir, clone);
    expect(nodeFs.existsSync(join(clone, "empty"))).toBe(false);
    const rows = ["exists\tempty/", "exists\tempty", "absent\tempty", "absent\tempty/", "absent\tEMPTY", "absent\tempty/x", "exists\tf"];
    const commit = await each(gitTree({ fs: nodeFs, dir, ref: "HEAD" }), rows);
    expect(commit).toEqual(await each(nodeTree(clone), rows));
    expect(commit).toEqual(["diverge", "diverge", "hold", "hold", "hold", "hold", "hold"]);
    expect((await gitTree({ fs: nodeFs, dir, ref: "HEAD" }).list(""))._unsafeUnwrap().map((e) => e.name)).toEqual(["f"]);
  });

  test("a subtree holding only empty trees is refused where the gate looks, never taken as a directory", async () => {
    const dir = await crafted((empty, at) => `040000 tree ${withInput(at, `040000 tree ${empty.tree}\tb\n`, "mktree")}\tnest`);
    const clone = join(dir, "..", "clone");
    git(join(dir, ".."), "clone", "-q", dir, clone);
    expect(nodeFs.existsSync(join(clone, "nest"))).toBe(false);
    const commit = await each(gitTree({ fs: nodeFs, dir, ref: "HEAD" }), ["exists\tnest/", "absent\tnest", "absent\tNEST", "absent\tnest/b", "exists\tf"]);
    expect(commit).toEqual(["tree-io", "tree-io", "tree-io", "tree-io", "hold"]);
  });
});
