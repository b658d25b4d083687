import fc from "fast-check";
import { describe, expect, test } from "vitest";
import * as reference from "../../../test/support/unicode-reference.js";
import { mayFoldToAscii, mayKeyToAscii } from "./ascii-reach.js";
import { asciiOffKey } from "./skeleton.js";

// The sets of ascii-reach.ts, defined again from the reference primitives. Each is asked only of
// code points that are their own NFC (as every code point of an NFC text is), where the
// reference's first NFC does nothing.
const isAscii = (text: string) => /^[\x00-\x7f]*$/.test(text);
const every = (text: string, test: (ch: string) => boolean) => [...text].every(test);
const nfd = (text: string) => text.normalize("NFD");
const folds = (ch: string) => isAscii(nfd(reference.caseFold(ch)));
const leads = (ch: string) => every(reference.skeleton(ch), folds);
const keys = (ch: string) => every(nfd(reference.caseFold(ch)), leads);

const hex = (ch: string) => (ch.codePointAt(0) as number).toString(16);

// Every code point but the surrogates, as one-character strings.
function* codePoints(): Generator<string> {
  for (let cp = 0; cp <= 0x10ffff; cp += 1) if (cp < 0xd800 || cp > 0xdfff) yield String.fromCodePoint(cp);
}

describe("the facts the ASCII filters rest on, on every code point", () => {
  test("the ASCII characters whose key is not ASCII are those asciiOffKey tests for: % alone; and no ASCII character folds out of ASCII", () => {
    const off: string[] = [];
    for (let cp = 0; cp < 0x80; cp += 1) {
      const ch = String.fromCharCode(cp);
      expect(isAscii(reference.caseFold(ch))).toBe(true);
      if (!isAscii(reference.confusableKey(ch))) off.push(ch);
      expect(asciiOffKey().test(`x${ch}y`)).toBe(off.includes(ch));
    }
    expect(off).toEqual(["%"]);
  });

  test("no ASCII character decomposes, so composition never puts one in", () => {
    for (let cp = 0; cp < 0x80; cp += 1) expect(nfd(String.fromCharCode(cp))).toBe(String.fromCharCode(cp));
  });

  test("FOLDS is ASCII and ten others, and closed under NFD", () => {
    const found: string[] = [];
    const open: string[] = [];
    for (const ch of codePoints()) {
      if (ch.normalize("NFC") !== ch || !folds(ch)) continue;
      if (!isAscii(ch)) found.push(hex(ch));
      if (!every(nfd(ch), folds)) open.push(hex(ch));
    }
    expect(found).toEqual(["df", "17f", "1e9e", "fb00", "fb01", "fb02", "fb03", "fb04", "fb05", "fb06"]);
    expect(open).toEqual([]);
  });

  test("KEYS is closed under NFD", () => {
    const open: string[] = [];
    for (const ch of codePoints()) {
      if (ch.normalize("NFC") === ch && keys(ch) && !every(nfd(ch), keys)) open.push(hex(ch));
    }
    expect(open).toEqual([]);
  });

  test("each code point's facts are those of its NFD, and an astral one always may reach ASCII", () => {
    const wrong: string[] = [];
    for (const ch of codePoints()) {
      const fold = ch.length === 2 || every(nfd(ch), folds);
      const key = ch.length === 2 || every(nfd(ch), keys);
      if (mayFoldToAscii(ch) !== fold || mayKeyToAscii(ch) !== key) wrong.push(hex(ch));
    }
    expect(wrong).toEqual([]);
  });
});

// Names mixing ASCII, the non-ASCII members of FOLDS, combining marks, confusable and other
// letters of other scripts, in any of three forms.
// biome-ignore format: a line a kind of character reads better than a line a character
const PIECES = [
  "a", "s", "S", "k", "K", "t", "f", "l", "i", "o", "e", "m", "r", "n", "1", "0", "-", ".", ";", "`", "|",
  "\u00df", "\u017f", "\u037e", "\u1e9e", "\u1fef", "\u212a", "\ufb00", "\ufb01", "\ufb05", "\u0130", "\u0149",
  "\u0301", "\u0308", "\u0327", "\u0338", "\u0345", "\u0307", "\u20e5",
  "\u0430", "\u0435", "\u043e", "\u0441", "\u0455", "\u0410", "\u0434", "\u03bf", "\u03b1", "\u0391", "\u03c9", "\u03a9", "\u1fb3",
  "\u00e9", "\u00c5", "\u212b", "\u30c6", "\u0627", "\ud835\udc1a", "\ud801\udc00", "\ud800",
];
const name = fc
  .tuple(fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 6 }), fc.constantFrom("as is", "NFC", "NFD"))
  .map(([parts, form]) => (form === "as is" ? parts.join("") : parts.join("").normalize(form)));

describe("the filters", () => {
  test("property: a name said not to reach ASCII has a fold and a key that are not ASCII", () => {
    fc.assert(
      fc.property(name, (text) => {
        if (!mayFoldToAscii(text)) expect(isAscii(reference.caseFold(text))).toBe(false);
        if (!mayKeyToAscii(text)) expect(isAscii(reference.confusableKey(text))).toBe(false);
      }),
      { numRuns: 5000 },
    );
  });

  test("keep the names that do reach ASCII, drop the Greek and Cyrillic words of the unicode shape", () => {
    for (const text of ["Stra\u00dfe", "\ufb01le", "\u212aelvin", "\u0430\u0441\u0435", "\u0455\u0430\u0455"]) {
      expect([text, mayFoldToAscii(text) || mayKeyToAscii(text)]).toEqual([text, true]);
    }
    for (const text of ["\u03a9\u03bc\u03ad\u03b3\u03b1-1.md", "\u0434\u0430\u043d\u043d\u044b\u0435", "r\u00e9sum\u00e9".normalize("NFD")]) {
      expect([text, mayFoldToAscii(text), mayKeyToAscii(text)]).toEqual([text, false, false]);
    }
  });
});
