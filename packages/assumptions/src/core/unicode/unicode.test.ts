import fc from "fast-check";
import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { checkTree } from "../check.js";
import { fixtureTree } from "../../../test/support/fixture-tree.js";
import { parseAssumptions } from "../parse.js";
import { caseFold, nfc } from "./fold.js";
import { SCRIPT_EXTENSION_RANGES } from "./script-extensions-table.js";
import { SCRIPT_CODES, TABLES_UNICODE_VERSION } from "./scripts-table.js";
import { isSingleScript, propertyRegex, scriptsOf } from "./scripts.js";
import { confusableGroups, confusableKey, skeleton } from "./skeleton.js";

// The source the generator encodes the confusables table from (source character -> prototype).
const unhomoglyph = JSON.parse(readFileSync(new URL(import.meta.resolve("unhomoglyph/data.json")), "utf8")) as Record<string, string>;

// The engine is the oracle only when it follows the tables' Unicode version; on a Node 20 whose
// ICU is older the tests that compare every code point with it are skipped, visibly, with the
// versions in their titles.
const sameUnicode = process.versions.unicode === TABLES_UNICODE_VERSION;
const versions = `engine Unicode ${process.versions.unicode}, tables ${TABLES_UNICODE_VERSION}`;

const hex = (cp: number) => `U+${cp.toString(16).toUpperCase().padStart(4, "0")}`;

// Every assigned code point but private use and surrogates (Script=Unknown, no case, no
// extensions; a lone surrogate cannot sit in one string with its neighbours), as one string
// the regex engine, the independent oracle here, can scan once per property value.
const CHECKED = (() => {
  const skip = /[\p{Cn}\p{Co}]/u;
  let text = "";
  for (let cp = 0; cp <= 0x10ffff; cp += 1) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    const ch = String.fromCodePoint(cp);
    if (!skip.test(ch)) text += ch;
  }
  return text;
})();

/** The values of a Script-like property the engine gives each checked code point, in `codes` order. */
function engineValues(property: string, codes: readonly string[]): Map<number, string[]> {
  const out = new Map<number, string[]>();
  for (const code of codes) {
    for (const m of CHECKED.matchAll(new RegExp(`\\p{${property}=${code}}`, "gu"))) {
      const cp = m[0].codePointAt(0) as number;
      const values = out.get(cp);
      if (values) values.push(code);
      else out.set(cp, [code]);
    }
  }
  return out;
}

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
  test.each([
    ["capital sharp s", "\u1E9E", "ss"],
    ["capital I with dot above", "\u0130", "i\u0307"],
    ["the Kelvin sign", "\u212A", "k"],
    ["long s", "\u017F", "s"],
    ["Cherokee small a, to the older capital (not the other way round)", "\uAB70", "\u13A0"],
    ["Cherokee capital a, unchanged", "\u13A0", "\u13A0"],
    ["Garay capital a (Unicode 16.0), to its small letter", "\u{10D50}", "\u{10D70}"],
    ["Garay small a, unchanged", "\u{10D70}", "\u{10D70}"],
  ])("%s folds as CaseFolding.txt says", (_, from, to) => {
    expect(caseFold(from)).toBe(to);
  });
  test("Garay names differing only in case share a fold", () => {
    expect(caseFold("\u{10D50}\u{10D65}")).toBe(caseFold("\u{10D70}\u{10D85}"));
  });
  test.runIf(sameUnicode)(`the table changes exactly the characters the engine says Changes_When_Casefolded (${versions})`, () => {
    const changes = /^\p{Changes_When_Casefolded}$/u;
    const wrong: string[] = [];
    for (const ch of CHECKED) {
      if ((caseFold(ch) !== nfc(ch)) !== changes.test(ch)) wrong.push(hex(ch.codePointAt(0) as number));
    }
    expect(wrong).toEqual([]);
  });
  test.runIf(sameUnicode)(`every fold to one character matches its source in the engine's case-insensitive regex (${versions})`, () => {
    const wrong: string[] = [];
    for (const ch of CHECKED) {
      const folded = caseFold(ch);
      if (nfc(ch) !== ch || folded === ch || [...folded].length !== 1) continue;
      const cp = ch.codePointAt(0) as number;
      if (!new RegExp(`^\\u{${cp.toString(16)}}$`, "iu").test(folded)) wrong.push(`${hex(cp)} -> ${folded}`);
    }
    expect(wrong).toEqual([]);
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
  test("the shipped table is unhomoglyph's data, every source with its prototype", () => {
    const shipped = confusableGroups().flatMap(([prototype, sources]) => [...sources].map((s) => [s, prototype]));
    expect(Object.fromEntries(shipped)).toEqual(unhomoglyph);
    expect(shipped).toHaveLength(Object.keys(unhomoglyph).length);
  });
  test("property: an ASCII name's skeleton is the table applied code point by code point, NFD around", () => {
    const prototypeOf = new Map(confusableGroups().flatMap(([prototype, sources]) => [...sources].map((s) => [s, prototype] as const)));
    const reference = (text: string) =>
      [...text.normalize("NFD")]
        .map((c) => prototypeOf.get(c) ?? c)
        .join("")
        .normalize("NFD");
    fc.assert(
      fc.property(fc.string({ unit: fc.integer({ min: 0, max: 127 }).map((c) => String.fromCharCode(c)) }), (name) => {
        expect(skeleton(name)).toBe(reference(name));
      }),
      { numRuns: 2000 },
    );
    expect(skeleton("m015979.ts")).toBe("rnOl5979.ts");
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

test("every generated table's header names the Unicode version the code assumes", () => {
  for (const name of ["casefold", "scripts", "script-extensions"]) {
    const header = readFileSync(new URL(`./${name}-table.ts`, import.meta.url), "utf8").split("\n")[0];
    expect(header).toContain(`Unicode ${TABLES_UNICODE_VERSION}.0 data`);
  }
});

test("a script this Node's regex engine does not know is no match, never a thrown SyntaxError", () => {
  expect(propertyRegex("Latn")?.test("a")).toBe(true);
  expect(propertyRegex("Zzzq")).toBeNull();
});

describe.runIf(sameUnicode)(`script tables against this Node's regex engine (${versions})`, () => {
  const codes = [...SCRIPT_CODES, "Zyyy", "Zinh"];
  const script = engineValues("Script", codes);
  test("each checked code point has one Script, among SCRIPT_CODES or Common or Inherited; each code names some", () => {
    const wrong: string[] = [];
    for (const ch of CHECKED) {
      const cp = ch.codePointAt(0) as number;
      if (script.get(cp)?.length !== 1) wrong.push(`${hex(cp)} ${script.get(cp)?.join(" ")}`);
    }
    expect(wrong).toEqual([]);
    const used = new Set([...script.values()].flat());
    expect(SCRIPT_CODES.filter((code) => !used.has(code))).toEqual([]);
  });
  test("Script_Extensions from the table equal \\p{Script_Extensions=...} for every checked code point", () => {
    const engine = engineValues("Script_Extensions", codes);
    const listed = new Map<number, string>();
    for (const [first, last, values] of SCRIPT_EXTENSION_RANGES) for (let cp = first; cp <= last; cp += 1) listed.set(cp, values);
    const wrong: string[] = [];
    for (const ch of CHECKED) {
      const cp = ch.codePointAt(0) as number;
      const table = listed.get(cp) ?? script.get(cp)?.[0];
      const oracle = (engine.get(cp) ?? []).sort().join(" ");
      if (table !== oracle) wrong.push(`${hex(cp)} table ${table} engine ${oracle}`);
      listed.delete(cp);
    }
    expect(wrong).toEqual([]);
    expect([...listed.keys()].map(hex)).toEqual([]);
  });
  test("a Garay word is one script; Garay beside Latin in one word is two", () => {
    expect(scriptsOf("\u{10D50}\u{10D70}.md")).toBe("Gara+Latn");
    expect(isSingleScript("\u{10D50}\u{10D70}\u{10D71}")).toBe(true);
    expect(isSingleScript("a\u{10D70}")).toBe(false);
  });
});

describe("a path in a script added after Unicode 15", () => {
  test("a Garay name that differs from a tree entry only in case is a case variant, and diverges", async () => {
    const upper = "\u{10D50}\u{10D51}\u{10D52}";
    const lower = "\u{10D70}\u{10D71}\u{10D72}";
    const { tree } = fixtureTree({ [`docs/${upper}.md`]: "" });
    const assumptions = parseAssumptions(`absent\tdocs/${lower}.md\nexists\tdocs/${lower}.md`)._unsafeUnwrap();
    const report = (await checkTree({ tree, assumptions }))._unsafeUnwrap();
    expect(report.verdict).toBe("diverged");
    const variant = ["diverge", expect.stringContaining("case variant"), `docs/${upper}.md`];
    expect(report.rows.map((r) => [r.status, r.detail, r.spelled])).toEqual([variant, variant]);
  });
});
