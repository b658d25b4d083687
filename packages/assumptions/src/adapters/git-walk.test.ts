// A gitTree reader keeps, for the life of the reader, each tree's entries by name and the tree of
// every directory a walk passed through, so that later walks start below them. Held here to a fresh
// reader per question (nothing kept) on generated commits of directories, wide trees, and links of
// every kind (to directories, through other links, out of the tree, in loops, to nowhere).
import * as nodeFs from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { commitSpec, scratchDir } from "../../test/support/test-fixtures.js";
import type { TreeReader } from "../tree.js";
import { gitTree } from "./git.js";

const NAME = fc.constantFrom("a", "b", "c", "d");
const path = (min: number, max: number) => fc.array(NAME, { minLength: min, maxLength: max }).map((p) => p.join("/"));
const target = fc.oneof(
  path(1, 3),
  fc.tuple(fc.integer({ min: 1, max: 3 }), path(0, 2)).map(([up, down]) => `${"../".repeat(up)}${down}`),
  fc.constantFrom(".", "..", "nowhere", "../../../../x"),
);
const commitArb = fc.record({
  files: fc.array(path(1, 4), { minLength: 1, maxLength: 12 }),
  links: fc.array(fc.tuple(path(1, 3), target), { maxLength: 5 }),
  // One directory wide enough to be looked up by name rather than searched.
  wide: fc.integer({ min: 0, max: 40 }),
  asked: fc.array(fc.tuple(fc.constantFrom("list", "read", "readLink"), path(0, 5)), { minLength: 1, maxLength: 16 }),
});

// Files where no file or link is a prefix of another's path, links where nothing else is.
function spec({ files, links, wide }: { files: string[]; links: [string, string][]; wide: number }) {
  const out: Record<string, string> = {};
  const taken = new Set<string>();
  const prefixes = (p: string) => p.split("/").map((_, i, parts) => parts.slice(0, i + 1).join("/"));
  const free = (p: string) => !prefixes(p).some((q) => q in out) && ![...taken].some((t) => t === p || t.startsWith(`${p}/`));
  const claim = (p: string) => {
    for (const q of prefixes(p)) taken.add(q);
  };
  for (let k = 0; k < wide; k += 1) files.push(`b/w${k}`);
  for (const f of files) {
    if (!free(f)) continue;
    out[f] = `${f}\n`;
    claim(f);
  }
  const made: Record<string, string> = {};
  for (const [at, to] of links) {
    if (
      !free(at) ||
      at in made ||
      prefixes(at)
        .slice(0, -1)
        .some((q) => q in made)
    )
      continue;
    made[at] = to;
    claim(at);
  }
  return { files: out, links: made };
}

async function answer(tree: TreeReader, op: string, p: string): Promise<unknown> {
  const got = op === "list" ? await tree.list(p) : op === "read" ? await tree.read(p, 1000) : await tree.readLink(p);
  if (got.isErr()) return { err: got.error.code, message: got.error.message };
  const value = got.value;
  return { ok: value instanceof Uint8Array ? new TextDecoder().decode(value) : value };
}

describe("gitTree's kept trees and directories", () => {
  test("property: one reader asked many paths answers each as a fresh reader does", async () => {
    await fc.assert(
      fc.asyncProperty(commitArb, async (c) => {
        const dir = join(await scratchDir("decay-gitwalk-"), "r");
        commitSpec(dir, spec(c));
        const kept = gitTree({ fs: nodeFs, dir, ref: "HEAD" });
        for (const [op, p] of c.asked) {
          const want = await answer(gitTree({ fs: nodeFs, dir, ref: "HEAD" }), op, p);
          expect(await answer(kept, op, p), `${op} ${p}`).toEqual(want);
        }
      }),
      { numRuns: 60 },
    );
  });
});
