import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { NFC_STABLE_BELOW, NFD_STABLE_BELOW, nfcInert, nfdInert, nfkcInert } from "./forms.js";
import { confusableGroups, skeleton, stableStarters } from "./skeleton.js";

describe("the stability facts the fast paths rest on (this engine)", () => {
  // ccc(x) = 0 and 240 ≠ ccc(x): U+0345 (ccc 240, the largest) would move behind a smaller mark.
  const startsWithStarter = (x: string) => {
    const d = x.normalize("NFD");
    return `\u0345${x}`.normalize("NFD") === `\u0345${d}` && !d.startsWith("\u0345");
  };
  // The code units below `bound` whose character is not its own `form` and a starter.
  const unstableBelow = (bound: number, form: "NFC" | "NFD") =>
    Array.from({ length: bound }, (_, u) => u).filter((u) => {
      const ch = String.fromCharCode(u);
      return ch.normalize(form) !== ch || !startsWithStarter(ch);
    });
  test("below U+0300 every character is its own NFC and a starter", () => {
    expect(unstableBelow(NFC_STABLE_BELOW, "NFC")).toEqual([]);
  });
  test("no character decomposes to anything below U+0300 after its first code point, so none of those is the second of a composition", () => {
    const wrong: number[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp += 1) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const parts = [...String.fromCodePoint(cp).normalize("NFD")];
      if (parts.slice(1).some((p) => (p.codePointAt(0) as number) < NFC_STABLE_BELOW)) wrong.push(cp);
    }
    expect(wrong).toEqual([]);
  });
  test("every BMP character that composes with one before it is a mark, a Hangul vowel or a trailing consonant", () => {
    // A composition's second character stands after the first code point of the composite's NFD.
    // (Astral ones need not: a surrogate is never inert, so forms.ts never asks about them.)
    const wrong = new Set<string>();
    for (let cp = 0; cp <= 0x10ffff; cp += 1) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      for (const part of [...String.fromCodePoint(cp).normalize("NFD")].slice(1)) {
        if (part.length === 1 && !/^\p{M}$/u.test(part) && !(part >= "\u1160" && part <= "\u11ff")) wrong.add(part);
      }
    }
    expect([...wrong]).toEqual([]);
  });
  // Strings of BMP characters drawn from those the predicate accepts.
  const drawn = (accepts: (ch: string) => boolean) => {
    const pool = Array.from({ length: 0x10000 }, (_, u) => String.fromCharCode(u)).filter((ch) => ch >= "\u00c0" && accepts(ch));
    return fc.array(fc.oneof(fc.constantFrom(...pool), fc.constantFrom("a", "e", " ")), { maxLength: 12 }).map((a) => a.join(""));
  };
  test("property: a string of NFC-inert characters is NFC, and of NFD-inert ones NFD", () => {
    fc.assert(
      fc.property(drawn(nfcInert), (s) => {
        expect(s.normalize("NFC")).toBe(s);
      }),
      { numRuns: 3000 },
    );
    fc.assert(
      fc.property(drawn(nfdInert), (s) => {
        expect(s.normalize("NFD")).toBe(s);
      }),
      { numRuns: 3000 },
    );
    fc.assert(
      fc.property(drawn(nfkcInert), (s) => {
        expect(s.normalize("NFKC")).toBe(s);
      }),
      { numRuns: 3000 },
    );
  });
  test("below U+00A0 no character has a compatibility decomposition; NFKC-inert ones have none either", () => {
    const wrong: number[] = [];
    for (let u = 0; u < 0xa0; u += 1) if (String.fromCharCode(u).normalize("NFKD") !== String.fromCharCode(u)) wrong.push(u);
    expect(wrong).toEqual([]);
    expect(["\u00a0", "\u00aa", "\u00b2", "\uFB01", "\uFF76", "\u2126", "\u212A"].filter(nfkcInert)).toEqual([]);
    expect(["é", "Ω", "д", "日", "ア"].filter((ch) => !nfkcInert(ch))).toEqual([]);
  });
  test("inert characters include letters of many scripts, never a mark, a surrogate or a decomposable one", () => {
    expect(["Ω", "ω", "έ", "д", "日", "ア", "가", "\u00e9"].filter((ch) => !nfcInert(ch))).toEqual([]);
    expect(["\u0301", "\u0345", "\u1161", "\u11a8", "\uD800", "\u0344", "\u0958", "\u212B", "\u3099"].filter(nfcInert)).toEqual([]);
    expect(["Ω", "д", "日", "ア", "\u1100"].filter((ch) => !nfdInert(ch))).toEqual([]);
    expect(["έ", "\u00e9", "가", "\u0301", "\uDC00"].filter(nfdInert)).toEqual([]);
  });
  test("below U+00C0 every character is its own NFD and a starter", () => {
    expect(unstableBelow(NFD_STABLE_BELOW, "NFD")).toEqual([]);
  });
  test("stableStarters: ASCII and plain letters are; marks, decomposables and the empty string are not", () => {
    expect(["a", "º/₀", "μ", "ˉ", "д", "\u1100"].filter((s) => !stableStarters(s))).toEqual([]);
    expect(["", "c\u0338", "\u0345", "\u0334", "\u0301", "é", "\u0344"].filter((s) => stableStarters(s))).toEqual([]);
  });
  test("no confusable source is a surrogate, and a line feed is its own skeleton", () => {
    const surrogates = confusableGroups().flatMap(([, sources]) => [...sources].filter((s) => /^[\uD800-\uDFFF]$/.test(s)));
    expect(surrogates).toEqual([]);
    expect(skeleton("\n")).toBe("\n");
  });
});
