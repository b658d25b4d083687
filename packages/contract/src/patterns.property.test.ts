// `matches-anything`: a `matches` pattern refused as matching every output really does, an assertion
// or-ed with its negation (`\b|\B`, `(?=a)|(?!a)`) is seen, and a pattern that asks something is read.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { quantifier, regexesOf, regexSource } from "../test/support/regex-arbitrary.js";
import { patternProblem } from "./patterns.js";

const refused = (re: string) => patternProblem(re, false) === "matches-anything";

/** Each end a text can show an assertion: none (empty), a word character, a character that is none. */
const ENDS = ["", "a", "_", "9", " ", "\n", "é", "-"];
/** Texts with every pair of ends, and some with more between them. */
const TEXTS = [...ENDS.flatMap((a) => ENDS.map((b) => a + b)), "ab a", " xb\n", "ERROR", "ok\nok", "b-a"];
const text = fc.string({ unit: fc.constantFrom("a", "b", "x", "_", " ", "\n", "é", "-", "\b"), maxLength: 10 });

/** Whether `re` matches the empty string at the start of `text` (some path ends where it began). */
const emptyAtStart = (re: string, text: string) => new RegExp(`(?:${re})(?<![\\s\\S])`, "y").test(text);
/** Whether `re` matches (so matches empty) at the end of `text`. */
function emptyAtEnd(re: string, text: string): boolean {
  const sticky = new RegExp(re, "y");
  sticky.lastIndex = text.length;
  return sticky.test(text);
}
const everywhereAtAnEnd = (re: string, texts: readonly string[]) => texts.every((t) => emptyAtStart(re, t)) || texts.every((t) => emptyAtEnd(re, t));

describe("a pattern refused as matching anything matches every output", () => {
  test("generated patterns with assertions and lookarounds: refused means matched at one end of every text", () => {
    fc.assert(
      fc.property(regexSource, fc.array(text, { maxLength: 6 }), (re, more) => {
        fc.pre(refused(re));
        const texts = [...TEXTS, ...more];
        for (const t of texts) expect(new RegExp(re).test(t), `${re} on ${JSON.stringify(t)}`).toBe(true);
        expect(everywhereAtAnEnd(re, texts), re).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  test("without lookarounds the rule is exact: refused exactly when the pattern matches empty at one end of every text", () => {
    // What `^`, `$`, `\b` and `\B` see at an end is whether the text is empty and whether that end is a
    // word character: TEXTS holds every case at both ends, so the model here is the truth.
    const piece = fc.constantFrom("a", "_", " ", ".", "[ab]", "\\b", "\\B", "^", "$", "\\1", "x{0}", "(?:)");
    fc.assert(
      fc.property(regexesOf(piece, ["(", "(?:"]), (re) => {
        // One refused first as too costly to check (`too-complex`) is not read for this rule at all.
        fc.pre(patternProblem(re, false) !== "too-complex");
        expect(refused(re), re).toBe(everywhereAtAnEnd(re, TEXTS));
      }),
      { numRuns: 3000 },
    );
  });

  test("an assertion or-ed with its negation holds everywhere, whatever it asserts, and is refused", () => {
    // A body with a backreference is left out: a lookaround into the text that captures is then taken
    // as never holding (what it captured is unknown), so such a pair may go unseen; never wrongly refused.
    const body = fc.oneof(regexSource, fc.constantFrom("a", "[\\s\\S]*ERROR", "(a)", ".(a)")).filter((b) => !b.includes("\\1"));
    fc.assert(
      fc.property(body, quantifier, (b, q) => {
        for (const re of [`(?=${b})|(?!${b})`, `^(?:(?!${b})|(?=${b}))${q}`, `(?<=${b})|(?<!${b})`, `(?:(?<=${b})|(?<!${b}))$`]) {
          fc.pre(patternProblem(re, false) !== "bad-regex" && patternProblem(re, false) !== "too-complex");
          expect(refused(re), re).toBe(true);
          for (const t of TEXTS) expect(new RegExp(re).test(t)).toBe(true);
        }
      }),
      { numRuns: 1000 },
    );
  });

  // Patterns with no space, one after another.
  const together = String.raw`\b|\B (?:\b|\B) \B|\b (?:\b|\B)+ x|\b|\B (?:(?=a)|(?!a)) ^\b|^\B \b$|\B$ (?<=a)|(?<!a)$ ^(?:(?=a)|(?!a)) (?:(?<!a)|(?<=a))$`;
  test.each(together.split(" "))("%s matches every text, and is refused", (re) => {
    for (const t of TEXTS) expect(new RegExp(re).test(t)).toBe(true);
    expect(refused(re)).toBe(true);
  });
});

describe("a pattern that asks something of the output is read", () => {
  // Each with a text it does not match: so refusing it would be wrong.
  const asks: [string, string][] = [
    ["\\bok", "no"],
    ["^(?![\\s\\S]*ERROR)", "an ERROR"],
    ["^$", "x"],
    ["\\B", "a"],
    ["\\b", " "],
    ["(?=a)", "b"],
    ["(?<=x)", "y"],
    ["(?!x)y", "x"],
    ["^\\b", " a"],
    ["^\\B", "a "],
    ["\\b$", "a "],
    ["(?=a)|(?=b)", "c"],
    ["(?<=a)|(?<=b)", "c"],
    ["^(?=a)|^(?!a)b", "c"],
    ["\\b(?=x)", "a"],
    // A lookahead that captures: what it captured must be there, so it does not hold as an unknown would.
    ["^(?:(?=.(a))\\1|(?!.(a)))", "ba"],
    // Under a negation, taking such a lookaround as never holding would make the negation hold.
    ["$(?!(?<=(a)))\\1", "a"],
  ];

  test("each known one, as written or grouped, is read, and really fails on some text", () => {
    // Wrappings that add no capturing group before one of its own, so its backreferences keep their meaning.
    const wrap = fc.constantFrom(
      (d: string) => d,
      (d: string) => `(?:${d})`,
      (d: string) => `(?:(?:${d})|(?!))`,
      (d: string) => `(?:${d})(?:)`,
    );
    fc.assert(
      fc.property(fc.constantFrom(...asks), wrap, ([d, miss], w) => {
        const re = w(d);
        expect(new RegExp(re).test(miss), `${re} on ${JSON.stringify(miss)}`).toBe(false);
        expect(patternProblem(re, false), re).toBeNull();
      }),
      { numRuns: 300 },
    );
  });
});
