import { foldedCodes, isAscii } from "./fold.js";
import { skeleton } from "./skeleton.js";
import { unitFacts } from "./unit-facts.js";

// Whether a name's case fold or confusable key can be ASCII, told code unit by code unit (a
// surrogate: it may), so a lookup for an ASCII name skips the names that cannot match it. Exact:
// NFC(s) is ASCII only if NFD(s) is (composition puts in precomposed characters, none of them
// ASCII, and drops nothing); NFD, fold and prototypes map code point by code point; and the sets
// below are closed under NFD (ascii-reach.test.ts, on every code point), so the NFC a fold starts
// with can be seen through: a name reaches ASCII only if every code point of its NFD is in the set.

// Per code unit, each fact once looked at (the key's needs the skeleton's tables, the fold's not).
const FOLD_SEEN = 1;
const FOLD_REACH = 2;
const KEY_SEEN = 4;
const KEY_REACH = 8;

// Whether every code point of `text` passes `test`.
function every(text: string, test: (ch: string) => boolean): boolean {
  for (const ch of text) if (!test(ch)) return false;
  return true;
}

// FOLDS, the code points (each its own NFD, as here) whose fold's NFD is ASCII: ASCII, ß, ſ, ẞ and
// the ligatures U+FB00-FB06. (The Kelvin sign, U+037E and U+1FEF reach ASCII by their NFD.)
const folds = (ch: string) => isAscii(foldedCodes(ch).normalize("NFD"));
// LEADS, the code points whose prototype's NFD (their skeleton) is in FOLDS.
const leads = (ch: string) => every(skeleton(ch), folds);
// KEYS, the code points whose fold's NFD is in LEADS: a key is the fold of a skeleton of a fold.
const keys = (ch: string) => every(foldedCodes(ch).normalize("NFD"), leads);

// The group `seen` of a code unit: `seen`, and its REACH fact when the unit may lead to ASCII.
function learn(unit: number, seen: number): number {
  const [test, reach] = seen === FOLD_SEEN ? [folds, FOLD_REACH] : [keys, KEY_REACH];
  const reaches = (unit >= 0xd800 && unit <= 0xdfff) || every(String.fromCharCode(unit).normalize("NFD"), test);
  return seen | (reaches ? reach : 0);
}

const facts = unitFacts(learn);

/** False when `caseFold(text)` cannot be ASCII (true when it may be, as for every ASCII text). */
export function mayFoldToAscii(text: string): boolean {
  return facts.all(text, FOLD_SEEN, FOLD_REACH);
}

/** False when `confusableKey(text)` cannot be ASCII (true when it may be). */
export function mayKeyToAscii(text: string): boolean {
  return facts.all(text, KEY_SEEN, KEY_REACH);
}
