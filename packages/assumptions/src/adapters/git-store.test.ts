import { execFileSync } from "node:child_process";
import * as nodeFs from "node:fs";
import { join } from "node:path";
import { deflateSync } from "node:zlib";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { inflatePeek } from "./git-peek.js";
import { applyDelta } from "./git-store.js";
import { parseTree } from "./git-tree.js";
import type { GitFs } from "./git-repo.js";
import { type GitTreeOptions, gitTree } from "./git.js";
import { nodeSha1Hex } from "../node/hashes.js";
import { nodeInflate } from "../node/inflate.js";
import { declaring, repackByHand } from "../../test/support/pack-fixture.js";
import { commitSpec, git, scratchDir } from "../../test/support/test-fixtures.js";

/** How gitTree hashes and inflates: portably, and with what plan-decay --ref passes in Node. */
const NATIVES: readonly (readonly [string, Pick<GitTreeOptions, "sha1Hex" | "inflate">])[] = [
  ["portable", {}],
  ["node:crypto and node:zlib", { sha1Hex: nodeSha1Hex, inflate: nodeInflate }],
];

/** A repository with `versions` commits, each editing every file a little, so packing makes delta chains. */
async function history(versions: number): Promise<{ dir: string; files: string[] }> {
  const dir = join(await scratchDir(), "r");
  const files = ["src/a.ts", "src/deep/b.ts", "c.md"];
  const body = (f: string, v: number) => Array.from({ length: 200 }, (_, i) => `${f} line ${i} ${i % 17 === v % 17 ? `v${v}` : ""}\n`).join("");
  // One file large and random enough to take the native inflater (over 8 KiB compressed).
  const big = Array.from({ length: 4000 }, (_, i) => ((i * 2654435761) >>> 0).toString(16)).join("");
  commitSpec(dir, { files: { ...Object.fromEntries(files.map((f) => [f, body(f, 0)])), "big.txt": big }, links: {} });
  for (let v = 1; v < versions; v++) {
    for (const f of files) nodeFs.writeFileSync(join(dir, f), body(f, v));
    git(dir, "commit", "-qam", `v${v}`);
  }
  return { dir, files: [...files, "big.txt"] };
}

/** Every file at every commit read through gitTree equals what git itself shows. */
async function expectSameAsGit(dir: string, files: string[], versions: number, fs: GitFs = nodeFs): Promise<void> {
  for (let back = 0; back < versions; back++) {
    for (const [, natives] of NATIVES) await sameAsGitAt(gitTree({ fs, dir, ref: `HEAD~${back}`, ...natives }), dir, files, back);
  }
}

async function sameAsGitAt(tree: ReturnType<typeof gitTree>, dir: string, files: string[], back: number): Promise<void> {
  for (const f of files) {
    const want = execFileSync("git", ["show", `HEAD~${back}:${f}`], { cwd: dir });
    expect(Buffer.from((await tree.read(f, 1 << 20))._unsafeUnwrap())).toEqual(want);
  }
  expect((await tree.list("src"))._unsafeUnwrap().map((e) => e.name)).toEqual(["a.ts", "deep"]);
}

describe("objects read from the store: loose, packed with offset and ref deltas, mixed", () => {
  test("loose objects, through an fs with synchronous calls and through one with promises only", async () => {
    const { dir, files } = await history(6);
    await expectSameAsGit(dir, files, 6);
    await expectSameAsGit(dir, files, 6, { promises: nodeFs.promises } as unknown as GitFs);
  });

  test("a pack of offset-delta chains", async () => {
    const { dir, files } = await history(12);
    git(dir, "repack", "-adfq", "--depth=50", "--window=50");
    expect(git(dir, "count-objects", "-v")).toMatch(/^count: 0$/m);
    expect(
      git(
        dir,
        "verify-pack",
        "-v",
        ...nodeFs
          .readdirSync(join(dir, ".git/objects/pack"))
          .filter((f) => f.endsWith(".idx"))
          .map((f) => join(dir, ".git/objects/pack", f)),
      ),
    ).toMatch(/chain length = [2-9]/);
    await expectSameAsGit(dir, files, 12);
    await expectSameAsGit(dir, files, 12, { promises: nodeFs.promises } as unknown as GitFs);
  });

  test("a pack of ref deltas, and loose objects beside it", async () => {
    const { dir, files } = await history(8);
    git(dir, "-c", "repack.useDeltaBaseOffset=false", "repack", "-adfq", "--depth=50");
    nodeFs.writeFileSync(join(dir, "c.md"), "after the pack\n");
    git(dir, "commit", "-qam", "loose");
    expect(git(dir, "count-objects", "-v")).not.toMatch(/^count: 0$/m);
    await expectSameAsGit(
      dir,
      files.filter((f) => f !== "c.md"),
      9,
    );
    expect(Buffer.from((await gitTree({ fs: nodeFs, dir, ref: "HEAD" }).read("c.md", 100))._unsafeUnwrap()).toString()).toBe("after the pack\n");
  });

  test("a FIFO in place of a loose object is refused, never opened (synchronous and promise fs alike)", async () => {
    const dir = join(await scratchDir(), "r");
    commitSpec(dir, { files: { "a.txt": "hello\n" }, links: {} });
    const oid = git(dir, "rev-parse", "HEAD:a.txt");
    const file = join(dir, ".git", "objects", oid.slice(0, 2), oid.slice(2));
    nodeFs.rmSync(file, { force: true });
    execFileSync("mkfifo", [file]);
    for (const fs of [nodeFs, { promises: nodeFs.promises } as unknown as GitFs]) {
      const got = await gitTree({ fs, dir, ref: "HEAD" }).read("a.txt", 100);
      expect(got._unsafeUnwrapErr().message).toContain(`${file} in the object store is not a regular file (a FIFO, socket or device)`);
    }
  });

  test("a loose object whose content does not hash to its id is a fault naming it", async () => {
    const dir = join(await scratchDir(), "r");
    commitSpec(dir, { files: { "a.txt": "hello\n" }, links: {} });
    const oid = git(dir, "rev-parse", "HEAD:a.txt");
    const file = join(dir, ".git", "objects", oid.slice(0, 2), oid.slice(2));
    nodeFs.chmodSync(file, 0o644);
    nodeFs.writeFileSync(file, deflateSync(Buffer.from("blob 6\0jello\n")));
    for (const [how, natives] of NATIVES) {
      const got = await gitTree({ fs: nodeFs, dir, ref: "HEAD", ...natives }).read("a.txt", 100);
      expect(got._unsafeUnwrapErr().message, how).toMatch(new RegExp(`the git object ${oid} in .* is corrupt: InternalError: SHA check failed`));
    }
  });
  test("a packed entry that inflates to fewer bytes than its header declares is a fault (git: corrupt), not its bytes", async () => {
    const dir = join(await scratchDir(), "r");
    commitSpec(dir, { files: { "a.txt": "hello\n" }, links: {} });
    const oid = git(dir, "rev-parse", "HEAD:a.txt");
    const pack = repackByHand(dir, { [oid]: declaring(11) });
    expect(() => execFileSync("git", ["-C", dir, "cat-file", "-p", oid], { stdio: "ignore" })).toThrow();
    for (const [how, natives] of NATIVES) {
      const got = (await gitTree({ fs: nodeFs, dir, ref: "HEAD", ...natives }).read("a.txt", 100))._unsafeUnwrapErr();
      expect(got.message, how).toMatch(
        new RegExp(
          `^cannot read "a.txt": the git object ${oid} in .* is corrupt: InternalError: the entry at offset \\d+ of ${pack} inflates to 6 of the 11 bytes it declares$`,
        ),
      );
    }
  });
});

describe("a loose object with bytes after its zlib stream is corrupt, as git's reader and fsck call it", () => {
  /** Text of about `n` bytes that deflates poorly enough to reach each size class (once, each took another inflater; now all take the small one). */
  const text = (n: number) => Array.from({ length: n / 8 }, (_, i) => ((i * 2654435761) >>> 0).toString(16).padStart(8, "0")).join("");
  const sizes: [string, string, number, number][] = [
    ["a small blob (the small inflater)", "hello\n", 0, 8 * 1024],
    ["a blob over 8 KiB compressed (once the native inflater)", text(24_000), 8 * 1024, 64 * 1024],
    ["a blob over 64 KiB compressed (once inflated by the guard as well)", text(320_000), 64 * 1024, Number.POSITIVE_INFINITY],
  ];
  /** Appends `tail(file bytes)` to the loose file of `oid`; returns that file. */
  const spoil = (dir: string, oid: string, tail: (bytes: Buffer) => Buffer): string => {
    const file = join(dir, ".git", "objects", oid.slice(0, 2), oid.slice(2));
    nodeFs.chmodSync(file, 0o644);
    const bytes = nodeFs.readFileSync(file);
    nodeFs.writeFileSync(file, Buffer.concat([bytes, tail(bytes)]));
    return file;
  };
  const tails: [string, (bytes: Buffer) => Buffer][] = [
    ["three bytes", () => Buffer.from("xyz")],
    ["one zero byte", () => Buffer.from([0])],
    ["its own checksum again (the stream's last four bytes)", (bytes) => bytes.subarray(bytes.length - 4)],
    ["a second zlib stream", () => deflateSync(Buffer.from("more"))],
  ];

  test.each(sizes.flatMap(([what, body, over, under]) => tails.map(([how, tail]) => [`${what}, then ${how}`, body, over, under, tail] as const)))(
    "%s",
    async (_, body, over, under, tail) => {
      const dir = join(await scratchDir(), "r");
      commitSpec(dir, { files: { "a.txt": body }, links: {} });
      const oid = git(dir, "rev-parse", "HEAD:a.txt");
      const file = spoil(dir, oid, tail);
      const size = nodeFs.statSync(file).size;
      expect(size > over && size < under, `${size} compressed bytes`).toBe(true);
      expect(() => execFileSync("git", ["-C", dir, "fsck", "--no-dangling"], { stdio: "pipe" })).toThrow(`garbage at end of loose object '${oid}'`);
      expect(() => execFileSync("git", ["-C", dir, "archive", "HEAD"], { stdio: "pipe" })).toThrow(`garbage at end of loose object '${oid}'`);
      for (const [how, natives] of NATIVES) {
        const got = (await gitTree({ fs: nodeFs, dir, ref: "HEAD", ...natives }).read("a.txt", 1 << 20))._unsafeUnwrapErr();
        expect(got.code, how).toBe("tree-io");
        expect(got.message, how).toMatch(
          new RegExp(
            `^cannot read "a.txt": the git object ${oid} in .* is corrupt: InternalError: garbage at end of loose object ${file}: \\d+ bytes after its zlib stream$`,
          ),
        );
      }
    },
  );

  test.each([
    ["a tree", "HEAD^{tree}", "ls-tree"],
    ["a commit", "HEAD", "log"],
  ])("%s, which git itself will not read", async (_, rev, command) => {
    const dir = join(await scratchDir(), "r");
    commitSpec(dir, { files: { "a.txt": "hello\n" }, links: {} });
    const oid = git(dir, "rev-parse", rev);
    spoil(dir, oid, () => Buffer.from("xyz"));
    expect(() => execFileSync("git", ["-C", dir, command, "HEAD"], { stdio: "pipe" })).toThrow(`garbage at end of loose object '${oid}'`);
    const got = (await gitTree({ fs: nodeFs, dir, ref: "HEAD" }).list(""))._unsafeUnwrapErr();
    expect(got.code).toBe("tree-io");
    expect(got.message).toContain(`the git object ${oid} in `);
    expect(got.message).toContain(`is corrupt: InternalError: garbage at end of loose object `);
  });
});

describe("a directory of the object store that cannot be listed is a fault saying why, not a missing object", () => {
  test("objects/pack a symbolic link loop (ELOOP)", async () => {
    const dir = join(await scratchDir(), "r");
    commitSpec(dir, { files: { "a.txt": "hello\n" }, links: {} });
    git(dir, "repack", "-adq");
    git(dir, "prune-packed");
    const pack = join(dir, ".git", "objects", "pack");
    nodeFs.renameSync(pack, `${pack}.real`);
    nodeFs.symlinkSync("pack", pack);
    expect(() => execFileSync("git", ["-C", dir, "cat-file", "-p", "HEAD:a.txt"], { stdio: "ignore" })).toThrow();
    const got = (await gitTree({ fs: nodeFs, dir, ref: "HEAD" }).list(""))._unsafeUnwrapErr();
    expect(got.code).toBe("tree-io");
    expect(got.message).toContain(`${pack}: ELOOP`);
  });
});

describe("a missing object is a fault, never an absent entry", () => {
  test("a subtree whose object is missing: listing it, reading under it and looking for a name in it are tree-io", async () => {
    const dir = join(await scratchDir(), "r");
    commitSpec(dir, { files: { "a.txt": "a\n", "d/b.txt": "b\n" }, links: {} });
    const sub = git(dir, "rev-parse", "HEAD:d");
    nodeFs.rmSync(join(dir, ".git", "objects", sub.slice(0, 2), sub.slice(2)));
    const tree = gitTree({ fs: nodeFs, dir, ref: "HEAD" });
    expect((await tree.list(""))._unsafeUnwrap().map((e) => e.name)).toEqual(["a.txt", "d"]);
    for (const got of [await tree.list("d"), await tree.read("d/b.txt", 10), await tree.read("d/none", 10), await tree.readLink("d/x")]) {
      expect(got._unsafeUnwrapErr()).toMatchObject({ code: "tree-io", message: expect.stringContaining(`the git object ${sub} is missing from `) });
    }
  });
});

describe("delta chains as long as git makes them", () => {
  /** One 3,000-line file, one line edited in each of `commits` commits, repacked with git's deepest chains. */
  async function edited(commits: number): Promise<string> {
    const dir = join(await scratchDir(), "r");
    const lines = Array.from({ length: 3000 }, (_, i) => `config entry number ${i + 1}`);
    commitSpec(dir, { files: { "f.txt": `${lines.join("\n")}\n` }, links: {} });
    for (let c = 1; c <= commits; c++) {
      lines[(c * 7919) % 3000] = `edited in commit ${c}`;
      nodeFs.writeFileSync(join(dir, "f.txt"), `${lines.join("\n")}\n`);
      git(dir, "commit", "-qam", `c${c}`);
    }
    git(dir, "repack", "-q", "-adf", "--depth=250", "--window=250");
    return dir;
  }

  // The longest chain `git verify-pack` reports in the repository's one pack.
  function longestChain(dir: string): number {
    const pack = nodeFs.readdirSync(join(dir, ".git/objects/pack")).find((f) => f.endsWith(".idx")) ?? "";
    const stats = execFileSync("git", ["verify-pack", "-v", join(dir, ".git/objects/pack", pack)], { encoding: "utf8" });
    return Math.max(...[...stats.matchAll(/^chain length = (\d+):/gm)].map((m) => Number(m[1])));
  }

  test("a chain of a hundred and more links reads as git reads it; one that rebuilds more than 64 objects at the limit is refused", async () => {
    const dir = await edited(160);
    expect(longestChain(dir)).toBeGreaterThan(100);
    for (const back of [0, 40, 80, 120, 159]) {
      const want = execFileSync("git", ["show", `HEAD~${back}:f.txt`], { cwd: dir });
      expect(Buffer.from((await gitTree({ fs: nodeFs, dir, ref: `HEAD~${back}` }).read("f.txt", 1 << 20))._unsafeUnwrap())).toEqual(want);
    }
    // Each version is about 67 KB: with objects bounded at 80 KB, 65 of them is about 5.2 MB of
    // rebuilding, which the deepest chains here pass.
    const deepest = await Promise.all(
      Array.from({ length: 160 }, (_, back) => gitTree({ fs: nodeFs, dir, ref: `HEAD~${back}`, maxObjectBytes: 80_000 }).read("f.txt", 1 << 20)),
    );
    const refused = deepest.filter((r) => r.isErr()).map((r) => r._unsafeUnwrapErr().message);
    expect(refused.length).toBeGreaterThan(0);
    for (const message of refused) expect(message).toMatch(/its delta chain rebuilds \d+ bytes, over 65 times the object limit of 80000$/);
  });
});

describe("the bounds of a packed object, at their edges", () => {
  test("a chain of 64 links of objects at maxObjectBytes reads, as it did when 64 links was the bound", async () => {
    const dir = join(await scratchDir(), "r");
    // Every version the same size, so each object on a chain is at the limit.
    const lines = Array.from({ length: 2000 }, (_, i) => `config entry number ${String(i).padStart(6, "0")}`);
    commitSpec(dir, { files: { "f.txt": `${lines.join("\n")}\n` }, links: {} });
    for (let c = 1; c <= 90; c++) {
      lines[(c * 7919) % 2000] = `edited in commit num ${String(c).padStart(6, "0")}`;
      nodeFs.writeFileSync(join(dir, "f.txt"), `${lines.join("\n")}\n`);
      git(dir, "commit", "-qam", `c${c}`);
    }
    git(dir, "repack", "-q", "-adf", "--depth=80", "--window=250");
    const packDir = join(dir, ".git/objects/pack");
    const idx = join(packDir, nodeFs.readdirSync(packDir).find((f) => f.endsWith(".idx")) ?? "");
    // Each object's chain length, as `git verify-pack -v` gives it (the sixth field of a delta's line).
    const depthOf = new Map<string, number>();
    for (const line of execFileSync("git", ["verify-pack", "-v", idx], { encoding: "utf8" }).split("\n")) {
      const f = line.split(/\s+/);
      if (f[1] === "blob") depthOf.set(f[0] as string, f.length > 6 ? Number(f[5]) : 0);
    }
    const size = nodeFs.statSync(join(dir, "f.txt")).size;
    const depths: number[] = [];
    for (let back = 0; back <= 90; back++) {
      const depth = depthOf.get(git(dir, "rev-parse", `HEAD~${back}:f.txt`)) ?? -1;
      if (depth > 64) continue;
      depths.push(depth);
      const got = await gitTree({ fs: nodeFs, dir, ref: `HEAD~${back}`, maxObjectBytes: size }).read("f.txt", 1 << 20);
      expect(got.isOk() ? "read" : got.error.message, `HEAD~${back}, ${depth} links`).toBe("read");
    }
    expect(depths).toContain(64);
  });

  test("an incompressible object of exactly maxObjectBytes, packed by git, reads", async () => {
    const dir = join(await scratchDir(), "r");
    const big = new Uint8Array(1 << 20);
    for (let i = 0, x = 88172645; i < big.length; i++) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      big[i] = x & 0xff;
    }
    commitSpec(dir, { files: { "big.bin": big }, links: {} });
    git(dir, "repack", "-q", "-ad");
    const got = await gitTree({ fs: nodeFs, dir, ref: "HEAD", maxObjectBytes: big.length }).read("big.bin", big.length);
    expect(Buffer.from(got._unsafeUnwrap()).equals(Buffer.from(big))).toBe(true);
  });
});

describe("a pack larger than maxFileBytes (or 128 MiB)", () => {
  test("is read an entry at a time: every object as git reads it; a pack cut short is refused where its index places an entry", async () => {
    const dir = join(await scratchDir(), "r");
    // 256 KiB that deflate cannot shrink, so the one pack is well over the 64 KiB bound below.
    const big = new Uint8Array(256 * 1024);
    for (let i = 0, x = 2463534242; i < big.length; i++) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      big[i] = x & 0xff;
    }
    commitSpec(dir, { files: { "big.bin": big, "a.txt": "hello\n", "src/b.ts": "export const b = 1;\n" }, links: {} });
    git(dir, "repack", "-q", "-ad");
    const packDir = join(dir, ".git/objects/pack");
    const pack = join(packDir, nodeFs.readdirSync(packDir).find((f) => f.endsWith(".pack")) ?? "");
    const bound = 64 * 1024;
    expect(nodeFs.statSync(pack).size).toBeGreaterThan(4 * bound);
    const tree = gitTree({ fs: nodeFs, dir, ref: "HEAD", maxFileBytes: bound });
    for (const f of ["a.txt", "src/b.ts", "big.bin"]) {
      const want = execFileSync("git", ["show", `HEAD:${f}`], { cwd: dir });
      expect(Buffer.from((await tree.read(f, 1 << 20))._unsafeUnwrap()).equals(want), f).toBe(true);
    }
    // An fs with promises alone cannot read part of a file: the pack is read whole, and refused.
    const promisesOnly = { promises: nodeFs.promises } as unknown as GitFs;
    const whole = (await gitTree({ fs: promisesOnly, dir, ref: "HEAD", maxFileBytes: bound }).read("a.txt", 100))._unsafeUnwrapErr();
    expect(whole.message).toContain(`${pack} in the object store is larger than the limit of ${bound} bytes`);
    // Cut 100 bytes short: the entries the index places past the cut are not there.
    const cutAt = nodeFs.statSync(pack).size - 100;
    nodeFs.truncateSync(pack, cutAt);
    const cut = (await gitTree({ fs: nodeFs, dir, ref: "HEAD", maxFileBytes: bound }).read("big.bin", 1 << 20))._unsafeUnwrapErr();
    expect(cut.code).toBe("tree-io");
    expect(cut.message).toMatch(new RegExp(`${pack} in the object store ends at byte ${cutAt}, inside bytes \\d+ to \\d+ its index names$`));
  });
});

describe("delta chains that never reach a base are refused, not followed", () => {
  /** A delta (base size, result size, one insert) that turns any 6-byte base into `hello\n`. */
  const delta = deflateSync(Buffer.from([6, 6, 6, ...Buffer.from("hello\n")]));

  test.each([
    [
      "an offset delta whose base is itself (offset 0 back)",
      (_a: string, _b: string) => ({ size: 9, type: 6, data: Buffer.concat([Buffer.from([0]), delta]) }),
    ],
    ["two ref deltas, each the other's base", (_a: string, b: string) => ({ size: 9, type: 7, data: Buffer.concat([Buffer.from(b, "hex"), delta]) })],
  ])("%s", async (_, write) => {
    const dir = join(await scratchDir(), "r");
    commitSpec(dir, { files: { "a.txt": "hello\n", "b.txt": "other\n" }, links: {} });
    const a = git(dir, "rev-parse", "HEAD:a.txt");
    const b = git(dir, "rev-parse", "HEAD:b.txt");
    const pack = repackByHand(dir, { [a]: () => write(a, b), [b]: () => write(b, a) });
    const got = (await gitTree({ fs: nodeFs, dir, ref: "HEAD" }).read("a.txt", 100))._unsafeUnwrapErr();
    expect(got.code).toBe("tree-io");
    expect(got.message).toMatch(
      new RegExp(`^cannot read "a.txt": the git object [0-9a-f]{40} in ${pack} is refused: its delta chain comes back to an entry already on it$`),
    );
  });
});

describe("the pieces", () => {
  test("inflatePeek: any deflated bytes come back whole, or cut at max; a cut stream is corrupt; bytes after the stream are counted", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 3000 }),
        fc.integer({ min: 0, max: 9 }),
        fc.nat(4000),
        fc.uint8Array({ maxLength: 40 }),
        (bytes, level, cut, tail) => {
          const data = Buffer.concat([Buffer.from(bytes), Buffer.from(bytes.subarray(0, 500))]);
          const z = deflateSync(data, { level });
          expect(inflatePeek(z, data.length)).toEqual({ kind: "ok", bytes: new Uint8Array(data), complete: true, trailing: 0 });
          const after = inflatePeek(Buffer.concat([z, tail]), data.length);
          expect(after).toEqual({ kind: "ok", bytes: new Uint8Array(data), complete: true, trailing: tail.length });
          const max = Math.min(cut, data.length);
          const head = inflatePeek(z, max);
          expect(head.kind === "ok" && Buffer.from(head.bytes).equals(data.subarray(0, max))).toBe(true);
          expect(head.kind === "ok" && head.complete).toBe(max === data.length);
          expect(inflatePeek(z.subarray(0, z.length - 1), data.length + 1).kind).toBe("corrupt");
        },
      ),
      { numRuns: 200 },
    );
    expect(inflatePeek(Buffer.from("not zlib at all"), 10)).toEqual({ kind: "corrupt", reason: "incorrect header check" });
  });

  test("applyDelta: copies and inserts build the declared result; a copy past the base is refused", () => {
    const base = Buffer.from("0123456789");
    // base size 10, result size 7: copy 4 bytes from offset 2, insert "xyz".
    const delta = Buffer.from([10, 7, 0x80 | 0x01 | 0x10, 2, 4, 3, 0x78, 0x79, 0x7a]);
    expect(Buffer.from(applyDelta(delta, base)).toString()).toBe("2345xyz");
    expect(() => applyDelta(Buffer.from([10, 4, 0x80 | 0x01 | 0x10, 8, 4]), base)).toThrow(/copies past its base/);
    expect(() => applyDelta(Buffer.from([9, 1, 1, 0x41]), base)).toThrow(/base size does not match/);
    // A copy whose offset byte is cut off (read as 0, as git reads it) copies 0x10000 bytes: git
    // says "delta replay has gone wild" as the delta ran past its end.
    const big = new Uint8Array(0x10000).fill(7);
    expect(() => applyDelta(Buffer.from([0x80, 0x80, 4, 0x80, 0x80, 4, 0x81]), big)).toThrow(/runs past its end/);
  });

  test("parseTree: modes as isomorphic-git spells them, code-point order, names git refuses refused", () => {
    const oid = Buffer.alloc(20, 0xab);
    const entry = (mode: string, name: string) => Buffer.concat([Buffer.from(`${mode} ${name}\0`), oid]);
    const tree = "cd".repeat(20);
    // Written in git's order (a tree's name as if it ended in "/"), listed in code-point order.
    const written = [entry("100644", "a.b"), entry("40000", "a"), entry("100644", "b"), entry("100644", "\uFF21"), entry("120000", "\u{1F600}")];
    const entries = parseTree(Buffer.concat(written), tree);
    expect(entries.map((e) => [e.mode, e.path, e.type])).toEqual([
      ["040000", "a", "tree"],
      ["100644", "a.b", "blob"],
      ["100644", "b", "blob"],
      ["100644", "\uFF21", "blob"],
      ["120000", "\u{1F600}", "blob"],
    ]);
    expect(entries[0]?.oid).toBe("ab".repeat(20));
    for (const bad of [".git", ".GIT. ", "git~1", "..", ".g\u200Cit"]) expect(() => parseTree(entry("100644", bad), tree)).toThrow(/unsafe/);
    // A backslash is a name's own character, as git reads it on POSIX.
    expect(parseTree(entry("100644", "a\\b"), tree).map((e) => e.path)).toEqual(["a\\b"]);
    expect(() => parseTree(entry("100600", "x"), tree)).toThrow(/Unexpected GitTree entry mode: 100600/);
  });
});
