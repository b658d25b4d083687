import { FOLD_FULL, FOLD_RUNS } from "./casefold-table.js";
import { allBelow, type CodeMap, codeMap, mapCodes } from "./code-map.js";

const ASCII = /^[\x00-\x7f]*$/;

let table: CodeMap | undefined;

/**
 * Below U+0300 every character is its own NFC, a starter, and never the second of a composed
 * pair, so a string of them is NFC already (unicode.test.ts checks each character and pair).
 */
export const NFC_STABLE_BELOW = 0x300;

function foldTable(): CodeMap {
  if (table) return table;
  const map = new Map<number, string>();
  for (let i = 0; i + 3 < FOLD_RUNS.length; i += 4) {
    const [start, count, step, delta] = FOLD_RUNS.slice(i, i + 4) as [number, number, number, number];
    for (let k = 0; k < count; k += 1) {
      const cp = start + k * step;
      map.set(cp, String.fromCodePoint(cp + delta));
    }
  }
  for (const [cp, folded] of FOLD_FULL) map.set(cp, folded);
  // A fold that leaves U+0300 and above behind means the folded text must go through NFC again.
  table = codeMap(map, (folded) => !allBelow(folded, NFC_STABLE_BELOW));
  return table;
}

/** True when a string holds only ASCII: such strings need neither NFC nor the fold table. */
export function isAscii(text: string): boolean {
  return ASCII.test(text);
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const ASCII_CAPITAL = /[A-Z]/;

/** True when a string holds only printable ASCII (space to `~`): no control, format or non-ASCII character. */
export function isPrintableAscii(text: string): boolean {
  return PRINTABLE_ASCII.test(text);
}

// Characters at or above U+0300 this close together share one piece of `nfc`.
const GAP = 16;

/**
 * NFC, skipped for strings below U+0300 (which NFC leaves unchanged). In a long text only the
 * pieces holding U+0300 and above are normalised: a character below U+0300 neither composes with
 * what comes before it nor lets what follows reach past it, so NFC splits before any of them.
 */
export function nfc(text: string): string {
  let hard = firstAtOrAbove(text, NFC_STABLE_BELOW, 0);
  if (hard === -1) return text;
  if (text.length < 256) return text.normalize("NFC");
  let out = "";
  let from = 0;
  while (hard !== -1) {
    // The character before the first hard one is below U+0300 (or there is none): a piece starts there.
    const start = hard === 0 ? 0 : hard - 1;
    let last = hard;
    for (let j = hard + 1; j < text.length && j - last <= GAP; j += 1) if (text.charCodeAt(j) >= NFC_STABLE_BELOW) last = j;
    const piece = text.slice(start, last + 1);
    const composed = piece.normalize("NFC");
    if (composed !== piece) {
      out += text.slice(from, start) + composed;
      from = last + 1;
    }
    hard = firstAtOrAbove(text, NFC_STABLE_BELOW, last + 1);
  }
  return from === 0 ? text : out + text.slice(from);
}

// The index of the first code unit at or above `bound` from `start`, -1 when there is none.
function firstAtOrAbove(text: string, bound: number, start: number): number {
  for (let i = start; i < text.length; i += 1) if (text.charCodeAt(i) >= bound) return i;
  return -1;
}

/**
 * Full Unicode case folding (CaseFolding.txt status C + F), then NFC: the caseless key of a
 * name. `Straße` and `STRASSE` share one key; so do `K` (Kelvin sign) and `k`.
 */
export function caseFold(text: string): string {
  // toLowerCase makes a new string even when nothing changes: most names hold no capital.
  if (isAscii(text)) return ASCII_CAPITAL.test(text) ? text.toLowerCase() : text;
  const stable = allBelow(text, NFC_STABLE_BELOW);
  const composed = stable ? text : text.normalize("NFC");
  const folded = mapCodes(composed, foldTable());
  // NFC(NFC(x)) is NFC(x); folds below U+0300 into text below U+0300 stay NFC.
  if (folded.text === composed || (stable && !folded.flagged)) return folded.text;
  return folded.text.normalize("NFC");
}
