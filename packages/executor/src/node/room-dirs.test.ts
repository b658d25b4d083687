// removeTree over real temp directories: what `rm -rf` removes, and nothing through a link.
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../../test-utils/tmp.js";
import { removeTree } from "./room-dirs.js";

describe("removeTree", () => {
  it("removes a tree of directories, files, links and a name that is not UTF-8; what a link leads to stays", async () => {
    const base = await tempDir("decay-remove-");
    const outside = join(base, "outside");
    mkdirSync(outside);
    writeFileSync(join(outside, "keep.txt"), "keep\n");
    const room = join(base, "room");
    for (let d = 0; d < 20; d += 1) {
      const dir = join(room, `d${d}`, "deeper", "still");
      mkdirSync(dir, { recursive: true });
      for (let f = 0; f < 150; f += 1) writeFileSync(join(dir, `f${f}.txt`), "x\n");
    }
    mkdirSync(join(room, "empty"));
    symlinkSync(outside, join(room, "to-outside"));
    symlinkSync(join(outside, "keep.txt"), join(room, "d0", "to-file"));
    symlinkSync("nowhere", join(room, "dangling"));
    writeFileSync(join(room, "read-only.txt"), "r\n");
    chmodSync(join(room, "read-only.txt"), 0o444);
    writeFileSync(Buffer.concat([Buffer.from(`${room}/`), Buffer.from([0x63, 0x61, 0x66, 0xe9])]), "latin-1 name\n");
    await removeTree(room, 4);
    expect(existsSync(room)).toBe(false);
    expect(readdirSync(base)).toEqual(["outside"]);
    expect(readFileSync(join(outside, "keep.txt"), "utf8")).toBe("keep\n");
  });

  it("a path already gone is no fault; a file or a link given as the path is removed itself, never what it leads to", async () => {
    const base = await tempDir("decay-remove-");
    await removeTree(join(base, "never-was"));
    writeFileSync(join(base, "file.txt"), "f\n");
    await removeTree(join(base, "file.txt"));
    mkdirSync(join(base, "target"));
    writeFileSync(join(base, "target", "kept.txt"), "k\n");
    symlinkSync(join(base, "target"), join(base, "link"));
    await removeTree(join(base, "link"));
    expect(readdirSync(base)).toEqual(["target"]);
    expect(readdirSync(join(base, "target"))).toEqual(["kept.txt"]);
  });

  it("one directory of many entries, one at a time or many: all gone", async () => {
    for (const width of [1, 16]) {
      const room = join(await tempDir("decay-remove-"), "room");
      mkdirSync(room);
      for (let f = 0; f < 3_000; f += 1) writeFileSync(join(room, `f${f}`), "");
      await removeTree(room, width);
      expect([width, existsSync(room)]).toEqual([width, false]);
    }
  });
});
