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

/**
 * The words of a `visibleBmp` text, in order: its longest runs of letters and marks, as
 * `/[\p{L}\p{M}]+/gu` matches them.
 */
export function wordsOf(text: string): string[] {
  const words: string[] = [];
  let start = -1;
  for (let i = 0; i <= text.length; i += 1) {
    const wordly = i < text.length && (facts.of(text.charCodeAt(i), SEEN) & WORDLY) !== 0;
    if (wordly && start === -1) start = i;
    else if (!wordly && start !== -1) {
      words.push(text.slice(start, i));
      start = -1;
    }
  }
  return words;
}
