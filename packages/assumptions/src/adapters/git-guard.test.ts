import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as nodeFs from "node:fs";
import { join } from "node:path";
import { deflateSync } from "node:zlib";
import { describe, expect, test } from "vitest";
import { packIndexProblem } from "./git-guard.js";
import { type GitTreeOptions, gitTree } from "./git.js";
import { nodeSha1Hex } from "../node/hashes.js";
import { nodeInflate } from "../node/inflate.js";
import { commitSpec, git, scratchDir } from "../../test/support/test-fixtures.js";

/** A repository whose one commit holds `a.txt`; answers its dir and the blob's id and loose file. */
async function repo(): Promise<{ dir: string; oid: string; file: string }> {
  const dir = join(await scratchDir(), "r");
  commitSpec(dir, { files: { "a.txt": "hello\n", "b.txt": "other\n" }, links: {} });
  const oid = git(dir, "rev-parse", "HEAD:a.txt");
  return { dir, oid, file: join(dir, ".git", "objects", oid.slice(0, 2), oid.slice(2)) };
}

function replaceObject(file: string, bytes: Uint8Array): void {
  nodeFs.chmodSync(file, 0o644);
  nodeFs.writeFileSync(file, bytes);
}

/** How gitTree hashes and inflates: portably, and as plan-decay --ref reads (what node:zlib is asked for recorded). */
const asked: { compressed: number; max: number }[] = [];
const NATIVES: readonly (readonly [string, Pick<GitTreeOptions, "sha1Hex" | "inflate">])[] = [
  ["portable", {}],
  [
    "node:crypto and node:zlib",
    {
      sha1Hex: nodeSha1Hex,
      inflate: (compressed, max) => {
        asked.push({ compressed: compressed.length, max });
        return nodeInflate(compressed, max);
      },
    },
  ],
];

async function readA(dir: string, opts: Pick<GitTreeOptions, "maxObjectBytes" | "sha1Hex" | "inflate"> = {}) {
  return gitTree({ fs: nodeFs, dir, ref: "HEAD", ...opts }).read("a.txt", 64 * 1024 * 1024);
}

describe("pack index validated against its size before anything is allocated", () => {
  test("a fan-out table declaring 0x0fffffff objects is a fault naming the pack index", async () => {
    const { dir } = await repo();
    git(dir, "repack", "-adq");
    const pack = join(dir, ".git", "objects", "pack");
    const idx = nodeFs.readdirSync(pack).find((f) => f.endsWith(".idx")) ?? "";
    const bytes = nodeFs.readFileSync(join(pack, idx));
    for (let i = 0; i < 256; i++) bytes.writeUInt32BE(i === 255 ? 0x0fffffff : bytes.readUInt32BE(8 + i * 4), 8 + i * 4);
    nodeFs.chmodSync(join(pack, idx), 0o644);
    nodeFs.writeFileSync(join(pack, idx), bytes);
    const got = await readA(dir);
    expect(got._unsafeUnwrapErr().code).toBe("tree-io");
    expect(got._unsafeUnwrapErr().message).toContain(`the pack index ${join(pack, idx)} is corrupt: its fan-out table declares 268435455 objects`);
  });

  test("packIndexProblem: a sound index passes; short, wrong-magic, decreasing and mis-sized ones are named", async () => {
    const { dir } = await repo();
    git(dir, "repack", "-adq");
    const pack = join(dir, ".git", "objects", "pack");
    const good = nodeFs.readFileSync(join(pack, nodeFs.readdirSync(pack).find((f) => f.endsWith(".idx")) ?? ""));
    expect(packIndexProblem(good)).toBeUndefined();
    expect(packIndexProblem(good.subarray(0, 100))).toMatch(/shorter than any pack index/);
    expect(packIndexProblem(Buffer.concat([good, Buffer.alloc(4)]))).toMatch(/should be \d+ bytes; the file has/);
    const magic = Buffer.from(good);
    magic[0] = 0;
    expect(packIndexProblem(magic)).toBe("it is not a version 2 pack index");
    const falling = Buffer.from(good);
    falling.writeUInt32BE(5, 8 + 10 * 4);
    falling.writeUInt32BE(0, 8 + 11 * 4);
    expect(packIndexProblem(falling)).toMatch(/decreases at entry 11/);
  });
});

describe("64-bit offsets", () => {
  /** The repository of `repo()`, packed, its index rewritten by git with every offset past 32 in the 64-bit table. */
  async function largeOffsets(): Promise<{ dir: string; idx: string; count: number }> {
    const { dir } = await repo();
    git(dir, "repack", "-adq");
    const packs = join(dir, ".git", "objects", "pack");
    const pack = join(packs, nodeFs.readdirSync(packs).find((f) => f.endsWith(".pack")) ?? "");
    const idx = pack.replace(/pack$/, "idx");
    nodeFs.rmSync(idx, { force: true });
    execFileSync("git", ["-C", dir, "index-pack", "--index-version=2,32", pack], { stdio: "ignore" });
    const count = nodeFs.readFileSync(idx).readUInt32BE(8 + 255 * 4);
    expect(nodeFs.statSync(idx).size).toBeGreaterThan(8 + 1024 + count * 28 + 40);
    return { dir, idx, count };
  }

  test("an index whose offsets are in its 64-bit table (git index-pack --index-version=2,32) reads as git", async () => {
    const { dir } = await largeOffsets();
    expect(Buffer.from((await readA(dir))._unsafeUnwrap()).toString()).toBe("hello\n");
    expect((await gitTree({ fs: nodeFs, dir, ref: "HEAD" }).list(""))._unsafeUnwrap().map((e) => e.name)).toEqual(["a.txt", "b.txt"]);
  });

  test("an offset pointing past the 64-bit table is a fault naming the index", async () => {
    const { dir, idx, count } = await largeOffsets();
    const bytes = nodeFs.readFileSync(idx);
    const offsets = 8 + 1024 + count * 24;
    const i = Array.from({ length: count }, (_, k) => k).find((k) => bytes.readUInt32BE(offsets + k * 4) >= 0x80000000) ?? 0;
    bytes.writeUInt32BE(0x80000000 + 1000, offsets + i * 4);
    nodeFs.chmodSync(idx, 0o644);
    nodeFs.writeFileSync(idx, bytes);
    expect(packIndexProblem(bytes)).toMatch(/^entry \d+ points at 64-bit offset 1000 of \d+$/);
    expect((await readA(dir))._unsafeUnwrapErr().message).toContain(`the pack index ${idx} is corrupt: entry`);
  });
});

describe.each(NATIVES)("loose objects: size checked from the header before inflating, inflation bounded (%s)", (_, natives) => {
  test("a header declaring more than the limit is refused, naming the object and its file", async () => {
    const { dir, oid, file } = await repo();
    replaceObject(file, deflateSync(Buffer.from("blob 99999999999\0tiny")));
    const got = await readA(dir, natives);
    expect(got._unsafeUnwrapErr().message).toBe(
      `cannot read "a.txt": the git object ${oid} (${file}) is refused: its header declares a blob of 99999999999 bytes, over the limit of 67108864`,
    );
  });

  test("a zlib bomb that declares a small size stops inflating at that size", async () => {
    const { dir, oid, file } = await repo();
    const bomb = deflateSync(Buffer.concat([Buffer.from("blob 10\0"), Buffer.alloc(2_000_000)]));
    replaceObject(file, bomb);
    asked.length = 0;
    const got = await readA(dir, { maxObjectBytes: 1000, ...natives });
    expect(got._unsafeUnwrapErr().message).toContain(`the git object ${oid} (${file}) is refused: it inflates past the 10 bytes its header declares`);
    // Under the default limit too: the object is inflated no further than its header declares.
    const loose = await readA(dir, natives);
    expect(loose._unsafeUnwrapErr().message).toContain(`the git object ${oid} (${file}) is refused: it inflates past the 10 bytes its header declares`);
    // A given inflater is asked for no more than the header and the 10 bytes it declares.
    const onBomb = asked.filter((a) => a.compressed === bomb.length);
    expect(onBomb.length > 0).toBe(natives.inflate !== undefined);
    for (const a of onBomb) expect(a.max).toBeLessThanOrEqual("blob 10\0".length + 10);
  });

  test("a truncated object, a bad header and a missing object are each a fault naming the object", async () => {
    const { dir, oid, file } = await repo();
    const good = nodeFs.readFileSync(file);
    replaceObject(file, good.subarray(0, good.length - 6));
    expect((await readA(dir, natives))._unsafeUnwrapErr().message).toMatch(new RegExp(`the git object ${oid} .*(refused|corrupt)`));
    // Whole and valid zlib, but fewer bytes than the header declares: truncated, not a SHA mismatch.
    replaceObject(file, deflateSync(Buffer.from("blob 9\0hello\n")));
    expect((await readA(dir, natives))._unsafeUnwrapErr().message).toContain(`the git object ${oid} (${file}) is refused: it is truncated: 6 of 9 bytes`);
    replaceObject(file, deflateSync(Buffer.from("blub 3\0abc")));
    expect((await readA(dir, natives))._unsafeUnwrapErr().message).toContain(`the git object ${oid} (${file}) is refused: its header is not TYPE SIZE`);
    nodeFs.unlinkSync(file);
    expect((await readA(dir, natives))._unsafeUnwrapErr().message).toBe(
      `cannot read "a.txt": the git object ${oid} is missing from ${join(dir, ".git")}/objects`,
    );
  });
});

describe("non-regular files in the repository are refused, never read", () => {
  test("a FIFO in place of a ref is a named fault (no hang)", async () => {
    const { dir } = await repo();
    const ref = join(dir, ".git", "refs", "heads", "main");
    nodeFs.unlinkSync(ref);
    execFileSync("mkfifo", [ref]);
    nodeFs.rmSync(join(dir, ".git", "packed-refs"), { force: true });
    const got = await gitTree({ fs: nodeFs, dir, ref: "HEAD" }).list("");
    expect(got._unsafeUnwrapErr().message).toContain(`${ref} in the object store is not a regular file (a FIFO, socket or device)`);
  });

  test("a .git that points at a character device (where one exists) is refused, not read", async () => {
    if (!nodeFs.existsSync("/dev/zero")) return;
    const dir = await scratchDir();
    nodeFs.symlinkSync("/dev/zero", join(dir, ".git"));
    const got = await gitTree({ fs: nodeFs, dir, ref: "HEAD" }).list("");
    expect(got._unsafeUnwrapErr().message).toContain(`${join(dir, ".git")} in the object store is not a regular file`);
  });
});

describe.each(NATIVES)("packed objects: the entry's declared size checked before inflating, inflation bounded (%s)", (_, natives) => {
  async function packed(): Promise<{ dir: string; oid: string; pack: string; offset: number }> {
    const dir = join(await scratchDir(), "r");
    commitSpec(dir, { files: { "a.txt": "\0".repeat(2_000_000), "b.txt": "other\n" }, links: {} });
    const oid = git(dir, "rev-parse", "HEAD:a.txt");
    git(dir, "repack", "-adq");
    const packs = join(dir, ".git", "objects", "pack");
    const idx = nodeFs.readdirSync(packs).find((f) => f.endsWith(".idx")) ?? "";
    const line =
      git(dir, "verify-pack", "-v", join(packs, idx))
        .split("\n")
        .find((l) => l.startsWith(oid)) ?? "";
    const offset = Number(line.trim().split(/\s+/)[4]);
    return { dir, oid, pack: join(packs, idx.replace(/idx$/, "pack")), offset };
  }

  test("an entry declaring more than the limit is refused, naming the object and the pack", async () => {
    const { dir, oid, pack, offset } = await packed();
    const got = await readA(dir, { maxObjectBytes: 1000, ...natives });
    expect(got._unsafeUnwrapErr().message).toBe(
      `cannot read "a.txt": the git object ${oid} in ${pack} is refused: the entry at offset ${offset} declares 2000000 bytes, over the limit of 1000`,
    );
    expect((await readA(dir, natives))._unsafeUnwrap().length).toBe(2_000_000);
  });

  test("an entry whose stream inflates past its declared size is stopped there", async () => {
    const { dir, oid, pack, offset } = await packed();
    const bytes = nodeFs.readFileSync(pack);
    bytes[offset] = (bytes[offset] ?? 0) & 0xf0;
    for (let p = offset + 1; (bytes[p] ?? 0) & 0x80; p++) bytes[p + 1] = (bytes[p + 1] ?? 0) & 0x80 ? 0x80 : 0;
    for (let p = offset + 1; p < offset + 4 && (bytes[p - 1] ?? 0) & 0x80; p++) bytes[p] = (bytes[p] ?? 0) & 0x80;
    // Re-seal the pack (its trailer and the index's copy of it) so only the entry is wrong.
    const sum = createHash("sha1")
      .update(bytes.subarray(0, bytes.length - 20))
      .digest();
    sum.copy(bytes, bytes.length - 20);
    const idxPath = pack.replace(/pack$/, "idx");
    const idx = nodeFs.readFileSync(idxPath);
    sum.copy(idx, idx.length - 40);
    for (const [file, data] of [
      [pack, bytes],
      [idxPath, idx],
    ] as const) {
      nodeFs.chmodSync(file, 0o644);
      nodeFs.writeFileSync(file, data);
    }
    const got = await readA(dir, { maxObjectBytes: 1000, ...natives });
    expect(got._unsafeUnwrapErr().message).toBe(
      `cannot read "a.txt": the git object ${oid} in ${pack} is refused: the entry at offset ${offset} inflates past the 0 bytes it declares`,
    );
  });
});

describe("gitTree's own size limits are bounds or a fault", () => {
  test("a maxObjectBytes or maxFileBytes that is no positive integer makes every call a fault naming it", async () => {
    const { dir } = await repo();
    for (const [option, value] of [
      ["maxObjectBytes", Number.NaN],
      ["maxObjectBytes", 0],
      ["maxFileBytes", 1.5],
      ["maxFileBytes", "1000"],
    ] as const) {
      const tree = gitTree({ fs: nodeFs, dir, ref: "HEAD", [option]: value } as Parameters<typeof gitTree>[0]);
      for (const got of [await tree.read("a.txt", 1024), await tree.list("")]) {
        expect(got._unsafeUnwrapErr()).toMatchObject({ code: "tree-io" });
        expect(got._unsafeUnwrapErr().message).toContain(`gitTree option ${option} must be a positive integer number of bytes`);
      }
    }
    // A valid bound reads as before.
    expect(new TextDecoder().decode((await readA(dir, { maxObjectBytes: 1000 }))._unsafeUnwrap())).toBe("hello\n");
  });
});
