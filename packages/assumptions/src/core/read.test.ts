// `maxBytes` of checkTree, digestPath and authorAssumptions: a positive integer, else a fault before
// anything is read, whatever the reader. Before, NaN (`Number(process.env.LIMIT)` with LIMIT unset)
// read every file of nodeTree and memfsTree as empty, so `lacks` held over a literal that was there,
// while gitTree read the same file whole.
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { commitSpec, emptyWorkingTree, scratchDir } from "../../test/support/test-fixtures.js";
import { fixtureTree } from "../../test/support/fixture-tree.js";
import { gitTree } from "../adapters/git.js";
import { nodeTree } from "../node/tree.js";
import type { TreeReader } from "../tree.js";
import { authorAssumptions } from "./author.js";
import { checkTree } from "./check.js";
import { describeFault } from "./describe.js";
import { digestPath } from "./digest.js";
import { parseAssumptions } from "./parse.js";

const FILES = { "config.env": "SECRET_TOKEN=1\n" };
const PLAN = parseAssumptions("lacks\tconfig.env\tSECRET_TOKEN\ncontains\tconfig.env\tSECRET_TOKEN\n")._unsafeUnwrap();

/** The one file, as memfs, a real directory and a real commit hold it. */
async function readers(): Promise<Record<string, TreeReader>> {
  const base = await scratchDir("decay-max-bytes-");
  const disk = join(base, "disk");
  const repo = join(base, "repo");
  commitSpec(disk, { files: FILES, links: {} });
  commitSpec(repo, { files: FILES, links: {} });
  emptyWorkingTree(repo);
  return { memfs: fixtureTree(FILES).tree, node: nodeTree(disk), git: gitTree({ fs: await import("node:fs"), dir: repo, ref: "HEAD" }) };
}

const usable = (m: unknown) => typeof m === "number" && Number.isSafeInteger(m) && m >= 1;

// What a run answers, as far as a caller acts on it: the verdict and statuses, or the fault's code.
async function answers(tree: TreeReader, maxBytes: unknown) {
  const opts = { tree, maxBytes: maxBytes as number };
  const check = await checkTree({ ...opts, assumptions: PLAN });
  const digest = await digestPath({ ...opts, path: "config.env" });
  const author = await authorAssumptions({ ...opts, reads: ["config.env"] });
  return [
    check.isOk() ? check.value.rows.map((r) => r.status) : check.error.code,
    digest.isOk() ? "digest" : digest.error.code,
    author.isOk() ? "authored" : author.error.code,
  ];
}

describe("maxBytes", () => {
  test("NaN, 0, a fraction, Infinity or a string is option-invalid from every entry point, never a verdict", async () => {
    const trees = await readers();
    for (const [name, tree] of Object.entries(trees)) {
      for (const bad of [Number.NaN, 0, -1, 1.5, Number.POSITIVE_INFINITY, 2 ** 53, "64", null]) {
        expect([name, bad, await answers(tree, bad)]).toEqual([name, bad, ["option-invalid", "option-invalid", "option-invalid"]]);
      }
      // What a caller sees for `Number(process.env.LIMIT)` with LIMIT unset.
      const refused = (await checkTree({ tree, assumptions: PLAN, maxBytes: Number(undefined) }))._unsafeUnwrapErr();
      expect(describeFault(refused)).toBe("option maxBytes: must be a positive integer number of bytes (default 67108864), not NaN");
    }
  });

  test("property: every reader gives one answer for any maxBytes; only a positive integer reaches a verdict", async () => {
    const trees = await readers();
    const anyMax = fc.oneof(fc.integer({ min: -3, max: 40 }), fc.double(), fc.constantFrom(undefined, null, "15", 2 ** 53 - 1), fc.anything());
    await fc.assert(
      fc.asyncProperty(anyMax, async (maxBytes) => {
        const [memfs, node, git] = await Promise.all(Object.values(trees).map((t) => answers(t, maxBytes)));
        expect(node).toEqual(memfs);
        expect(git).toEqual(memfs);
        const refused = ["option-invalid", "option-invalid", "option-invalid"];
        if (maxBytes !== undefined && !usable(maxBytes)) expect(memfs).toEqual(refused);
        else if (maxBytes === undefined || (maxBytes as number) >= 15) expect(memfs).toEqual([["diverge", "hold"], "digest", "authored"]);
        else expect(memfs).toEqual(["tree-too-large", "tree-too-large", "tree-too-large"]);
      }),
      { numRuns: 150 },
    );
  });
});
