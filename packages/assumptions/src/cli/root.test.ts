import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Volume } from "memfs";
import { describe, expect, test } from "vitest";
import { tempDir } from "../../../../test-utils/tmp.js";
import { memoryIo } from "../../test/support/memory-io.js";
import { memfsTree } from "../adapters/memfs.js";
import type { TreeFs } from "../adapters/fs.js";
import { JsonFault } from "./json.js";
import { main } from "./main.js";
import { withRootListed } from "./root.js";

async function run(argv: string[], cwd: string) {
  const m = memoryIo({ cwd });
  const code = await main(argv, m.io);
  return { code, stdout: m.stdout(), stderr: m.stderr() };
}

// A real root whose listing fails whoever runs the test (root included): a name at the top that
// is not UTF-8. Undefined where the filesystem will not make such a name.
function unlistableRoot(dir: string): string | undefined {
  const root = join(dir, "r");
  mkdirSync(root);
  try {
    writeFileSync(Buffer.concat([Buffer.from(`${root}/`), Buffer.from([0xff])]), "x");
  } catch {
    return undefined;
  }
  return root;
}

describe("a root that cannot be listed is the run's fault, not a row's", () => {
  test("no line number, in words and in JSON, whichever row comes first; the plan is not read", async () => {
    const dir = await tempDir();
    const root = unlistableRoot(dir);
    if (root === undefined) return;
    writeFileSync(join(dir, "plan.tsv"), "exists\ta\nexists\tb\nexists\tc\n");
    const human = await run(["--root", "r", "plan.tsv"], dir);
    expect([human.code, human.stdout, human.stderr]).toEqual([2, "", 'error: cannot read the tree root: an entry\'s name is not UTF-8: "\\xff"\n']);
    const json = await run(["--root", "r", "--json", "no-such-plan.tsv"], dir);
    expect(json.code).toBe(2);
    expect(JsonFault.parse(JSON.parse(json.stdout)).fault).toEqual({
      code: "tree-io",
      message: 'cannot read the tree root: an entry\'s name is not UTF-8: "\\xff"',
    });
    const digest = await run(["--root", "r", "--digest", "a"], dir);
    expect([digest.code, digest.stderr]).toEqual([2, 'error: cannot read the tree root: an entry\'s name is not UTF-8: "\\xff"\n']);
  });
});

describe("withRootListed: the root listed up front is not listed again", () => {
  test("the first look at the root gets the listing made up front; later looks, and other directories, ask the tree", async () => {
    const vol = Volume.fromJSON({ "/t/a.ts": "a", "/t/src/b.ts": "b" });
    const tree = memfsTree(vol as unknown as TreeFs, "/t");
    const upFront = (await tree.list(""))._unsafeUnwrap();
    const primed = withRootListed(tree, upFront);
    vol.writeFileSync("/t/late.ts", "added after the listing");
    expect((await primed.list(""))._unsafeUnwrap()).toBe(upFront);
    expect((await primed.list("src"))._unsafeUnwrap()).toEqual([{ name: "b.ts", type: "file" }]);
    expect(
      (await primed.list(""))
        ._unsafeUnwrap()
        .map((e) => e.name)
        .sort(),
    ).toEqual(["a.ts", "late.ts", "src"]);
    expect(primed.describe).toBe(tree.describe);
  });
});
