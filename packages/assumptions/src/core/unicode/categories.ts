// The general categories rule 6 asks about, per BMP code unit, each learned once from the
// engine's own regular expressions: most values are then checked by table lookups, not by scans
// of Unicode-aware regular expressions.
import { unitFacts } from "./unit-facts.js";

const SEEN = 1;
// A character (not a surrogate) outside Cc, Cf and Co.
const VISIBLE = 2;
// A letter or a mark: a character of a word.
const WORDLY = 4;

const HIDDEN = /^[\p{Cc}\p{Cf}\p{Co}]$/u;
const LETTER_OR_MARK = /^[\p{L}\p{M}]$/u;

function learn(unit: number): number {
  let known = SEEN;
  if (unit < 0xd800 || unit > 0xdfff) {
    const ch = String.fromCharCode(unit);
    if (!HIDDEN.test(ch)) known |= VISIBLE;
    if (LETTER_OR_MARK.test(ch)) known |= WORDLY;
  }
  return known;
}

const facts = unitFacts(learn);

/**
 * Whether every code unit of `text` is a BMP character outside Cc, Cf and Co (and so, no
 * surrogate: no Cs either). Such a text's code points are its code units.
 */
export function visibleBmp(text: string): boolean {
  return facts.all(text, SEEN, VISIBLE);
}

/** Whether BMP code unit `unit` is a letter or a mark (`[\p{L}\p{M}]`): a character of a word. */
export function isWordly(unit: number): boolean {
  return (facts.of(unit, SEEN) & WORDLY) !== 0;
}

const astralWordly = new Map<number, boolean>();

/** Whether code point `cp` (any plane) is a letter or a mark (`[\p{L}\p{M}]`); learned once per code point. */
export function isWordlyCodePoint(cp: number): boolean {
  if (cp < 0x10000) return isWordly(cp);
  let known = astralWordly.get(cp);
  if (known === undefined) {
    known = LETTER_OR_MARK.test(String.fromCodePoint(cp));
    astralWordly.set(cp, known);
  }
  return known;
}
