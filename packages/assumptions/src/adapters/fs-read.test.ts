import fc from "fast-check";
import { memfs } from "memfs";
import { describe, expect, test } from "vitest";
import type { TreeFs } from "./fs-calls.js";
import { memfsTree } from "./memfs.js";

// What a caller holds must never change under it, whatever is read next.
describe("bytes handed out by a read stay the caller's own", () => {
  test("hundreds of small reads keep their bytes while later files are read", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 300; i += 1) files[`/t/f${i}.txt`] = String.fromCharCode(65 + (i % 26)).repeat(100 + ((i * 37) % 900));
    const { fs } = memfs(files);
    const tree = memfsTree(fs, "/t");
    const held: Uint8Array[] = [];
    for (let i = 0; i < 300; i += 1) held.push((await tree.read(`f${i}.txt`, 10_000))._unsafeUnwrap());
    for (let i = 0; i < 300; i += 1) expect(new TextDecoder().decode(held[i])).toBe(files[`/t/f${i}.txt`]);
  });

  test("a large file and an empty file read exactly, between small ones", async () => {
    const big = "x".repeat(200_000);
    const { fs } = memfs({ "/t/a": "first", "/t/big": big, "/t/empty": "", "/t/b": "second" });
    const tree = memfsTree(fs, "/t");
    const reads = [];
    for (const name of ["a", "big", "empty", "b"]) reads.push((await tree.read(name, 1_000_000))._unsafeUnwrap());
    expect(reads.map((r) => new TextDecoder().decode(r))).toEqual(["first", big, "", "second"]);
  });

  test("property: any sequence of file sizes reads back byte for byte, earlier reads untouched", async () => {
    const sizes = fc.array(fc.oneof(fc.nat(300), fc.nat(12_000)), { minLength: 1, maxLength: 40 });
    await fc.assert(
      fc.asyncProperty(sizes, async (lengths) => {
        const { fs } = memfs({ "/t": null });
        const files = lengths.map((n, i) => new Uint8Array(n).fill(1 + (i % 250)));
        files.forEach((bytes, i) => fs.writeFileSync(`/t/f${i}`, bytes));
        const tree = memfsTree(fs, "/t");
        const held: Uint8Array[] = [];
        for (let i = 0; i < files.length; i += 1) held.push((await tree.read(`f${i}`, 20_000))._unsafeUnwrap());
        // Buffer.compare: element-wise deep equality over thousands of bytes is slow in a property.
        held.forEach((bytes, i) => expect(Buffer.compare(bytes, files[i] as Uint8Array)).toBe(0));
      }),
      { numRuns: 40 },
    );
  });

  test("a filesystem that answers reads a few bytes at a time (FUSE, NFS) is read to the end", async () => {
    const { fs } = memfs({ "/t/a.txt": "a longer line of text\nand the literal at the end\n" });
    // The real memfs, with every read capped at 5 bytes: a short read is not the end of a file.
    const trickle: TreeFs = Object.assign(Object.create(fs) as TreeFs, {
      readSync: (fd: number, buffer: Uint8Array, offset: number, length: number, position: number) =>
        fs.readSync(fd, buffer, offset, Math.min(length, 5), position),
    });
    const bytes = (await memfsTree(trickle, "/t").read("a.txt", 1_000))._unsafeUnwrap();
    expect(new TextDecoder().decode(bytes)).toBe("a longer line of text\nand the literal at the end\n");
    expect((await memfsTree(trickle, "/t").read("a.txt", 20))._unsafeUnwrapErr().code).toBe("tree-too-large");
  });

  // fstat and the read are two moments: the bytes read, not the size fstat gave, are the file.
  test("a file that grew after its fstat is read to its real end, however much it grew", async () => {
    const text = "the first line\nthe literal that was appended later\n";
    const { fs } = memfs({ "/t/a.txt": text });
    for (const claimed of [0, 1, 14, text.length - 1]) {
      const stale: TreeFs = Object.assign(Object.create(fs) as TreeFs, {
        fstatSync: (fd: number) => Object.assign(fs.fstatSync(fd), { size: claimed }),
      });
      const bytes = (await memfsTree(stale, "/t").read("a.txt", 1_000))._unsafeUnwrap();
      expect(new TextDecoder().decode(bytes)).toBe(text);
    }
  });

  test("a file that shrank after its fstat is read up to its real end", async () => {
    const { fs } = memfs({ "/t/a.txt": "short" });
    const stale: TreeFs = Object.assign(Object.create(fs) as TreeFs, {
      fstatSync: (fd: number) => Object.assign(fs.fstatSync(fd), { size: 4_000 }),
    });
    expect(new TextDecoder().decode((await memfsTree(stale, "/t").read("a.txt", 10_000))._unsafeUnwrap())).toBe("short");
  });
});

// A bound that is no positive integer compared as "not too large" with every size and sized a
// buffer of nothing: a file read as empty. The reader refuses it; the adapter's answer is a fault.
describe("a read limit that is no bound", () => {
  test("NaN is a tree-io fault from the read, never empty bytes; 0, -1 and 1.5 are under the size", async () => {
    const { fs } = memfs({ "/t/config.env": "SECRET_TOKEN=1\n" });
    const tree = memfsTree(fs, "/t");
    const read = await tree.read("config.env", Number.NaN);
    expect(read._unsafeUnwrapErr()).toMatchObject({ code: "tree-io", path: "config.env", message: expect.stringContaining("not a positive integer") });
    for (const bad of [0, -1, 1.5]) expect((await tree.read("config.env", bad))._unsafeUnwrapErr().code).toBe("tree-too-large");
    expect(new TextDecoder().decode((await tree.read("config.env", Number.POSITIVE_INFINITY))._unsafeUnwrap())).toBe("SECRET_TOKEN=1\n");
  });
});
