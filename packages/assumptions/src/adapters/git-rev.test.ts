import * as nodeFs from "node:fs";
import fc from "fast-check";
import { beforeAll, describe, expect, test } from "vitest";
import { tempDir } from "../../../../test-utils/tmp.js";
import { allObjects, gitSays, type History, makeHistory } from "../../test/support/git-history.js";
import { locateRepository, type RepoLayout } from "./git-repo.js";
import { resolveRev } from "./git-resolve.js";
import { parseRev } from "./git-rev.js";

describe("parseRev", () => {
  test("splits a base from its chain of suffixes; ~ and ^ alone mean 1", () => {
    expect(parseRev("HEAD~2^2~")._unsafeUnwrap()).toEqual({
      base: "HEAD",
      abbreviated: false,
      steps: [
        { kind: "ancestor", n: 2 },
        { kind: "parent", n: 2 },
        { kind: "ancestor", n: 1 },
      ],
    });
    expect(parseRev("abc1234^0")._unsafeUnwrap()).toMatchObject({ base: "abc1234", abbreviated: true });
    expect(parseRev("abc")._unsafeUnwrap()).toMatchObject({ abbreviated: false });
    expect(parseRev("A".repeat(40))._unsafeUnwrap()).toMatchObject({ base: "a".repeat(40), abbreviated: false });
  });

  test("never throws: any string is a Rev or a tree-not-found naming it", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: "binary" })), (ref) => {
        const parsed = parseRev(ref);
        if (parsed.isErr()) {
          expect(parsed.error).toMatchObject({ code: "tree-not-found", path: "" });
          expect(parsed.error.message).toContain(JSON.stringify(ref));
        }
      }),
      { numRuns: 500 },
    );
  });
});

/** Refs from a grammar: a base (names, tags, hex prefixes of every object) × a chain of suffixes. */
function refsOf(h: History, objects: readonly string[]): fc.Arbitrary<string> {
  const names = fc.constantFrom("HEAD", "main", "side", "v1", "v1n", "lw", "treetag", "refs/heads/side", "refs/tags/v1", "nosuch");
  const hex = fc
    .tuple(fc.constantFrom(...objects, h.c1, h.c4), fc.integer({ min: 1, max: 40 }), fc.boolean())
    .map(([id, length, upper]) => (upper ? id.slice(0, length).toUpperCase() : id.slice(0, length)));
  const suffix = fc.tuple(fc.constantFrom("~", "^"), fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined })).map(([mark, n]) => `${mark}${n ?? ""}`);
  return fc.tuple(fc.oneof(names, hex), fc.array(suffix, { maxLength: 4 })).map(([base, steps]) => base + steps.join(""));
}

describe("resolveRev agrees with git rev-parse", () => {
  let h: History;
  let layout: RepoLayout;
  let objects: string[];
  beforeAll(async () => {
    h = makeHistory(await tempDir("decay-rev-prop-"));
    layout = (await locateRepository(nodeFs, h.dir))._unsafeUnwrap();
    objects = allObjects(h.dir);
  });

  test("a ref from the grammar names the commit git names, or a fault exactly when git names none", async () => {
    const seen = { named: 0, refused: 0 };
    await fc.assert(
      fc.asyncProperty(refsOf(h, objects), async (ref) => {
        const ours = await resolveRev(nodeFs, layout, ref);
        const theirs = gitSays(h.dir, ref);
        seen[ours.isOk() ? "named" : "refused"] += 1;
        if (ours.isOk()) expect(ours.value).toBe(theirs);
        // git may pick the one commit among objects sharing a prefix; gitTree refuses to guess.
        else if (!ours.error.message.includes("is ambiguous")) expect(theirs, ours.error.message).toBeUndefined();
      }),
      { numRuns: 120 },
    );
    // Both outcomes were exercised, so the agreement above is not vacuous.
    expect(seen.named).toBeGreaterThan(10);
    expect(seen.refused).toBeGreaterThan(10);
  });

  test("any string: never throws; a commit only when git names the same one", async () => {
    const noisy = fc.oneof(
      fc.string(),
      fc.tuple(fc.constantFrom("HEAD", "main", "v1", h.c2.slice(0, 7)), fc.string()).map(([base, tail]) => base + tail),
    );
    await fc.assert(
      fc.asyncProperty(noisy, async (ref) => {
        const ours = await resolveRev(nodeFs, layout, ref);
        if (ours.isOk()) expect(ours.value).toBe(gitSays(h.dir, ref));
        else expect(ours.error.code).toBe("tree-not-found");
      }),
      { numRuns: 200 },
    );
  });
});
