import { describe, expect, test } from "vitest";
import { caseFold } from "./fold.js";
import { isSingleScript, scriptsOf } from "./scripts.js";
import { confusableKey, skeleton } from "./skeleton.js";

describe("full case folding table", () => {
  test("sharp s folds to ss, so Straße and STRASSE share a key", () => {
    expect(caseFold("ß")).toBe("ss");
    expect(caseFold("Straße")).toBe(caseFold("STRASSE"));
  });
  test("the Kelvin sign folds to k, the Ångström sign to å", () => {
    expect(caseFold("\u212A")).toBe("k");
    expect(caseFold("\u212B")).toBe("\u00E5");
  });
  test("final and medial sigma fold alike; capital I with dot folds to i + combining dot", () => {
    expect(caseFold("ς")).toBe(caseFold("Σ"));
    expect(caseFold("\u0130")).toBe("i\u0307");
  });
  test("runs cover alternating blocks (Latin Extended-A, Cyrillic)", () => {
    expect(caseFold("\u0100")).toBe("\u0101");
    expect(caseFold("Ж")).toBe("ж");
    expect(caseFold("Ա")).toBe("ա");
  });
});

describe("confusable skeleton (UTS #39)", () => {
  test("Cyrillic а, с, е have Latin prototypes", () => {
    expect(skeleton("а")).toBe("a");
    expect(skeleton("асе")).toBe("ace");
  });
  test("digit one looks like small l, and m like r n", () => {
    expect(skeleton("1")).toBe("l");
    expect(skeleton("m")).toBe("rn");
  });
  test("the key ignores case, so capital Cyrillic matches small Latin", () => {
    expect(confusableKey("АСЕ.ts")).toBe(confusableKey("ace.ts"));
  });
});

describe("scripts", () => {
  test("a word mixing Latin and Cyrillic is refused; one-script words pass", () => {
    expect(isSingleScript("rеfunds")).toBe(false);
    expect(isSingleScript("Описание")).toBe(true);
    expect(isSingleScript("コーヒー")).toBe(true);
  });
  test("the mixes Japanese, Korean and Chinese writing use pass", () => {
    expect(isSingleScript("test日本語")).toBe(true);
    expect(isSingleScript("日本語ひらがなカタカナ")).toBe(true);
    expect(isSingleScript("漢字한글")).toBe(true);
    expect(isSingleScript("ㄅㄆ漢字abc")).toBe(true);
  });
  test("Hiragana with Hangul, or Greek with Latin, is refused", () => {
    expect(isSingleScript("ひらがな한글")).toBe(false);
    expect(isSingleScript("alphaβ")).toBe(false);
  });
  test("Script_Extensions from the table: the prolonged sound mark fits Hiragana and Katakana words", () => {
    expect(isSingleScript("\u3042\u30FC")).toBe(true);
    expect(isSingleScript("\u30A2\u30FC")).toBe(true);
    expect(isSingleScript("\u0430\u30FC")).toBe(false);
  });
  test("scriptsOf names the scripts of a name's letters", () => {
    expect(scriptsOf("асе.ts")).toBe("Cyrl+Latn");
    expect(scriptsOf("асе")).toBe("Cyrl");
    expect(scriptsOf("file1.ts")).toBe("Latn");
  });
});
