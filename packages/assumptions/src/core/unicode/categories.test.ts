import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { visibleBmp, wordsOf } from "./categories.js";

const HIDDEN = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}]/u;
const WORD = /[\p{L}\p{M}]+/gu;
const regexWords = (text: string) => Array.from(text.matchAll(WORD), ([word]) => word);

describe("categories by code unit", () => {
  test("every BMP code unit alone: visible and a word exactly as the regular expressions say", () => {
    const wrong: string[] = [];
    for (let unit = 0; unit < 0x10000; unit += 1) {
      const ch = String.fromCharCode(unit);
      const surrogate = unit >= 0xd800 && unit <= 0xdfff;
      if (visibleBmp(ch) !== (!surrogate && !HIDDEN.test(ch))) wrong.push(`visible ${unit.toString(16)}`);
      if (!surrogate && wordsOf(ch).join() !== regexWords(ch).join()) wrong.push(`word ${unit.toString(16)}`);
    }
    expect(wrong).toEqual([]);
  });

  test("property: a text visibleBmp passes holds no hidden character, and its words are the regex's", () => {
    const piece = fc.oneof(
      fc.constantFrom(
        "a",
        "Z",
        "-",
        "/",
        ".",
        "1",
        " ",
        "é",
        "e\u0301",
        "\u0301",
        "Ω",
        "данные",
        "日本",
        "ー",
        "\u00ad",
        "\u200b",
        "\t",
        "\ud835\udc1a",
        "\ud800",
      ),
      fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const text = pieces.join("");
        if (!visibleBmp(text)) return;
        expect(HIDDEN.test(text)).toBe(false);
        expect(/[\ud800-\udfff]/.test(text)).toBe(false);
        expect(wordsOf(text)).toEqual(regexWords(text));
      }),
      { numRuns: 3000 },
    );
  });
});
