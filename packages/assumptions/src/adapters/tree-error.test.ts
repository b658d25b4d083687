import * as nodeFs from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { commitSpec, scratchDir } from "../../test/support/test-fixtures.js";
import { nodeTree } from "../node/tree.js";
import { gitTree } from "./git.js";
import { decodeName } from "./tree-error.js";

describe("decodeName", () => {
  test("strict UTF-8, a leading U+FEFF kept as part of the name", () => {
    const bytes = (...b: number[]) => Uint8Array.from(b);
    expect(decodeName(new TextEncoder().encode("Caf\u00e9.txt"))).toBe("Caf\u00e9.txt");
    expect(decodeName(bytes(0xef, 0xbb, 0xbf, 0x78))).toBe("\ufeffx");
    for (const bad of [bytes(0x78, 0xff), bytes(0xc0, 0xaf), bytes(0xed, 0xa0, 0x80)]) expect(decodeName(bad)).toBeUndefined();
  });

  test("a git tree and the checkout it came from spell a name and a link target that start with U+FEFF alike", async () => {
    const dir = join(await scratchDir(), "r");
    commitSpec(dir, { files: { "\ufeffx.txt": "bom\n" }, links: { l: "\ufefftarget" } });
    for (const tree of [gitTree({ fs: nodeFs, dir, ref: "HEAD" }), nodeTree(dir)]) {
      const names = (await tree.list(""))._unsafeUnwrap().map((e) => e.name);
      expect(names).toContain("\ufeffx.txt");
      expect(names).not.toContain("x.txt");
      expect(new TextDecoder().decode((await tree.read("\ufeffx.txt", 100))._unsafeUnwrap())).toBe("bom\n");
      expect((await tree.read("x.txt", 100))._unsafeUnwrapErr().code).toBe("tree-not-found");
      expect((await tree.readLink("l"))._unsafeUnwrap()).toBe("\ufefftarget");
    }
  });
});
