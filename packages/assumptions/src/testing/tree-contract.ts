// The TreeReader contract: what every adapter promises, written once and registered per adapter
// (each adapter's test file supplies only a factory). Exported from `@decay/assumptions/testing`, so
// a harness author can hold an adapter of their own to the same promises.
import { beforeAll, describe, expect, test } from "vitest";
import type { ResultAsync } from "neverthrow";
import type { TreeError, TreeReader } from "../tree.js";

/** A tree to build: file bytes by path, and symbolic links (path → stored target text). */
export interface TreeSpec {
  readonly files: Readonly<Record<string, string | Uint8Array>>;
  readonly links: Readonly<Record<string, string>>;
}

/** The minimal synchronous node:fs shape `writeSpec` needs (node:fs and memfs both have it). */
export interface SpecWriterFs {
  mkdirSync(path: string, options: { recursive: true }): unknown;
  writeFileSync(path: string, data: Uint8Array | string): void;
  symlinkSync(target: string, path: string): void;
}

const NFD_NAME = "Cafe\u0301.txt";
const BINARY = new Uint8Array([0, 255, 1, 2, 13, 10, 0xc3, 0x28]);

/** The one tree the contract runs against: every entry type a git commit can also hold. */
export const CONTRACT_SPEC: TreeSpec = {
  files: {
    "a.txt": "alpha\n",
    empty: "",
    "dir/b.bin": BINARY,
    [`dir/${NFD_NAME}`]: "spelled in NFD\r\n",
    "dir/sub/c.md": "# c\n",
  },
  links: { "link-to-a": "a.txt", "dir/up": "../a.txt", dangling: "nowhere/x", "dir-link": "dir" },
};

function parentOf(path: string): string {
  const cut = path.lastIndexOf("/");
  return cut < 0 ? "" : path.slice(0, cut);
}

/** Writes a spec under `root` through any node:fs-shaped object. */
export function writeSpec(fs: SpecWriterFs, root: string, spec: TreeSpec): void {
  const under = (p: string): string => (p === "" ? root : `${root}/${p}`);
  for (const [path, body] of Object.entries(spec.files)) {
    fs.mkdirSync(under(parentOf(path)), { recursive: true });
    fs.writeFileSync(under(path), body);
  }
  for (const [path, target] of Object.entries(spec.links)) {
    fs.mkdirSync(under(parentOf(path)), { recursive: true });
    fs.symlinkSync(target, under(path));
  }
}

/** Awaits an operation that must fail and returns its TreeError. */
async function failure<T>(run: ResultAsync<T, TreeError>): Promise<TreeError> {
  const r = await run;
  expect(r.isErr()).toBe(true);
  return r._unsafeUnwrapErr();
}

function text(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes);
}

/** Registers the TreeReader contract tests for one adapter built by `make` from CONTRACT_SPEC. */
export function treeContract(name: string, make: (spec: TreeSpec) => Promise<TreeReader>): void {
  describe(`TreeReader contract: ${name}`, () => {
    let tree: TreeReader;
    beforeAll(async () => {
      tree = await make(CONTRACT_SPEC);
    });
    const sorted = async (path: string) => [...(await tree.list(path))._unsafeUnwrap()].sort((x, y) => (x.name < y.name ? -1 : 1));

    test("lists the root with each entry's lstat type, links as links", async () => {
      expect(await sorted("")).toEqual([
        { name: "a.txt", type: "file" },
        { name: "dangling", type: "symlink" },
        { name: "dir", type: "directory" },
        { name: "dir-link", type: "symlink" },
        { name: "empty", type: "file" },
        { name: "link-to-a", type: "symlink" },
      ]);
    });

    test("says how many calls it takes at once, if it says, as a positive integer", () => {
      const { inFlight } = tree;
      expect(inFlight === undefined || (Number.isInteger(inFlight) && inFlight >= 1)).toBe(true);
    });

    test("keeps an NFD name exactly as stored, never normalised", async () => {
      const names = (await sorted("dir")).map((e) => e.name);
      expect(names).toEqual([NFD_NAME, "b.bin", "sub", "up"].sort());
      expect(names).not.toContain(NFD_NAME.normalize("NFC"));
      expect(text((await tree.read(`dir/${NFD_NAME}`, 100))._unsafeUnwrap())).toBe("spelled in NFD\r\n");
    });

    test("reads bytes exactly, binary and empty files included", async () => {
      expect((await tree.read("dir/b.bin", 100))._unsafeUnwrap()).toEqual(BINARY);
      expect(text((await tree.read("a.txt", 100))._unsafeUnwrap())).toBe("alpha\n");
      expect((await tree.read("empty", 100))._unsafeUnwrap()).toEqual(new Uint8Array(0));
      expect(text((await tree.read("dir/sub/c.md", 100))._unsafeUnwrap())).toBe("# c\n");
    });

    test("a file of exactly maxBytes is read; one byte over is tree-too-large", async () => {
      expect((await tree.read("a.txt", 6))._unsafeUnwrap()).toHaveLength(6);
      expect(await failure(tree.read("a.txt", 5))).toMatchObject({ code: "tree-too-large", path: "a.txt" });
    });

    test("a missing path is tree-not-found for every operation", async () => {
      const results = [await tree.list("nope"), await tree.read("nope", 10), await tree.readLink("nope")];
      for (const r of [...results, await tree.read("dir/nope", 10)]) {
        expect(r.isErr() && r.error).toMatchObject({ code: "tree-not-found" });
      }
      expect(await failure(tree.list("dir/nope"))).toMatchObject({ code: "tree-not-found", path: "dir/nope" });
    });

    test("listing a file is tree-not-a-directory", async () => {
      expect(await failure(tree.list("a.txt"))).toMatchObject({ code: "tree-not-a-directory", path: "a.txt" });
    });

    test("reading a directory or a link is tree-not-a-file (links are never followed here)", async () => {
      expect(await failure(tree.read("dir", 100))).toMatchObject({ code: "tree-not-a-file", path: "dir" });
      expect(await failure(tree.read("link-to-a", 100))).toMatchObject({ code: "tree-not-a-file" });
    });

    test("a link is never listed through; a link in the middle of a path is followed", async () => {
      expect(await failure(tree.list("dir-link"))).toMatchObject({ code: "tree-not-a-directory", path: "dir-link" });
      expect(text((await tree.read("dir-link/sub/c.md", 100))._unsafeUnwrap())).toBe("# c\n");
      expect((await sorted("dir-link/sub")).map((e) => e.name)).toEqual(["c.md"]);
    });

    test("readLink returns the stored target text, dangling or not", async () => {
      expect((await tree.readLink("link-to-a"))._unsafeUnwrap()).toBe("a.txt");
      expect((await tree.readLink("dir/up"))._unsafeUnwrap()).toBe("../a.txt");
      expect((await tree.readLink("dangling"))._unsafeUnwrap()).toBe("nowhere/x");
      expect(await failure(tree.readLink("a.txt"))).toMatchObject({ code: "tree-not-a-file", path: "a.txt" });
    });

    test("a path that leaves the tree is refused, not followed", async () => {
      expect((await tree.read("../a.txt", 100)).isErr()).toBe(true);
      expect((await tree.list("dir/../..")).isErr()).toBe(true);
    });

    // What a reader hands out is the caller's to keep, however the reader allocates it.
    test("bytes a read returned stay intact however many reads follow, failed ones included", async () => {
      const first = await tree.read("a.txt", 100);
      const later = ["dir/sub/c.md", "nope", "dir/b.bin", "dir/sub/c.md", "a.txt", "dir"];
      for (const path of later) await tree.read(path, 100);
      expect(text(first._unsafeUnwrap())).toBe("alpha\n");
      expect(text((await tree.read("dir/sub/c.md", 100))._unsafeUnwrap())).toBe("# c\n");
    });

    test("every failure carries a message naming its path", async () => {
      const e = await failure(tree.read("dir/sub/missing.md", 10));
      expect(e.message).toContain("dir/sub/missing.md");
      expect(tree.describe.length).toBeGreaterThan(0);
    });
  });
}
