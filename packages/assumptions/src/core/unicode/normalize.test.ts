import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { inCanonicalOrder, normalizeText } from "./normalize.js";

// Marks of several classes (220 below, 230 above, 1 overlay, 7 nukta, 240 ypogegrammeni, 8 kana
// voicing, 216 and 1 astral), a mark of class 0 (U+0903), bases below and above U+0300, precomposed letters, Hangul
// jamo and a syllable, a surrogate pair, and a lone surrogate.
const MARKS = ["\u0301", "\u0316", "\u0334", "\u093c", "\u0345", "\u3099", "\u0300", "\u0327", "\u0903", "\u0344", "\u{1d165}", "\u{1d167}"];
const OTHERS = ["a", "e", " ", "\n", "é", "ǖ", "Å", "\u1100", "\u1161", "\u11a8", "\uac00", "κ", "ω", "か", "\u{1d15e}", "\ud800", "x"];
const unit = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...MARKS) }, { weight: 1, arbitrary: fc.constantFrom(...OTHERS) });
// Runs long enough (32 and more marks) to take the ordering path, between ordinary text.
const marks = fc.array(fc.constantFrom(...MARKS), { minLength: 32, maxLength: 120 }).map((m) => m.join(""));
const text = fc.array(fc.oneof(unit, marks), { maxLength: 40 }).map((parts) => parts.join(""));

describe("normalizeText", () => {
  test("gives what the engine's own normalize gives, for NFC and NFD, with runs of marks of any length", () => {
    fc.assert(
      fc.property(text, (t) => {
        expect(normalizeText(t, "NFC")).toBe(t.normalize("NFC"));
        expect(normalizeText(t, "NFD")).toBe(t.normalize("NFD"));
      }),
      { numRuns: 400 },
    );
  });

  test("orders the marks itself: its decomposition is the engine's NFD, so the engine's pass after it moves nothing", () => {
    fc.assert(
      fc.property(text, (t) => void expect(inCanonicalOrder(t)).toBe(t.normalize("NFD"))),
      { numRuns: 400 },
    );
  });

  test("a run of 100,000 alternating marks on a base comes out in canonical order, composed for NFC", () => {
    const run = "\u0301\u0316".repeat(50_000);
    const nfd = normalizeText(`e${run}!`, "NFD");
    // Class 220 (U+0316) before class 230 (U+0301), each keeping its order among its own class.
    expect(nfd).toBe(`e${"\u0316".repeat(50_000)}${"\u0301".repeat(50_000)}!`);
    // The first acute composes with the e (nothing of class 230 or 0 blocks it); the rest stay.
    expect(normalizeText(`e${run}!`, "NFC")).toBe(`\u00e9${"\u0316".repeat(50_000)}${"\u0301".repeat(49_999)}!`);
  });
});
