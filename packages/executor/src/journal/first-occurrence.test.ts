import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { substringIndex } from "./first-occurrence.js";

describe("substringIndex", () => {
  it("agrees with indexOf on every string, found or not", () => {
    const str = fc.string({ unit: fc.constantFrom("a", "b", "c", "\n", "é", "\u{1F600}"), maxLength: 40 });
    fc.assert(
      fc.property(str, fc.array(str, { maxLength: 12 }), (text, queries) => {
        const index = substringIndex(text);
        for (const q of queries) expect(index.first(q)).toBe(text.indexOf(q));
        // Every substring of the text, and each with one more unit after it.
        for (let i = 0; i <= text.length; i++)
          for (let j = i; j <= text.length; j++) for (const q of [text.slice(i, j), `${text.slice(i, j)}a`]) expect(index.first(q)).toBe(text.indexOf(q));
      }),
      { numRuns: 500 },
    );
  });

  it("finds the first of many occurrences", () => {
    const index = substringIndex("`f1`\n`f10`\n`f100`");
    expect([index.first("f10"), index.first("f100"), index.first("f1`"), index.first("f2"), index.first("")]).toEqual([6, 12, 1, -1, 0]);
  });
});
