// Rows under one plan directory share one scan of its spellings (`scanLeaves`) and look at their
// last level alone (`viaLeaves`). Held here to the full walk of each path, on generated trees of
// case twins, confusable names, links (to directories, files, nowhere, out of the root, in loops),
// files where a directory is asked for, and nested repositories.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { fixtureTree } from "../../test/support/fixture-tree.js";
import { locate } from "./locate.js";
import { createLocator } from "./plain.js";

const NAMES = ["a", "A", "b", "B", "ab", "aB", "\u0430"] as const;
const name = fc.constantFrom(...NAMES);
const relPath = (min: number, max: number) => fc.array(name, { minLength: min, maxLength: max }).map((p) => p.join("/"));
const target = fc.oneof(
  relPath(1, 3),
  fc.tuple(fc.integer({ min: 1, max: 3 }), relPath(0, 2)).map(([up, down]) => `${"../".repeat(up)}${down}`),
  fc.constantFrom(".", "..", "nowhere", "/abs", "../../../../x"),
);

const caseArb = fc.record({
  files: fc.array(relPath(1, 4), { minLength: 1, maxLength: 14 }),
  links: fc.array(fc.tuple(relPath(1, 3), target), { maxLength: 5 }),
  repos: fc.array(relPath(1, 2), { maxLength: 1 }),
  asked: fc.array(relPath(2, 5), { minLength: 1, maxLength: 12 }),
});

// The tree: files (a path that is a prefix of another file's is left a directory), links where
// nothing else is, and `.git` in the repositories' directories.
function build({ files, links, repos }: { files: string[]; links: [string, string][]; repos: string[] }) {
  const taken = new Set<string>();
  const prefixes = (p: string) => p.split("/").map((_, i, parts) => parts.slice(0, i + 1).join("/"));
  const tree: Record<string, string> = {};
  for (const f of [...files, ...repos.map((r) => `${r}/.git/HEAD`)]) {
    if (prefixes(f).some((p) => p in tree) || [...taken].some((t) => t.startsWith(`${f}/`))) continue;
    tree[f] = "x";
    for (const p of prefixes(f)) taken.add(p);
  }
  const made: Record<string, string> = {};
  for (const [at, to] of links) {
    if (prefixes(at).some((p) => p in tree || p in made) || taken.has(at)) continue;
    made[at] = to;
    for (const p of prefixes(at).slice(0, -1)) taken.add(p);
  }
  return fixtureTree(tree, made).tree;
}

describe("a plan directory scanned once answers each row as its own walk would", () => {
  test("generated trees: every asked path, through one locator, equals its full walk", async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, async (c) => {
        const tree = build(c);
        const shared = createLocator(tree);
        for (const path of c.asked) {
          const want = await locate(createLocator(tree), path, false);
          const got = await locate(shared, path);
          expect(got.isOk() ? { ok: got.value } : { err: got.error }, path).toEqual(want.isOk() ? { ok: want.value } : { err: want.error });
        }
      }),
      { numRuns: 600 },
    );
  });

  test("twelve levels of case twins: a missing file is a variant, at its last level's cost per row", async () => {
    const files: Record<string, string> = {};
    let dirs = [""];
    for (let level = 0; level < 12; level += 1) dirs = dirs.flatMap((d) => [`${d}a/`, `${d}A/`]);
    for (const d of dirs) files[`${d}f.txt`] = "x";
    const tree = fixtureTree(files).tree;
    const loc = createLocator(tree);
    const path = "a/".repeat(12);
    expect((await locate(loc, `${path}f.txt`))._unsafeUnwrap()).toMatchObject({ state: "found" });
    for (let r = 0; r < 50; r += 1) {
      expect((await locate(loc, `${path}missing${r}.txt`))._unsafeUnwrap()).toEqual({ state: "variant", spelled: `${"a/".repeat(11)}A`, how: "case" });
    }
    // The 4,096 leaves were scanned once, for the first missing row, not once per row.
    expect(loc.scans.size).toBe(1);
  });
});
