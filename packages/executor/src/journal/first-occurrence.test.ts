import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { substringIndex } from "./first-occurrence.js";

/** The plain reading: the first string that holds `q`. */
const model = (strings: readonly string[], q: string): number => strings.findIndex((s) => s.includes(q));

describe("substringIndex", () => {
  it("agrees with the first string that includes it, for every string looked up, found or not", () => {
    const str = fc.string({ unit: fc.constantFrom("a", "b", "c", "\n", "é", "\u{1F600}"), maxLength: 20 });
    fc.assert(
      fc.property(fc.array(str, { maxLength: 6 }), fc.array(str, { maxLength: 12 }), (strings, queries) => {
        const index = substringIndex(strings);
        for (const q of queries) expect(index.first(q)).toBe(model(strings, q));
        // Every substring of every string, with one more unit after it, and the strings joined two by two.
        for (const text of [...strings, ...strings.slice(1).map((s, k) => `${strings[k]}${s}`)])
          for (let i = 0; i <= text.length; i++)
            for (let j = i; j <= text.length; j++) for (const q of [text.slice(i, j), `${text.slice(i, j)}a`]) expect(index.first(q)).toBe(model(strings, q));
      }),
      { numRuns: 500 },
    );
  });

  it("finds the first of many strings holding it, never a match across two", () => {
    const index = substringIndex(["`f1`", "`f10`", "`f100`"]);
    expect([index.first("f10"), index.first("f100"), index.first("f1`"), index.first("f2"), index.first(""), index.first("``")]).toEqual([1, 2, 0, -1, 0, -1]);
    expect(substringIndex([]).first("")).toBe(-1);
  });
});
