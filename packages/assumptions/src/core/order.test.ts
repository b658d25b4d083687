import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { judgingOrder } from "./order.js";

const directoriesOf = (path: string): string[] => {
  const parts = path.split("/").slice(0, -1);
  return parts.map((_, i) => parts.slice(0, i + 1).join("/"));
};

describe("judgingOrder", () => {
  test("rows are grouped by directory, a directory's subdirectories right after it", () => {
    const paths = ["b/x", "a/b/y", "a-c/z", "a/w", "top", "a/b/v"];
    const { order } = judgingOrder(paths);
    expect(order.map((i) => paths[i])).toEqual(["top", "a/w", "a/b/y", "a/b/v", "a-c/z", "b/x"]);
  });

  test("each directory is let go once, at its last row; the root never", () => {
    const paths = ["a/b/y", "a/w", "c/x", "a/b/v"];
    const { order, release } = judgingOrder(paths);
    const at = Object.fromEntries(release.flatMap((dirs, k) => (dirs ?? []).map((d) => [d, order[k]])));
    expect(at).toEqual({ "a/b": 3, a: 3, c: 2 });
  });

  test("property: a permutation of the rows, and no directory let go before a row under it", () => {
    const component = fc.constantFrom("a", "b", "A", "a-b", "é", "z");
    const path = fc.array(component, { minLength: 1, maxLength: 4 }).map((c) => c.join("/"));
    fc.assert(
      fc.property(fc.array(path, { maxLength: 40 }), (paths) => {
        const { order, release } = judgingOrder(paths);
        expect([...order].sort((x, y) => x - y)).toEqual(paths.map((_, i) => i));
        const releasedAt = new Map<string, number>();
        for (const [k, dirs] of release.entries())
          for (const d of dirs ?? []) {
            expect(releasedAt.has(d)).toBe(false);
            releasedAt.set(d, k);
          }
        const needed = new Set(paths.flatMap(directoriesOf));
        expect(new Set(releasedAt.keys())).toEqual(needed);
        order.forEach((i, position) => {
          for (const d of directoriesOf(paths[i] as string)) expect(releasedAt.get(d)).toBeGreaterThanOrEqual(position);
        });
      }),
      { numRuns: 500 },
    );
  });
});
