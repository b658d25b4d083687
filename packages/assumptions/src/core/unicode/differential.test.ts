import fc from "fast-check";
import { describe, expect, test } from "vitest";
import * as reference from "../../../test/support/unicode-reference.js";
import { codeMap, isFlagged, mapCodes } from "./code-map.js";
import { caseFold, foldedCodes, nfc } from "./fold.js";
import { isSingleScript, scriptsOf } from "./scripts.js";
import { anchorKind, confusableGroups, confusableKey, NOT, skeleton, skeletonTable } from "./skeleton.js";
import { isStarter } from "./forms.js";
import { alphabetFor, skeletonIncludes, surelyLacks } from "./skeleton-search.js";

// Characters that have broken Unicode code before: NFD pieces and marks out of canonical order,
// Hangul syllables and jamo, the Kelvin and Ångström signs, final sigma, sharp s, dotted I, long s,
// ŉ and ǰ (folds that grow), confusables (Cyrillic, digits, m, mathematical letters), lone and
// paired surrogates, composition exclusions and starters that compose (Tamil, Oriya), ligatures,
// CJK, line ends and a BOM.
// biome-ignore format: a line a kind of character reads better than a line a character
const HARD = [
  "a", "e", "i", "m", "r", "n", "l", "I", "1", "0", "O", "|", " ", "-", ".", "\n", "\r", "\r\n", "\uFEFF", "\t",
  "\u0300", "\u0301", "\u0308", "\u0316", "\u0323", "\u0334", "\u0344", "\u0345", "\u0307", "\u030C",
  "é", "ü", "À", "Å", "ñ", "ß", "\u1E9E", "\u0130", "\u0131", "\u0149", "\u01F0", "\u017F", "\u1E9B", "µ", "ª", "²",
  "\u212A", "\u212B", "\u2126", "Ω", "ω", "Σ", "σ", "ς", "ΐ", "\u0390", "\u1FBE", "ά", "Ά",
  "а", "А", "с", "е", "р", "о", "Ж", "ё", "й", "\u0419",
  "\uAC00", "\uD55C", "\u1100", "\u1161", "\u11A8", "\u3131",
  "\uD800", "\uDC00", "\uDBFF", "\uD835\uDC00", "\uD83D\uDE00", "\u{10D50}", "\u{10D70}", "\u{1D15E}",
  "\u0958", "\u0915", "\u093C", "\u0BC6", "\u0BBE", "\u0B47", "\u0B3E", "\u0F73", "\uFB01", "\uFF76", "\u00A0",
  "日", "本", "ひ", "カ", "ー", "ㄅ", "\u05D0", "\u0627", "\u0E01", "\u0531", "\u10D0",
];

const hardUnit = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...HARD) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 1 }) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 0xffff }).map((u) => String.fromCharCode(u)) },
);
// `size: "max"`: fast-check's default size would keep every string at about ten units, whatever
// `maxLength` says, and never reach the paths for texts of LONG (64) units or more.
const hardString = (maxLength: number) =>
  fc
    .tuple(fc.string({ unit: hardUnit, maxLength, size: "max" }), fc.constantFrom("as is", "NFC", "NFD", "NFKD"))
    .map(([s, form]) => (form === "as is" ? s : s.normalize(form)));
// Long texts mostly of ASCII, as files are, so the piecewise paths meet every kind of boundary.
const filler = fc.constantFrom("export const x = 1;\n", "mmm 0Il| ", "a".repeat(40), "r\u00E9sume\u0301 ", "\u1100\u1161\u11A8\n");
const longText = fc.array(fc.oneof(filler, hardString(12)), { minLength: 10, maxLength: 80, size: "max" }).map((parts) => parts.join(""));
const anyText = fc.oneof(hardString(24), fc.string({ unit: "binary" }), fc.string({ unit: "grapheme" }), longText);

// Deterministic large inputs: about 1 MiB of code with a non-ASCII line here and there, and of
// Greek and Cyrillic prose, each partly decomposed.
const lines = ["export const café1 = 1;\n", "// Ωμέγα данные résumé\n", "export function m(x: number) { return x * 10; }\n"];
const MIB_MIXED = Array.from({ length: 22_000 }, (_, k) => {
  const line = lines[k % 3] as string;
  return k % 5 === 0 ? line.normalize("NFD") : line;
}).join("");
const MIB_PROSE = "Ωμέγα ΣΟΦΙΑ σοφίας Привет ДАННЫЕ мир\r\n".repeat(28_000).normalize("NFD");

describe("differential: each fast primitive gives the string the reference gives", () => {
  test.each([
    ["caseFold", caseFold, reference.caseFold],
    ["skeleton", skeleton, reference.skeleton],
    ["confusableKey", confusableKey, reference.confusableKey],
    ["scriptsOf", scriptsOf, reference.scriptsOf],
    ["isSingleScript", isSingleScript, reference.isSingleScript],
    ["nfc", nfc, (s: string) => s.normalize("NFC")],
    ["foldedCodes then NFC", (s: string) => foldedCodes(s).normalize("NFC"), reference.caseFold],
  ] as const)("property: %s", (_, fast, slow) => {
    fc.assert(
      fc.property(anyText, (text) => {
        expect(fast(text)).toBe(slow(text));
      }),
      { numRuns: 3000 },
    );
  });

  test("property: nfc on long texts, normalised piece by piece", () => {
    fc.assert(
      fc.property(longText, (text) => {
        expect(nfc(text)).toBe(text.normalize("NFC"));
      }),
      { numRuns: 2000 },
    );
  });

  test("property: nfc on texts of many pieces (each some 16,000 units), the cuts falling anywhere", () => {
    // A run of ASCII first moves every cut; the repeats make texts of 20,000 to 400,000 units.
    const manyPieces = fc
      .tuple(fc.nat(20_000), longText, fc.integer({ min: 1, max: 400 }))
      .map(([pad, text, times]) => "a".repeat(pad) + text.repeat(Math.max(times, Math.ceil(20_000 / Math.max(1, text.length)))));
    fc.assert(
      fc.property(manyPieces, (text) => {
        expect(nfc(text)).toBe(text.normalize("NFC"));
      }),
      { numRuns: 150 },
    );
  });

  test.each([
    ["caseFold", caseFold, reference.caseFold],
    ["skeleton", skeleton, reference.skeleton],
    ["confusableKey", confusableKey, reference.confusableKey],
    ["nfc", nfc, (s: string) => s.normalize("NFC")],
  ] as const)("%s on every code point alone, and after an e", (_, fast, slow) => {
    const wrong: string[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp += cp < 0x30000 ? 1 : 97) {
      const ch = String.fromCodePoint(cp);
      if (fast(ch) !== slow(ch) || fast(`e${ch}x`) !== slow(`e${ch}x`)) wrong.push(cp.toString(16));
    }
    expect(wrong).toEqual([]);
  });

  // confusableKey joins the keys of a name's units when no step of it can reorder or compose
  // across two of them. After letters that compose with what follows (Latin and Cyrillic letters
  // with marks, a Hangul syllable with a trailing consonant, a leading consonant with a vowel,
  // Devanagari with a nukta, Oriya vowels with each other), a unit whose key, or a step of it,
  // starts with something that would compose must not be joined.
  test("confusableKey of every BMP unit after letters that compose with what follows", () => {
    const wrong: string[] = [];
    for (let unit = 0; unit <= 0xffff; unit += 1) {
      const ch = String.fromCharCode(unit);
      for (const before of ["a", "\u0430", "\uAC00", "\u1100", "\u0915", "\u0B47"]) {
        if (confusableKey(before + ch) !== reference.confusableKey(before + ch)) wrong.push(unit.toString(16));
      }
    }
    expect(wrong).toEqual([]);
  });

  test.each([
    ["final sigma", "ΟΔΟΣ ὈΔΌΣ ς"],
    ["sharp s and dotted I", "STRAẞE Straße İstanbul ŉ ǰ"],
    ["the Kelvin and Ångström signs", "\u212A\u212B\u2126 kelvin"],
    ["NFD names", "résumé-1.md Ωμέγα-56857.md Ärger niño".normalize("NFD")],
    ["marks out of canonical order", "a\u0301\u0316\u0323b\u0345\u0301"],
    ["Hangul, composed and as jamo", "한글 \u1100\u1161\u11A8 \uAC00\u11A8"],
    ["lone and paired surrogates", "\uD800a\uDC00\uD835\uDC00\uDBFF"],
    ["line ends and a BOM", "\uFEFFone\r\ntwo\rthree\n"],
  ])("hand-picked: %s", (_, text) => {
    expect(caseFold(text)).toBe(reference.caseFold(text));
    expect(skeleton(text)).toBe(reference.skeleton(text));
    expect(confusableKey(text)).toBe(reference.confusableKey(text));
    expect(scriptsOf(text)).toBe(reference.scriptsOf(text));
    expect(isSingleScript(text)).toBe(reference.isSingleScript(text));
    expect(nfc(text)).toBe(text.normalize("NFC"));
  });

  test.each([
    ["mixed code", MIB_MIXED],
    ["Greek and Cyrillic prose", MIB_PROSE],
  ])("1 MiB of %s", (_, text) => {
    expect(skeleton(text)).toBe(reference.skeleton(text));
    expect(caseFold(text)).toBe(reference.caseFold(text));
    expect(nfc(text)).toBe(text.normalize("NFC"));
  });

  test("9 MB that alternates a combining mark with letters: NFC without exhausting the stack", () => {
    const text = "Приве\u0301т ".concat("e\u0301".repeat(3_000_000), " да".repeat(100_000));
    expect(nfc(text)).toBe(text.normalize("NFC"));
  });
});

describe("skeletonIncludes", () => {
  const literal = fc.oneof(hardString(6), fc.constantFrom("данные1", "Ωμέγα", "café", "rn", "l", "", "e\u0301 m", "한", "\u0301"));
  // A text holding the literal's skeleton, or a near miss of it, somewhere among long filler.
  const planted = fc.tuple(longText, literal, fc.nat(), fc.boolean()).map(([text, lit, at, whole]) => {
    const cut = at % (text.length + 1);
    const inner = whole ? lit : lit.slice(0, -1);
    return [text.slice(0, cut) + inner + text.slice(cut), lit] as const;
  });
  test("property: the same answer as looking in the whole skeleton", () => {
    fc.assert(
      fc.property(fc.oneof(fc.tuple(anyText, literal), planted), ([text, lit]) => {
        const wanted = reference.skeleton(lit);
        expect(skeletonIncludes(text, wanted)).toBe(reference.skeleton(text).includes(wanted));
      }),
      { numRuns: 3000 },
    );
  });
  test("a literal at either side of the line feed that ends a block (16 KiB), and across it", () => {
    // Under 32,768 units: no alphabet is weighed, and a literal of ASCII anchors is looked for block by block.
    const lines = `${"x".repeat(99)}\n`.repeat(200);
    const firstEnd = lines.indexOf("\n", 16 * 1024);
    for (const at of [firstEnd - 1, firstEnd, firstEnd + 1, firstEnd + 2]) {
      const text = `${lines.slice(0, at)}qq${lines.slice(at)}`;
      for (const lit of ["qq", "q", "qqx", "xqq", "\nqq", "qq\n"]) {
        const wanted = skeleton(lit);
        expect([at, lit, skeletonIncludes(text, wanted)]).toEqual([at, lit, reference.skeleton(text).includes(wanted)]);
      }
    }
  });
  test("skeletons of long texts with lone surrogates, their buffers decoded piece by piece", () => {
    for (const length of [5000, 20_000]) {
      const text = `${"дaнныe \uD800 résumé\n".repeat(Math.ceil(length / 20))}\uDC00`;
      expect(skeleton(text)).toBe(reference.skeleton(text));
    }
  });
  test("a hit in the last block of 1 MiB, across its blocks, and a miss", () => {
    const text = `${MIB_MIXED}дaнныe9 end`;
    for (const lit of ["данные9", "данные1", "Ωμέγα данные", "nowhere", "\n// Ωμέγα"]) {
      const wanted = skeleton(lit);
      expect(skeletonIncludes(text, wanted)).toBe(reference.skeleton(text).includes(wanted));
    }
  });
});

describe("skeletonIncludes with a long literal on text dense with its script", () => {
  // Cyrillic words, an ASCII space between: windows as wide as the literal overlap from word to
  // word, and the search turns to blocks once they cost twice the text.
  const words = Array.from({ length: 6000 }, (_, k) => "вдёжзийклмнптфцчшщыьэюя".slice(k % 17, (k % 17) + 2 + (k % 5))).join(" ");
  const long = Array.from({ length: 3000 }, (_, k) => "вдёжзийклмнптфцчшщ"[(k * 7) % 18]).join("");
  test("a long literal near the end, spelled in look-alike Latin, and one nowhere", () => {
    const planted = `${words} ${long.slice(0, 2000)}\n${words.slice(0, 500)}`;
    for (const [text, lit] of [
      [planted, long.slice(0, 2000)],
      [planted, long],
      [words, long],
      [`${words}${long.replaceAll("а", "a")}`, long],
    ] as const) {
      const wanted = skeleton(lit);
      expect(skeletonIncludes(text, wanted)).toBe(reference.skeleton(text).includes(wanted));
    }
    expect(skeletonIncludes(planted, skeleton(long.slice(0, 2000)))).toBe(true);
  });
});

describe("skeletonIncludes on long texts, weighed by the code points they hold", () => {
  // Prose of one script with digits, Latin look-alikes and marks here and there; its code points
  // are counted (alphabetFor(text, 0)) as the search counts those of a text of 32,768 units or more.
  const prose = fc
    .array(fc.oneof(fc.constantFrom("привет мир ", "данные ", "ΣΟΦΙΑ σοφίας ", "\n", "résumé ", "x = 42;\n"), hardString(8)), { minLength: 20, maxLength: 60 })
    .map((parts) => parts.join("").repeat(Math.ceil(4200 / Math.max(1, parts.join("").length))));
  const literal = fc.oneof(hardString(8), fc.constantFrom("данные1", "данные", "дaнныe", "σοφία", "ΣOΦIA", "é9", "ё", "\u0308", "𝐚б", "щ"));
  const planted = fc.tuple(prose, literal, fc.nat(), fc.constantFrom("whole", "cut", "look-alike")).map(([text, lit, at, how]) => {
    const cut = at % (text.length + 1);
    const inner = how === "whole" ? lit : how === "cut" ? lit.slice(0, -1) : lit.replaceAll("а", "a").replaceAll("е", "e").replaceAll("о", "o");
    return [text.slice(0, cut) + inner + text.slice(cut), lit] as const;
  });
  test("property: the same answer as looking in the whole skeleton, and `surelyLacks` only where it is lacking", () => {
    fc.assert(
      fc.property(fc.oneof(fc.tuple(prose, literal), planted), ([text, lit]) => {
        const wanted = reference.skeleton(lit);
        const held = reference.skeleton(text).includes(wanted);
        const alphabet = alphabetFor(text, 0);
        expect(skeletonIncludes(text, wanted)).toBe(held);
        expect(skeletonIncludes(text, wanted, alphabet)).toBe(held);
        if (surelyLacks(alphabet, wanted)) expect(held).toBe(false);
      }),
      { numRuns: 400 },
    );
  });
  // 8,000 lines of Cyrillic words, no digit and no Latin letter among them.
  const russian = Array.from({ length: 8000 }, (_, k) => `строка ${"вдёжзийклмнпт".slice(k % 7, (k % 7) + 3)} конец\n`).join("");
  test.each([
    ["a digit the text holds nowhere", russian, "данные0", false],
    ["the digit, once, at the very end", `${russian}данные0`, "данные0", true],
    ["the digit once, the rest of the word a line away", `${russian.slice(0, 5000)}данн\nые0${russian.slice(5000)}`, "данные0", false],
    ["in Latin look-alikes at the start", `дaнныe0 ${russian}`, "данные0", true],
    ["ё decomposed in the text, composed in the literal", `${russian}пoлe\u0308т`, "полёт", true],
    ["a mathematical letter for the Latin one", `${russian}\u{1D41A}бв`, "aбв", true],
    ["a mathematical letter the only code point putting in its Latin one", `${russian}\u{1D42A}`, "q", true],
    ["a mark no code point of the text holds", russian, "e\u0323", false],
  ])("%s", (_, text, lit, held) => {
    const wanted = skeleton(lit);
    expect(reference.skeleton(text).includes(wanted)).toBe(held);
    expect(skeletonIncludes(text, wanted)).toBe(held);
  });
  test("a literal with a unit no code point of the text puts in is ruled out without a look; one with none such is not", () => {
    const alphabet = alphabetFor(russian);
    expect(surelyLacks(alphabet, skeleton("данные0"))).toBe(true);
    expect(surelyLacks(alphabet, skeleton("строка"))).toBe(false);
    expect(surelyLacks(alphabetFor("short"), skeleton("данные0"))).toBe(false);
  });
});

describe("the skeleton's anchors", () => {
  test("below U+00C0 are the units without a prototype, or whose prototype is starters that are their own NFD", () => {
    const prototypeOf = new Map(confusableGroups().flatMap(([prototype, sources]) => [...sources].map((source) => [source, prototype] as const)));
    const table = skeletonTable();
    for (let unit = 0; unit < 0xc0; unit += 1) {
      const prototype = prototypeOf.get(String.fromCharCode(unit));
      const anchor = prototype === undefined || (prototype.normalize("NFD") === prototype && [...prototype].every(isStarter));
      expect([unit, anchorKind(unit, table) !== NOT]).toEqual([unit, anchor]);
    }
  });
});

describe("code maps", () => {
  // Code points replaced, some by surrogates (lone or paired), one by nothing (the flagged value).
  const entries = new Map<number, string>([
    [0x61, "A"],
    [0x62, "\uD83D\uDE00"],
    [0x63, "\uD800"],
    [0x64, "\uDC00"],
    [0x65, "xyz".repeat(8)],
    [0xd800, "<lone>"],
    [0x1f600, ":)"],
    [0x301, ""],
  ]);
  const map = codeMap(entries, (v) => v === "");
  // mapCodes against the replacement of each code point over the string iterator.
  const mapsAsIterated = (text: string) => {
    const mapped = mapCodes(text, map);
    expect(mapped.text).toBe([...text].map((ch) => entries.get(ch.codePointAt(0) as number) ?? ch).join(""));
    expect(mapped.flagged).toBe(text.includes("\u0301"));
  };

  test("property: mapCodes equals the per-code-point replacement over the string iterator", () => {
    // The index of "no replacement" is not flagged, though the flag would pick its "" out.
    expect(isFlagged(map, 0)).toBe(false);
    fc.assert(fc.property(hardString(200), mapsAsIterated), { numRuns: 1000 });
  });

  test("property: on texts of LONG units and more (one buffer), with surrogates lone or paired", () => {
    const unit = fc.constantFrom("a", "b", "c", "d", "e", "f", "\u0301", "\uD800", "\uDC00", "\uD83D\uDE00", "\uD83D", "\uDE00", "\uFEFF", "\uFFFE");
    fc.assert(
      fc.property(
        fc.array(unit, { minLength: 32, maxLength: 400, size: "max" }).map((units) => units.join("")),
        mapsAsIterated,
      ),
      { numRuns: 2000 },
    );
  });
});
