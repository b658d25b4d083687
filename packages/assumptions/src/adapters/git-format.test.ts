// Repositories gitTree cannot read correctly are refused up front, saying why: a SHA-256 object
// format, an extension git itself would refuse, objects borrowed through alternates. Each is made
// with system git; a partial clone (which git reads, missing objects and all) is still read.
import { execFileSync } from "node:child_process";
import * as nodeFs from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { formatProblem } from "./git-format.js";
import { gitTree } from "./git.js";
import { commitSpec, git, scratchDir } from "../../test/support/test-fixtures.js";

const rootOf = (dir: string) => gitTree({ fs: nodeFs, dir, ref: "HEAD" }).list("");

describe("repository formats gitTree does not read are refused, naming the repository and why", () => {
  test("a SHA-256 repository (loose and packed)", async () => {
    const dir = join(await scratchDir(), "r");
    nodeFs.mkdirSync(dir);
    git(dir, "init", "-q", "--object-format=sha256", "-b", "main");
    nodeFs.writeFileSync(join(dir, "a.txt"), "a\n");
    git(dir, "add", "a.txt");
    git(dir, "commit", "-q", "-m", "a");
    expect(git(dir, "rev-parse", "HEAD")).toMatch(/^[0-9a-f]{64}$/);
    for (const pack of [false, true]) {
      if (pack) git(dir, "gc", "-q");
      const fault = (await rootOf(dir))._unsafeUnwrapErr();
      expect(fault).toMatchObject({ code: "tree-io", path: "" });
      expect(fault.message).toBe(
        `cannot read the tree root: ${join(dir, ".git")} is a sha256 repository (extensions.objectformat); gitTree reads SHA-1 repositories only`,
      );
    }
  });

  test("an extension git itself does not know, and a repository format version above 1", async () => {
    const dir = join(await scratchDir(), "r");
    commitSpec(dir, { files: { "a.txt": "a\n" }, links: {} });
    git(dir, "config", "core.repositoryformatversion", "1");
    git(dir, "config", "extensions.someFuture", "true");
    expect(() => execFileSync("git", ["-C", dir, "rev-parse", "HEAD"], { stdio: "ignore" })).toThrow();
    expect((await rootOf(dir))._unsafeUnwrapErr().message).toBe(
      `cannot read the tree root: ${join(dir, ".git")} uses the repository extension "somefuture", which gitTree does not read`,
    );
    git(dir, "config", "-f", join(dir, ".git", "config"), "--unset", "extensions.someFuture");
    git(dir, "config", "-f", join(dir, ".git", "config"), "core.repositoryformatversion", "2");
    expect((await rootOf(dir))._unsafeUnwrapErr().message).toBe(
      `cannot read the tree root: ${join(dir, ".git")} has repository format version 2; gitTree reads versions 0 and 1`,
    );
  });

  test("a repository whose objects are borrowed from another (objects/info/alternates)", async () => {
    const src = join(await scratchDir(), "s");
    commitSpec(src, { files: { "a.txt": "a\n" }, links: {} });
    const dir = join(await scratchDir(), "r");
    execFileSync("git", ["clone", "-q", "--shared", src, dir]);
    expect(git(dir, "ls-tree", "--name-only", "HEAD")).toBe("a.txt");
    expect((await rootOf(dir))._unsafeUnwrapErr().message).toBe(
      `cannot read the tree root: ${join(dir, ".git")} borrows objects from other repositories (objects/info/alternates), which gitTree does not read`,
    );
  });

  test("replacement objects (refs/replace, loose or packed) and grafts, which git applies to every read", async () => {
    const dir = join(await scratchDir(), "r");
    commitSpec(dir, { files: { "a.txt": "a\n" }, links: {} });
    const other = execFileSync("git", ["-C", dir, "hash-object", "-w", "--stdin"], { input: "replaced\n", encoding: "utf8" }).trim();
    git(dir, "replace", git(dir, "rev-parse", "HEAD:a.txt"), other);
    expect(git(dir, "show", "HEAD:a.txt")).toBe("replaced");
    const said = `cannot read the tree root: ${join(dir, ".git")} replaces objects (refs/replace/ or info/grafts), which git applies to every read and gitTree does not`;
    expect((await rootOf(dir))._unsafeUnwrapErr().message).toBe(said);
    git(dir, "pack-refs", "--all");
    expect(nodeFs.readdirSync(join(dir, ".git/refs/replace"))).toEqual([]);
    expect((await rootOf(dir))._unsafeUnwrapErr().message).toBe(said);
    const packed = join(dir, ".git/packed-refs");
    nodeFs.writeFileSync(packed, nodeFs.readFileSync(packed, "utf8").replace(/^.* refs\/replace\/.*\n/m, ""));
    expect((await rootOf(dir))._unsafeUnwrap().map((e) => e.name)).toEqual(["a.txt"]);
    nodeFs.mkdirSync(join(dir, ".git/info"), { recursive: true });
    nodeFs.writeFileSync(join(dir, ".git/info/grafts"), `${git(dir, "rev-parse", "HEAD")}\n`);
    expect((await rootOf(dir))._unsafeUnwrapErr().message).toBe(said);
  });

  test("a partial clone is read; a blob it lacks is a missing object, never an absent file", async () => {
    const src = join(await scratchDir(), "s");
    commitSpec(src, { files: { "a.txt": "a\n", "d/b.txt": "b\n" }, links: {} });
    git(src, "config", "uploadpack.allowFilter", "true");
    const dir = join(await scratchDir(), "r");
    execFileSync("git", ["clone", "-q", "--filter=blob:none", "--no-checkout", `file://${src}`, dir]);
    expect(git(dir, "config", "remote.origin.promisor")).toBe("true");
    // Format version 1, and the extension later gits write for a partial clone.
    git(dir, "config", "extensions.partialClone", "origin");
    expect(git(dir, "config", "core.repositoryformatversion")).toBe("1");
    const tree = gitTree({ fs: nodeFs, dir, ref: "HEAD" });
    expect((await tree.list(""))._unsafeUnwrap().map((e) => e.name)).toEqual(["a.txt", "d"]);
    const missing = (await tree.read("a.txt", 100))._unsafeUnwrapErr();
    expect(missing.code).toBe("tree-io");
    expect(missing.message).toContain(`is missing from ${join(dir, ".git")}/objects`);
  });
});

test("formatProblem: any config and alternates text gives a sentence naming the repository or nothing, never a throw", () => {
  const text = fc.oneof(
    fc.string(),
    fc
      .array(fc.constantFrom("[core]", "[extensions]", "\trepositoryformatversion = 1", "objectformat = sha1", "noop", "x=1 # c", '[remote "o"]'), {
        maxLength: 6,
      })
      .map((l) => l.join("\n")),
  );
  fc.assert(
    fc.property(fc.option(text, { nil: undefined }), fc.option(text, { nil: undefined }), (config, alternates) => {
      const problem = formatProblem("/repo/.git", { config, alternates, packedRefs: undefined, grafts: undefined, replaceRefs: [] });
      expect(problem === undefined || problem.startsWith("/repo/.git ")).toBe(true);
    }),
  );
  const none = { alternates: "", packedRefs: undefined, grafts: undefined, replaceRefs: [] };
  expect(formatProblem("/r", { ...none, config: "[extensions]\n\tobjectFormat = sha1\n[core]\n\trepositoryformatversion = 1" })).toBeUndefined();
  expect(formatProblem("/r", { ...none, config: "[extensions] objectformat = SHA256" })).toContain("sha256 repository");
  // Written by git 2.48 and later for `git worktree add --relative-paths`.
  expect(formatProblem("/r", { ...none, config: "[core]\n\trepositoryformatversion = 1\n[extensions]\n\trelativeWorktrees = true" })).toBeUndefined();
  expect(formatProblem("/r", { ...none, config: "[core]\n\trepositoryformatversion = 1\n[extensions]\n\trefStorage = reftable" })).toBe(
    `/r uses the repository extension "refstorage", which gitTree does not read`,
  );
});
