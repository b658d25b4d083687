import * as nodeFs from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as isogit from "isomorphic-git";
import { memfs } from "memfs";
import { afterAll, describe, expect, test } from "vitest";
import { commitSpec, emptyWorkingTree, git, scratchDir } from "../../test/support/test-fixtures.js";
import { checkTree } from "../core/check.js";
import { parseAssumptions } from "../core/parse.js";
import { gitTree } from "./git.js";
import { nodeSha1Hex, nodeSha256Hex } from "../node/hashes.js";
import { nodeInflate } from "../node/inflate.js";
import { treeContract } from "../testing/tree-contract.js";

const made: string[] = [];
afterAll(() => Promise.all(made.map((d) => rm(d, { recursive: true, force: true }))));

treeContract("gitTree (HEAD of a real repository, working tree emptied)", async (spec) => {
  const dir = await mkdtemp(join(tmpdir(), "decay-git-"));
  made.push(dir);
  commitSpec(dir, spec);
  emptyWorkingTree(dir);
  return gitTree({ fs: nodeFs, dir, ref: "HEAD" });
});

treeContract("gitTree with node:crypto's hashes and node:zlib's inflater (as plan-decay --ref reads)", async (spec) => {
  const dir = await mkdtemp(join(tmpdir(), "decay-git-"));
  made.push(dir);
  commitSpec(dir, spec);
  emptyWorkingTree(dir);
  return gitTree({ fs: nodeFs, dir, ref: "HEAD", sha1Hex: nodeSha1Hex, sha256Hex: nodeSha256Hex, inflate: nodeInflate });
});

describe("gitTree: one blob under many paths", () => {
  test("is inflated and checked at most twice, and each read gets its own copy of the bytes", async () => {
    const dir = await scratchDir();
    const files = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`copy${i}/LICENSE`, "MIT License\n"]));
    commitSpec(dir, { files: { ...files, "other.txt": "other\n" }, links: {} });
    const blob = git(dir, "rev-parse", "HEAD:copy0/LICENSE");
    let checks = 0;
    const counting = (parts: readonly Uint8Array[]) => {
      const hex = nodeSha1Hex(parts);
      if (hex === blob) checks += 1;
      return hex;
    };
    const tree = gitTree({ fs: nodeFs, dir, ref: "HEAD", sha1Hex: counting });
    const reads: Uint8Array[] = [];
    for (let i = 0; i < 12; i += 1) reads.push((await tree.read(`copy${i}/LICENSE`, 100))._unsafeUnwrap());
    expect(checks).toBe(2);
    for (const bytes of reads) expect(new TextDecoder().decode(bytes)).toBe("MIT License\n");
    for (const bytes of reads) bytes.fill(0);
    expect(new TextDecoder().decode((await tree.read("copy3/LICENSE", 100))._unsafeUnwrap())).toBe("MIT License\n");
    expect(new TextDecoder().decode((await tree.read("other.txt", 100))._unsafeUnwrap())).toBe("other\n");
  });

  test("an inflater that answers with Buffers: reads are plain Uint8Arrays, each its own", async () => {
    const dir = await scratchDir();
    commitSpec(dir, { files: Object.fromEntries(Array.from({ length: 4 }, (_, i) => [`c${i}/L`, "MIT License\n"])), links: {} });
    const buffers: Parameters<typeof gitTree>[0]["inflate"] = (compressed, max) => {
      const got = nodeInflate(compressed, max);
      return got && { bytes: Buffer.from(got.bytes.buffer, got.bytes.byteOffset, got.bytes.length), trailing: got.trailing };
    };
    const tree = gitTree({ fs: nodeFs, dir, ref: "HEAD", inflate: buffers });
    const reads: Uint8Array[] = [];
    for (let i = 0; i < 4; i += 1) reads.push((await tree.read(`c${i}/L`, 100))._unsafeUnwrap());
    for (const bytes of reads) expect(Object.getPrototypeOf(bytes)).toBe(Uint8Array.prototype);
    for (const bytes of reads) bytes.fill(88);
    expect(new TextDecoder().decode((await tree.read("c0/L", 100))._unsafeUnwrap())).toBe("MIT License\n");
  });
});

describe("gitTree's hashes", () => {
  test("every object is checked by the sha1Hex given: one that answers wrong makes each read a fault, never content", async () => {
    const dir = await scratchDir();
    commitSpec(dir, { files: { "a.txt": "one\n" }, links: {} });
    const asked: number[] = [];
    const wrong = (parts: readonly Uint8Array[]) => {
      asked.push(parts.length);
      return "0".repeat(40);
    };
    const listed = await gitTree({ fs: nodeFs, dir, ref: "HEAD", sha1Hex: wrong }).list("");
    expect(listed.isErr() && listed.error.code).toBe("tree-io");
    expect(listed.isErr() && listed.error.message).toMatch(/SHA check failed/);
    expect(asked.length).toBeGreaterThan(0);
    expect(await names(gitTree({ fs: nodeFs, dir, ref: "HEAD", sha1Hex: nodeSha1Hex }))).toEqual(["a.txt"]);
  });

  test("the sha256Hex given is the reader's face; the digests a check makes through it are the portable ones", async () => {
    const dir = await scratchDir();
    commitSpec(dir, { files: { "a.txt": "one\r\ntwo\n", "b.txt": "\u00e9t\u00e9\n" }, links: {} });
    expect(gitTree({ fs: nodeFs, dir, ref: "HEAD" }).sha256Hex).toBeUndefined();
    const native = gitTree({ fs: nodeFs, dir, ref: "HEAD", sha256Hex: nodeSha256Hex });
    expect(native.sha256Hex).toBe(nodeSha256Hex);
    const plan = parseAssumptions(`unchanged\ta.txt\t${"0".repeat(64)}\nunchanged\tb.txt\t${"0".repeat(64)}\n`)._unsafeUnwrap();
    const digests = async (tree: ReturnType<typeof gitTree>) => (await checkTree({ tree, assumptions: plan }))._unsafeUnwrap().rows.map((r) => r.detail);
    const got = await digests(native);
    expect(got).toEqual([expect.stringMatching(/^the digest is now [0-9a-f]{64}$/), expect.stringMatching(/^the digest is now [0-9a-f]{64}$/)]);
    expect(got).toEqual(await digests(gitTree({ fs: nodeFs, dir, ref: "HEAD" })));
  });
});

const names = async (tree: ReturnType<typeof gitTree>, path = "") =>
  (await tree.list(path))
    ._unsafeUnwrap()
    .map((e) => e.name)
    .sort();

describe("gitTree refs and worktrees", () => {
  test("a linked worktree reads its own HEAD; the sibling branch is readable from the main checkout", async () => {
    const base = await scratchDir();
    const main = join(base, "main");
    commitSpec(main, { files: { "plan.md": "p\n" }, links: {} });
    git(main, "worktree", "add", "-q", "-b", "sibling", join(base, "wt"));
    nodeFs.writeFileSync(join(base, "wt", "refunds.ts"), "export {};\n");
    git(join(base, "wt"), "add", "refunds.ts");
    git(join(base, "wt"), "commit", "-q", "-m", "sibling lands a file");

    expect(nodeFs.readFileSync(join(base, "wt", ".git"), "utf8")).toMatch(/^gitdir: /);
    expect(await names(gitTree({ fs: nodeFs, dir: join(base, "wt"), ref: "HEAD" }))).toEqual(["plan.md", "refunds.ts"]);
    expect(await names(gitTree({ fs: nodeFs, dir: main, ref: "HEAD" }))).toEqual(["plan.md"]);
    expect(await names(gitTree({ fs: nodeFs, dir: main, ref: "sibling" }))).toEqual(["plan.md", "refunds.ts"]);
    expect(await names(gitTree({ fs: nodeFs, dir: join(base, "wt"), ref: "main" }))).toEqual(["plan.md"]);

    // The user story: the same plan holds on our HEAD and diverges on the sibling's branch.
    const assumptions = parseAssumptions("exists\tplan.md\nabsent\trefunds.ts\n")._unsafeUnwrap();
    const verdict = async (ref: string) => (await checkTree({ tree: gitTree({ fs: nodeFs, dir: main, ref }), assumptions }))._unsafeUnwrap().verdict;
    expect(await verdict("HEAD")).toBe("holds");
    expect(await verdict("sibling")).toBe("diverged");
  });

  test("packed refs and objects, an annotated tag and a commit id all resolve", async () => {
    const dir = await scratchDir();
    commitSpec(dir, { files: { "a.txt": "one\n" }, links: {} });
    git(dir, "tag", "-a", "-m", "release", "v1");
    const first = git(dir, "rev-parse", "HEAD");
    nodeFs.writeFileSync(join(dir, "b.txt"), "two\n");
    git(dir, "add", "b.txt");
    git(dir, "commit", "-q", "-m", "second");
    git(dir, "gc", "-q");
    expect(nodeFs.existsSync(join(dir, ".git", "packed-refs"))).toBe(true);
    expect(await names(gitTree({ fs: nodeFs, dir, ref: "v1" }))).toEqual(["a.txt"]);
    expect(await names(gitTree({ fs: nodeFs, dir, ref: first }))).toEqual(["a.txt"]);
    expect(await names(gitTree({ fs: nodeFs, dir, ref: "refs/heads/main" }))).toEqual(["a.txt", "b.txt"]);
  });

  test("an unknown ref or a directory that is no repository is tree-not-found naming it", async () => {
    const dir = await scratchDir();
    commitSpec(dir, { files: { "a.txt": "x" }, links: {} });
    const missing = (await gitTree({ fs: nodeFs, dir, ref: "no-such-branch" }).list(""))._unsafeUnwrapErr();
    expect(missing.code).toBe("tree-not-found");
    expect(missing.message).toContain("no-such-branch");
    const empty = await scratchDir();
    const none = (await gitTree({ fs: nodeFs, dir: empty, ref: "HEAD" }).read("a.txt", 10))._unsafeUnwrapErr();
    expect(none.code).toBe("tree-not-found");
    expect(none.message).toContain(empty);
  });

  test("a gitlink is a submodule entry; a link in the middle of a path is followed inside the commit only", async () => {
    const dir = await scratchDir();
    commitSpec(dir, { files: { "src/a.ts": "a\n" }, links: { lib: "src", out: "../elsewhere" } });
    git(dir, "update-index", "--add", "--cacheinfo", `160000,${git(dir, "rev-parse", "HEAD")},vendor`);
    git(dir, "commit", "-q", "-m", "gitlink");
    const tree = gitTree({ fs: nodeFs, dir, ref: "HEAD", describe: "HEAD of the fixture" });
    expect(tree.describe).toBe("HEAD of the fixture");
    const root = (await tree.list(""))._unsafeUnwrap();
    expect(root).toContainEqual({ name: "vendor", type: "submodule" });
    expect((await tree.read("vendor", 10))._unsafeUnwrapErr().code).toBe("tree-not-a-file");
    expect(new TextDecoder().decode((await tree.read("lib/a.ts", 10))._unsafeUnwrap())).toBe("a\n");
    expect((await tree.read("out/x", 10))._unsafeUnwrapErr()).toMatchObject({ code: "tree-io", path: "out/x" });
    expect((await tree.list("lib"))._unsafeUnwrapErr().code).toBe("tree-not-a-directory");
  });
});

test("gitTree reads a repository held in memfs (no disk, no system git)", async () => {
  const { fs } = memfs({ "/repo/src/a.ts": "export const a = 1;\n" });
  await isogit.init({ fs, dir: "/repo", defaultBranch: "main" });
  await isogit.add({ fs, dir: "/repo", filepath: "src/a.ts" });
  const author = { name: "decay test", email: "test@decay.invalid", timestamp: 0, timezoneOffset: 0 };
  await isogit.commit({ fs, dir: "/repo", message: "one", author });
  const tree = gitTree({ fs, dir: "/repo", ref: "main" });
  expect((await tree.list("src"))._unsafeUnwrap()).toEqual([{ name: "a.ts", type: "file" }]);
  expect(new TextDecoder().decode((await tree.read("src/a.ts", 100))._unsafeUnwrap())).toBe("export const a = 1;\n");
});
