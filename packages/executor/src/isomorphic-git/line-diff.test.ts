import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Change, diffSequences } from "./line-diff.js";

/** The new lines rebuilt from the old ones and the script: kept lines come from `older`, inserted ones from `newer`. */
function apply(older: readonly string[], newer: readonly string[], changes: readonly Change[]): string[] {
  const out: string[] = [];
  let i = 0;
  for (const c of changes) {
    out.push(...older.slice(i, c.a), ...newer.slice(c.b, c.b + c.ins));
    i = c.a + c.del;
  }
  return [...out, ...older.slice(i)];
}

/** The length of a longest common subsequence, by the textbook table. */
function lcs(a: readonly string[], b: readonly string[]): number {
  let row = new Array<number>(b.length + 1).fill(0);
  for (const x of a) {
    const next = [0];
    b.forEach((y, j) => next.push(x === y ? (row[j] as number) + 1 : Math.max(row[j + 1] as number, next[j] as number)));
    row = next;
  }
  return row[b.length] as number;
}

const lines = fc.oneof(
  fc.array(fc.constantFrom("a", "b", "c", "d", "", "a\r"), { maxLength: 24 }),
  fc.array(fc.constantFrom("a", "b", "c"), { maxLength: 60 }),
);

describe("diffSequences", () => {
  it("its script turns the old lines into the new, kept lines being equal on both sides", () => {
    fc.assert(
      fc.property(lines, lines, (older, newer) => {
        const changes = diffSequences(older, newer);
        expect(apply(older, newer, changes)).toEqual(newer);
        // Kept lines pair up in order: the offsets of each change agree with what came before it.
        let shift = 0;
        for (const c of changes) {
          expect(c.b - c.a).toBe(shift);
          expect(c.del + c.ins).toBeGreaterThan(0);
          shift += c.ins - c.del;
        }
      }),
      { numRuns: 2000 },
    );
  });

  it("deletes and inserts no more than a longest common subsequence leaves", () => {
    fc.assert(
      fc.property(lines, lines, (older, newer) => {
        const changes = diffSequences(older, newer);
        const del = changes.reduce((n, c) => n + c.del, 0);
        const ins = changes.reduce((n, c) => n + c.ins, 0);
        const common = lcs(older, newer);
        expect([del, ins]).toEqual([older.length - common, newer.length - common]);
      }),
      { numRuns: 2000 },
    );
  });

  it("keeps long files with little in common fast, and finds the one change in a long run", () => {
    const many = Array.from({ length: 50000 }, (_, i) => `old ${i}`);
    const other = Array.from({ length: 50000 }, (_, i) => `new ${i}`);
    const started = performance.now();
    expect(diffSequences(many, other)).toEqual([{ a: 0, del: 50000, b: 0, ins: 50000 }]);
    // Lines with no equal on the other side are never searched: a search would take minutes here.
    expect(performance.now() - started).toBeLessThan(3000);
    const same = Array.from({ length: 20000 }, () => "x");
    expect(diffSequences(same, [...same.slice(0, 9000), "y", ...same.slice(9000)])).toHaveLength(1);
  });
});

describe("diffSequences within a budget", () => {
  it("past its budget a region is replaced whole: the script still rebuilds the new lines", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom("a", "b", "c", "d"), { maxLength: 60 }),
        fc.array(fc.constantFrom("a", "b", "c", "d"), { maxLength: 60 }),
        fc.nat(40),
        (older, newer, budget) => {
          expect(apply(older, newer, diffSequences(older, newer, budget))).toEqual(newer);
        },
      ),
    );
  });

  it("100,000 lines in reverse order are diffed in bounded time, every line counted", () => {
    const older = Array.from({ length: 100_000 }, (_, i) => `line ${i}`);
    const newer = [...older].reverse();
    const started = Date.now();
    const changes = diffSequences(older, newer);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(apply(older, newer, changes)).toEqual(newer);
  });
});
