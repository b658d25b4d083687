// nodePatterns: a backtracking regex is stopped at the bound and answered as a timeout; every other
// pattern is answered exactly as a global RegExp counts its matches.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { directPatterns } from "../run/patterns.js";
import { nodePatterns } from "./patterns.js";

const EVIL = "^(a|a)*$";
const EVIL_TEXT = `${"a".repeat(40)}b`;

/** What a global RegExp finds, counted independently of the adapters (matchAll steps past empty matches). */
const reference = (pattern: string, text: string, min: number) => [...text.matchAll(new RegExp(pattern, "g"))].length >= min;

/** Simple patterns that cannot backtrack badly: atoms, some matching nothing, with at most one quantifier each. */
const atom = fc.constantFrom("a", "b", ".", "[ab]", "[^a]", "\\d", "x", "\\n", "(?:)", "^", "$", "\\b", "(a)", "(?:ab)");
const piece = fc.tuple(atom, fc.constantFrom("", "?", "*", "+", "{2}", "*?")).map(([a, q]) => (/^[\^$]$|^\\b$/.test(a) ? a : a + q));
const pattern = fc.array(piece, { minLength: 1, maxLength: 4 }).map((ps) => ps.join(""));
const text = fc.string({ unit: fc.constantFrom("a", "b", "x", "1", "\n", " "), maxLength: 40 });

describe("nodePatterns", () => {
  it("stops /^(a|a)*$/ on 40 a's and a b at its bound, answering a timeout that names the bound", { timeout: 60_000 }, () => {
    const patterns = nodePatterns({ timeoutMs: 200 });
    expect(patterns.atLeast(EVIL, EVIL_TEXT, 1)).toEqual({ timeoutMs: 200 });
    // The context is reused: the next match is answered normally.
    expect(patterns.atLeast(EVIL, "aaa", 1)).toBe(true);
    expect(patterns.atLeast(EVIL, EVIL_TEXT.slice(-6), 1)).toBe(false);
  });

  it("answers every simple pattern as a global RegExp counts it, empty matches and min > 1 included", { timeout: 120_000 }, () => {
    const patterns = nodePatterns({ timeoutMs: 5_000 });
    const direct = directPatterns();
    fc.assert(
      fc.property(pattern, text, fc.integer({ min: 1, max: 6 }), (p, t, min) => {
        const want = reference(p, t, min);
        expect(patterns.atLeast(p, t, min)).toBe(want);
        expect(direct.atLeast(p, t, min)).toBe(want);
      }),
      { numRuns: 500 },
    );
  });

  it("refuses a bound that is not a positive integer", () => {
    for (const timeoutMs of [0, -1, 1.5, Number.NaN]) expect(() => nodePatterns({ timeoutMs })).toThrow(RangeError);
  });
});
