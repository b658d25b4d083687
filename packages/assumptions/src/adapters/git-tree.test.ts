// Tree objects git itself would not read, or would read differently, are faults naming the tree,
// never a listing: each case is written with `git hash-object --literally` into a real repository
// and git's own answer is checked first.
import { execFileSync, spawnSync } from "node:child_process";
import * as nodeFs from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { parseTree } from "./git-tree.js";
import { gitTree } from "./git.js";
import { commitSpec, git, scratchDir } from "../../test/support/test-fixtures.js";

/** One raw tree entry: `MODE NAME\0` and the 20 bytes of `oid`. */
const entry = (mode: string, name: string | Buffer, oid: string) =>
  Buffer.concat([Buffer.from(`${mode} `), Buffer.isBuffer(name) ? name : Buffer.from(name), Buffer.from([0]), Buffer.from(oid, "hex")]);

/** A repository whose `main` is a commit of the tree `body(blob, tree)` (blob: `a\n`; tree: one holding it). */
async function repoWithTree(body: (blob: string, tree: string) => Buffer): Promise<{ dir: string; tree: string }> {
  const dir = join(await scratchDir(), "r");
  commitSpec(dir, { files: { "a.txt": "a\n" }, links: {} });
  const raw = body(git(dir, "rev-parse", "HEAD:a.txt"), git(dir, "rev-parse", "HEAD^{tree}"));
  const tree = execFileSync("git", ["-C", dir, "hash-object", "-t", "tree", "--literally", "-w", "--stdin"], { input: raw, encoding: "utf8" }).trim();
  git(dir, "update-ref", "refs/heads/main", git(dir, "commit-tree", tree, "-m", "crafted"));
  return { dir, tree };
}

/** What `git fsck` writes to standard error (it exits 0 on warnings). */
function fsck(dir: string): string {
  const run = spawnSync("git", ["-C", dir, "fsck", "--no-dangling"], { encoding: "utf8" });
  expect(run.status).toBe(0);
  return run.stderr;
}

/** What system git says when asked for `BRANCH:name`: the entry's id, or undefined when it finds none. */
function gitFinds(dir: string, name: string, branch = "main"): string | undefined {
  try {
    return execFileSync("git", ["-C", dir, "rev-parse", "--verify", "-q", `${branch}:${name}`], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
  } catch {
    return undefined;
  }
}

describe("trees git refuses or reads otherwise are faults naming the tree", () => {
  test.each([
    ["a mode that is a property of every object (constructor)", (b: string) => Buffer.concat([entry("100644", "a", b), entry("constructor", "b", b)])],
    ["a mode that is a property of every object (__proto__)", (b: string) => entry("__proto__", "b", b)],
    ["an empty name", (b: string) => Buffer.concat([entry("100644", "", b), entry("100644", "a", b)])],
    ["the same name twice", (b: string) => Buffer.concat([entry("100644", "a", b), entry("100644", "a", b)])],
    [
      "a blob and a tree of one name, apart",
      (b: string, t: string) => Buffer.concat([entry("100644", "a", b), entry("100644", "a.b", b), entry("40000", "a", t)]),
    ],
    ["entries out of git's order", (b: string) => Buffer.concat([entry("100644", "b", b), entry("100644", "a", b)])],
    ["a tree sorted as if it were a blob", (b: string, t: string) => Buffer.concat([entry("40000", "a", t), entry("100644", "a.b", b)])],
  ])("%s", async (_, body) => {
    const { dir, tree } = await repoWithTree(body);
    expect(() => execFileSync("git", ["-C", dir, "fsck", "--strict", "--no-dangling"], { stdio: "ignore" })).toThrow();
    const fault = (await gitTree({ fs: nodeFs, dir, ref: "main" }).list(""))._unsafeUnwrapErr();
    expect(fault.code).toBe("tree-io");
    expect(fault.message).toMatch(new RegExp(`^cannot read the tree root: the git object ${tree} in .* is corrupt: `));
  });

  test("a name holding a backslash is a name, as git on POSIX reads it: the tree lists and reads", async () => {
    const dir = join(await scratchDir(), "r");
    commitSpec(dir, { files: { "a.txt": "a\n", "notes\\old.txt": "n\n" }, links: {} });
    expect(git(dir, "ls-tree", "-z", "--name-only", "HEAD").split("\0")).toContain("notes\\old.txt");
    const reader = gitTree({ fs: nodeFs, dir, ref: "HEAD" });
    expect((await reader.list(""))._unsafeUnwrap().map((e) => e.name)).toEqual(["a.txt", "notes\\old.txt"]);
    expect(new TextDecoder().decode((await reader.read("notes\\old.txt", 100))._unsafeUnwrap())).toBe("n\n");
  });

  test("out of order, git finds no entry where a sorted reading would find one", async () => {
    const { dir } = await repoWithTree((b) => Buffer.concat([entry("100644", "b", b), entry("100644", "a", b)]));
    expect(gitFinds(dir, "a")).toBeUndefined();
    expect((await gitTree({ fs: nodeFs, dir, ref: "main" }).read("a", 100)).isErr()).toBe(true);
  });

  test("a name that is not UTF-8 is tree-io (not UTF-8), never a name mangled to U+FFFD", async () => {
    const { dir, tree } = await repoWithTree((b) => entry("100644", Buffer.from([0x63, 0x61, 0x66, 0xe9]), b));
    expect(git(dir, "ls-tree", "main")).toContain('"caf\\351"');
    const reader = gitTree({ fs: nodeFs, dir, ref: "main" });
    const fault = (await reader.list(""))._unsafeUnwrapErr();
    expect(fault.code).toBe("tree-io");
    expect(fault.message).toBe(`cannot read the tree root: the git tree ${tree} holds the name "caf\\xe9", which is not UTF-8`);
    expect((await reader.read("caf\uFFFD", 10)).isErr()).toBe(true);
  });
});

describe("file modes: 100664 (written by early git) is a regular file, as git reads it; other odd modes are faults", () => {
  test("a 100664 entry lists as a file and reads as its blob; git lists it as 100644, checks it out non-executable, fsck passes it", async () => {
    const { dir } = await repoWithTree((b) => Buffer.concat([entry("100664", "old.txt", b), entry("100755", "run.sh", b)]));
    expect(git(dir, "ls-tree", "main")).toMatch(/^100644 blob [0-9a-f]{40}\told\.txt$/m);
    expect(fsck(dir)).toBe("");
    git(dir, "reset", "-q", "--hard", "main");
    expect(nodeFs.statSync(join(dir, "old.txt")).mode & 0o111).toBe(0);
    expect(nodeFs.statSync(join(dir, "run.sh")).mode & 0o111).not.toBe(0);
    const reader = gitTree({ fs: nodeFs, dir, ref: "main" });
    expect((await reader.list(""))._unsafeUnwrap()).toEqual([
      { name: "old.txt", type: "file" },
      { name: "run.sh", type: "file" },
    ]);
    expect(Buffer.from((await reader.read("old.txt", 100))._unsafeUnwrap()).toString()).toBe("a\n");
  });

  test.each(["100600", "100775", "100000", "0100644", "644"])(
    "mode %s (git fsck: badFilemode or zeroPaddedFilemode) is a fault naming the mode and the entry's path",
    async (mode) => {
      const { dir } = await repoWithTree((b) => entry("100644", "a.txt", b));
      const blob = git(dir, "rev-parse", "main:a.txt");
      const sub = execFileSync("git", ["-C", dir, "hash-object", "-t", "tree", "--literally", "-w", "--stdin"], {
        input: entry(mode, "odd", blob),
        encoding: "utf8",
      }).trim();
      const root = execFileSync("git", ["-C", dir, "mktree"], { input: `040000 tree ${sub}\tsub\n`, encoding: "utf8" }).trim();
      git(dir, "update-ref", "refs/heads/main", git(dir, "commit-tree", root, "-m", "odd"));
      expect(fsck(dir)).toMatch(new RegExp(`^warning in tree ${sub}: (badFilemode|zeroPaddedFilemode): `));
      const fault = (await gitTree({ fs: nodeFs, dir, ref: "main" }).list("sub"))._unsafeUnwrapErr();
      expect(fault.code).toBe("tree-io");
      expect(fault.message).toBe(
        `cannot read "sub": the git object ${sub} in ${join(dir, ".git")}/objects is corrupt: InternalError: Unexpected GitTree entry mode: ${mode} of "sub/odd"`,
      );
    },
  );
});

describe("every tree git writes reads back as git lists it", () => {
  const names = fc.stringMatching(/^[a-c.\-_0 é]{1,4}$/).filter((n) => !/^[. ]*$/.test(n) && !/^\.git/i.test(n));
  test("names of a few characters around '.', '-', '/' and '0' in git's order: files, links, trees and gitlinks mixed", async () => {
    const dir = join(await scratchDir(), "r");
    commitSpec(dir, { files: { "a.txt": "a\n" }, links: {} });
    const blob = git(dir, "rev-parse", "HEAD:a.txt");
    const kinds: Record<string, string> = {
      "100644": `blob ${blob}`,
      "120000": `blob ${blob}`,
      "040000": `tree ${git(dir, "rev-parse", "HEAD^{tree}")}`,
      "160000": `commit ${git(dir, "rev-parse", "HEAD")}`,
    };
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.tuple(names, fc.constantFrom(...Object.keys(kinds))), { minLength: 1, maxLength: 8, selector: ([n]) => n }),
        async (rows) => {
          const input = rows.map(([n, mode]) => `${mode} ${kinds[mode]}\t${n}`).join("\n");
          const tree = execFileSync("git", ["-C", dir, "mktree"], { input: `${input}\n`, encoding: "utf8" }).trim();
          const content = execFileSync("git", ["-C", dir, "cat-file", "tree", tree]);
          const listed = parseTree(content, tree).map((e) => `${e.mode} ${e.path}`);
          const sorted = [...rows].sort(([a], [b]) => (a < b ? -1 : 1));
          expect(listed).toEqual(sorted.map(([n, mode]) => `${mode} ${n}`));
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe("any tree object", () => {
  test("gitTree lists a tree only as git reads it: every entry it lists, git's own lookup finds, of the same kind", async () => {
    const dir = join(await scratchDir(), "r");
    commitSpec(dir, { files: { "a.txt": "a\n" }, links: {} });
    const oids: Record<string, string> = {
      blob: git(dir, "rev-parse", "HEAD:a.txt"),
      tree: git(dir, "rev-parse", "HEAD^{tree}"),
      commit: git(dir, "rev-parse", "HEAD"),
    };
    const modes = fc.constantFrom("100644", "100755", "120000", "40000", "040000", "160000", "100664", "644", "constructor");
    let read = 0;
    const name = fc.oneof(
      fc.constantFrom("a", "a.b", "a-b", "a0", "b", "", ".", "..", ".git", "a/b", "\u00e9", "e\u0301"),
      fc.constant(Buffer.from([0x61, 0xff])),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(modes, name), { minLength: 1, maxLength: 5 }), async (rows) => {
        const kindOf = (mode: string) => (mode.endsWith("40000") ? "tree" : mode === "160000" ? "commit" : "blob");
        const raw = Buffer.concat(rows.map(([mode, n]) => entry(mode, n, oids[kindOf(mode)] ?? "")));
        const tree = execFileSync("git", ["-C", dir, "hash-object", "-t", "tree", "--literally", "-w", "--stdin"], { input: raw, encoding: "utf8" }).trim();
        git(dir, "update-ref", "refs/heads/t", git(dir, "commit-tree", tree, "-m", "t"));
        const listed = await gitTree({ fs: nodeFs, dir, ref: "t" }).list("");
        if (listed.isErr()) return;
        read++;
        for (const e of listed.value) {
          const found = gitFinds(dir, e.name, "t");
          expect(found, `git finds "${e.name}"`).toBeDefined();
          const kind = { file: "blob", symlink: "blob", directory: "tree", submodule: "commit" }[e.type as string];
          expect(found).toBe(oids[kind ?? ""]);
        }
        expect(new Set(listed.value.map((e) => e.name)).size).toBe(listed.value.length);
      }),
      // Most random trees are refused; the example, run first, is one git reads, so some listing is always checked.
      { numRuns: 80, examples: [[[["100644", "a"]]]] },
    );
    expect(read).toBeGreaterThan(0);
  });
});
