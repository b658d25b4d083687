import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { literalsIn } from "./literals.js";

describe("literalsIn: which literals a text holds, in one pass", () => {
  test("the same answers as includes, on texts and literals over a small alphabet (many overlaps)", () => {
    const small = fc.string({ unit: fc.constantFrom("a", "b", "ab", "\u00e9", "\ud83d\ude00"), maxLength: 40 });
    fc.assert(
      fc.property(
        small,
        fc.array(
          small.map((s) => s.slice(0, 6)),
          { maxLength: 12 },
        ),
        (text, literals) => {
          expect(literalsIn(text, literals)).toEqual(literals.map((l) => text.includes(l)));
        },
      ),
      { numRuns: 2000 },
    );
  });

  test("the same answers as includes on any strings, pieces of the text among the literals", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "binary", maxLength: 200 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        fc.array(fc.string({ maxLength: 5 })),
        (text, cuts, others) => {
          const pieces = cuts.map((c, k) => text.slice(c % (text.length + 1), (c % (text.length + 1)) + 1 + (k % 7)));
          const literals = [...pieces, ...others];
          expect(literalsIn(text, literals)).toEqual(literals.map((l) => text.includes(l)));
        },
      ),
      { numRuns: 1000 },
    );
  });

  test("a literal inside another, duplicates and the empty literal", () => {
    expect(literalsIn("ushers", ["he", "she", "his", "hers", "she", ""])).toEqual([true, true, false, true, true, true]);
    expect(literalsIn("", ["", "a"])).toEqual([true, false]);
  });
});
