import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { isWordly, visibleBmp } from "./categories.js";

const HIDDEN = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}]/u;
const LETTER_OR_MARK = /^[\p{L}\p{M}]$/u;

describe("categories by code unit", () => {
  test("every BMP code unit alone: visible, and a letter or mark, exactly as the regular expressions say", () => {
    const wrong: string[] = [];
    for (let unit = 0; unit < 0x10000; unit += 1) {
      const ch = String.fromCharCode(unit);
      const surrogate = unit >= 0xd800 && unit <= 0xdfff;
      if (visibleBmp(ch) !== (!surrogate && !HIDDEN.test(ch))) wrong.push(`visible ${unit.toString(16)}`);
      if (isWordly(unit) !== (!surrogate && LETTER_OR_MARK.test(ch))) wrong.push(`word ${unit.toString(16)}`);
    }
    expect(wrong).toEqual([]);
  });

  test("property: a text visibleBmp passes holds no hidden character and no surrogate", () => {
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
      }),
      { numRuns: 3000 },
    );
  });
});
