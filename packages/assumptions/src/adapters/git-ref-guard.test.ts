// The pack guards cover the objects read while resolving a ref (commits, annotated tags, the
// commit's root tree), not only the blobs and trees a row reads: each packed object's declared
// size is checked before inflating, inflation is bounded, and every refusal names the object.
import { execFileSync } from "node:child_process";
import * as nodeFs from "node:fs";
import { join } from "node:path";
import { deflateSync } from "node:zlib";
import { describe, expect, test } from "vitest";
import { gitTree } from "./git.js";
import { bomb, declaring, type EntryWriter, garbage, repackByHand } from "../../test/support/pack-fixture.js";
import { commitSpec, git, scratchDir } from "../../test/support/test-fixtures.js";

/** Two commits (a.txt, then b.txt), an annotated tag `v1` on the second; objects not yet packed. */
async function history() {
  const dir = join(await scratchDir(), "r");
  commitSpec(dir, { files: { "a.txt": "a\n" }, links: {} });
  const first = git(dir, "rev-parse", "HEAD");
  nodeFs.writeFileSync(join(dir, "b.txt"), "b\n");
  git(dir, "add", "b.txt");
  git(dir, "commit", "-q", "-m", "b");
  git(dir, "tag", "-a", "-m", "release", "v1");
  return { dir, first, head: git(dir, "rev-parse", "HEAD"), tag: git(dir, "rev-parse", "v1"), tree: git(dir, "rev-parse", "HEAD^{tree}") };
}

const listAt = (dir: string, ref: string, maxObjectBytes?: number) =>
  gitTree({ fs: nodeFs, dir, ref, ...(maxObjectBytes === undefined ? {} : { maxObjectBytes }) }).list("");

describe("objects read while resolving --ref pass the pack guard", () => {
  test("a hand-written pack that tells the truth reads as git's own (the fixture is sound)", async () => {
    const h = await history();
    repackByHand(h.dir);
    git(h.dir, "fsck", "--full", "--strict");
    for (const ref of ["HEAD", "v1", "HEAD~1"]) expect((await listAt(h.dir, ref))._unsafeUnwrap().length).toBeGreaterThan(0);
  });

  test.each([
    ["the commit HEAD names", "HEAD", "head"],
    ["an annotated tag", "v1", "tag"],
    ["a parent reached by ~1", "HEAD~1", "first"],
    ["the commit's root tree", "HEAD", "tree"],
  ] as const)("%s declaring more than the limit: refused by its header, naming it and the pack", async (_, ref, which) => {
    const h = await history();
    const pack = repackByHand(h.dir, { [h[which]]: declaring(200 * 1024 * 1024) });
    const fault = (await listAt(h.dir, ref))._unsafeUnwrapErr();
    expect(fault.code).toBe("tree-io");
    expect(fault.message).toMatch(
      new RegExp(`the git object ${h[which]} in ${pack} is refused: the entry at offset \\d+ declares 209715200 bytes, over the limit of 67108864$`),
    );
  });

  test.each([
    ["the commit HEAD names", "HEAD", "head"],
    ["an annotated tag", "v1", "tag"],
    ["the commit's root tree", "HEAD", "tree"],
  ] as const)("%s that is a zlib bomb: inflation stops at its declared size", async (_, ref, which) => {
    const h = await history();
    const pack = repackByHand(h.dir, { [h[which]]: bomb(4 * 1024 * 1024) });
    const fault = (await listAt(h.dir, ref, 100_000))._unsafeUnwrapErr();
    expect(fault.message).toMatch(
      new RegExp(`the git object ${h[which]} in ${pack} is refused: the entry at offset \\d+ inflates past the \\d+ bytes it declares$`),
    );
  });

  test.each([
    ["the commit HEAD names", "HEAD", "head"],
    ["an annotated tag", "v1", "tag"],
  ] as const)("%s whose bytes are not zlib: a fault naming the object, not the ref alone", async (_, ref, which) => {
    const h = await history();
    repackByHand(h.dir, { [h[which]]: garbage });
    const fault = (await listAt(h.dir, ref))._unsafeUnwrapErr();
    expect(fault.code).toBe("tree-io");
    expect(fault.message).toContain(`the git object ${h[which]} in ${join(h.dir, ".git")}/objects is corrupt`);
  });

  test("a missing parent or tag target is named as a missing object; a missing object the ref itself names is the ref not found", async () => {
    const h = await history();
    const loose = (oid: string) => join(h.dir, ".git", "objects", oid.slice(0, 2), oid.slice(2));
    nodeFs.rmSync(loose(h.first));
    expect((await listAt(h.dir, "HEAD~1"))._unsafeUnwrapErr().message).toBe(
      `cannot read the tree root: the git object ${h.first} is missing from ${join(h.dir, ".git")}/objects`,
    );
    nodeFs.rmSync(loose(h.head));
    expect((await listAt(h.dir, "v1"))._unsafeUnwrapErr().message).toBe(
      `cannot read the tree root: the git object ${h.head} is missing from ${join(h.dir, ".git")}/objects`,
    );
    expect((await listAt(h.dir, h.head))._unsafeUnwrapErr().message).toMatch(new RegExp(`git ref "${h.head}" was not found in `));
  });
});

describe("commits and tags read while resolving --ref are checked against their ids and read as git reads them", () => {
  const forging =
    (from: string, to: string): EntryWriter =>
    (content) => {
      const forged = Buffer.from(content.toString("latin1").replace(from, to), "latin1");
      return { size: forged.length, data: deflateSync(forged) };
    };

  test.each([
    ["a packed commit whose tree line was rewritten", "HEAD", "head"],
    ["a packed annotated tag whose object line was rewritten", "v1", "tag"],
  ] as const)("%s is a fault naming it (git: hash mismatch), never the tree it points at", async (_, ref, which) => {
    const h = await history();
    const firstTree = git(h.dir, "rev-parse", "HEAD~1^{tree}");
    repackByHand(h.dir, { [h[which]]: which === "head" ? forging(h.tree, firstTree) : forging(h.head, h.first) });
    expect(git(h.dir, "cat-file", "-t", h[which])).toBe(which === "head" ? "commit" : "tag");
    const fault = (await listAt(h.dir, ref))._unsafeUnwrapErr();
    expect(fault.code).toBe("tree-io");
    expect(fault.message).toContain(
      `the git object ${h[which]} in ${join(h.dir, ".git")}/objects is corrupt: InternalError: SHA check failed! Expected ${h[which]}`,
    );
  });

  test("a parent line after the author line is no parent (git reads only those right after the tree line)", async () => {
    const h = await history();
    const body = `tree ${h.tree}\nauthor A <a@b> 0 +0000\ncommitter A <a@b> 0 +0000\nparent ${h.first}\n\nlate parent\n`;
    const oid = execFileSync("git", ["-C", h.dir, "hash-object", "-t", "commit", "--literally", "-w", "--stdin"], { input: body, encoding: "utf8" }).trim();
    expect(() => execFileSync("git", ["-C", h.dir, "rev-parse", "--verify", "-q", `${oid}~1`], { stdio: "ignore" })).toThrow();
    expect((await listAt(h.dir, `${oid}~1`))._unsafeUnwrapErr().message).toBe(`git ref "${oid}~1" walks past the root commit ${oid}, which has no parent`);
  });

  test.each([
    ["without a type line", ""],
    ["whose type line names another type than its object's", "type tree\n"],
  ])("an annotated tag %s is a fault naming it (git: no valid object, or not a commit)", async (_, typeLine) => {
    const h = await history();
    const body = `object ${h.head}\n${typeLine}tag x\ntagger A <a@b> 0 +0000\n\nmsg\n`;
    const tag = execFileSync("git", ["-C", h.dir, "hash-object", "-t", "tag", "--literally", "-w", "--stdin"], { input: body, encoding: "utf8" }).trim();
    nodeFs.writeFileSync(join(h.dir, ".git/refs/tags/x"), `${tag}\n`);
    expect(() => execFileSync("git", ["-C", h.dir, "rev-parse", "--verify", "-q", "x^{commit}"], { stdio: "ignore" })).toThrow();
    const fault = (await listAt(h.dir, "x"))._unsafeUnwrapErr();
    expect(fault.code).toBe("tree-io");
    expect(fault.message).toContain(`the git object ${tag} in ${join(h.dir, ".git")}/objects is corrupt: InternalError: the tag ${tag} `);
  });

  test("a commit without a tree line is a fault naming it", async () => {
    const h = await history();
    const oid = execFileSync("git", ["-C", h.dir, "hash-object", "-t", "commit", "--literally", "-w", "--stdin"], {
      input: "author A <a@b> 0 +0000\n\nno tree\n",
      encoding: "utf8",
    }).trim();
    expect((await listAt(h.dir, oid))._unsafeUnwrapErr().message).toMatch(new RegExp(`^cannot read the tree root: the git object ${oid} in .* is corrupt: `));
  });
});
