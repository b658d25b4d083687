// Facts about characters under normalisation, read from this engine's own `normalize`, that let
// the primitives skip a normalisation whose result is known. The unicode tests check the facts.
import { unitFacts } from "./unit-facts.js";

/**
 * Below U+0300 every character is its own NFC, a starter, and never the second of a composed
 * pair, so a string of them is NFC already.
 */
export const NFC_STABLE_BELOW = 0x300;

/** Below U+00C0 every character is its own NFD and a starter: a string of them is NFD already. */
export const NFD_STABLE_BELOW = 0xc0;

/**
 * Whether a character (one code point, its own NFD) has canonical combining class 0, told from
 * canonical ordering: after U+0345 (class 240, the largest) a class from 1 to 239 moves in front
 * of it, and before U+0334 (class 1) a class above 1 moves behind it.
 */
export function isStarter(ch: string): boolean {
  return `\u0345${ch}`.normalize("NFD") === `\u0345${ch}` && `${ch}\u0334`.normalize("NFD") === `${ch}\u0334`;
}

// Per BMP code unit, once looked at: SEEN, and which kinds of inert it is.
const SEEN = 1;
const NFC_INERT = 2;
const NFD_INERT = 4;
const NFKC_INERT = 8;
const MARK = /^\p{M}$/u;

// Besides marks, only Hangul vowels and trailing consonants compose with what precedes them.
const composesBack = (ch: string) => MARK.test(ch) || (ch >= "\u1160" && ch <= "\u11ff");

// The facts of a code unit not looked at yet.
function learn(unit: number): number {
  let known = SEEN;
  if (unit < 0xd800 || unit > 0xdfff) {
    const ch = String.fromCharCode(unit);
    const first = String.fromCodePoint(ch.normalize("NFD").codePointAt(0) as number);
    if (ch.normalize("NFC") === ch && isStarter(first) && !composesBack(first)) {
      known |= NFC_INERT;
      if (ch.normalize("NFKD") === ch.normalize("NFD")) known |= NFKC_INERT;
    }
    if (ch.normalize("NFD") === ch && isStarter(ch)) known |= NFD_INERT;
  }
  return known;
}

const facts = unitFacts(learn);

/**
 * Whether every code unit of `text` is NFC-inert: its own NFC, and its NFD starts with a starter
 * that composes with nothing before it. Such a string is NFC: nothing reorders across a starter,
 * each character recomposes to itself, and none composes with its neighbour.
 */
export function nfcInert(text: string): boolean {
  return facts.all(text, SEEN, NFC_INERT, NFC_STABLE_BELOW);
}

/** Whether a code unit is a character that is its own NFD and a starter (a surrogate is not). */
export function nfdInertUnit(unit: number): boolean {
  return unit < NFD_STABLE_BELOW || (facts.of(unit, SEEN) & NFD_INERT) !== 0;
}

/** Whether every code unit of `text` is its own NFD and a starter: such a string is NFD. */
export function nfdInert(text: string): boolean {
  return facts.all(text, SEEN, NFD_INERT, NFD_STABLE_BELOW);
}

/** Below U+00A0 no character has a compatibility decomposition. */
export const NFKD_SAME_BELOW = 0xa0;

/**
 * Whether every code unit of `text` is NFC-inert with no compatibility decomposition (its NFKD
 * is its NFD). Such a string's NFKC is its NFC, which is itself.
 */
export function nfkcInert(text: string): boolean {
  return facts.all(text, SEEN, NFKC_INERT, NFKD_SAME_BELOW);
}
