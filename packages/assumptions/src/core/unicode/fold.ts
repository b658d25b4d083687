import { FOLD_FULL, FOLD_RUNS } from "./casefold-table.js";
import { type CodeMap, codeMap, mapCodes } from "./code-map.js";
import { nfcInert } from "./forms.js";
import { normalizeText } from "./normalize.js";

const ASCII = /^[\x00-\x7f]*$/;

let table: CodeMap | undefined;

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
  table = codeMap(map);
  return table;
}

/** True when a string holds only ASCII: such strings need neither NFC nor the fold table. */
export function isAscii(text: string): boolean {
  return ASCII.test(text);
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
// A character that is not ASCII, or is an ASCII capital.
const NOT_SMALL_ASCII = /[^\0-\x40\x5b-\x7f]/;

/** True when a string holds only printable ASCII (space to `~`): no control, format or non-ASCII character. */
export function isPrintableAscii(text: string): boolean {
  return PRINTABLE_ASCII.test(text);
}

// The first character at U+0300 and above, and the first below it.
const HARD = /[\u0300-\uffff]/g;
const EASY = /[\0-\u02ff]/g;
// The least a piece of `nfc` spans, in UTF-16 units, once it holds a character at U+0300 and above.
const PIECE = 1 << 14;

/**
 * NFC, skipped for a string that is NFC-inert (see forms.ts). In a long text that is not, only
 * pieces holding U+0300 and above are normalised, each from the character before its first such
 * one: a character below U+0300 neither composes with what comes before it nor lets what follows
 * reach past it, so NFC splits before any of them. A piece runs on to the first such character
 * PIECE units on, so a text dense with marks (stored NFD) is normalised in a few thousand calls,
 * each a small copy for ICU, and the result is a few thousand pieces: never one per word.
 */
export function nfc(text: string): string {
  // A scan of the table, stopping at the first unit that may change: text in one script without
  // combining marks (Cyrillic, Greek, CJK) is most often inert throughout.
  if (nfcInert(text)) return text;
  if (text.length < 256) return text.normalize("NFC");
  const out: string[] = [];
  let from = 0;
  for (let end = 0; end < text.length; ) {
    HARD.lastIndex = end;
    const hard = HARD.exec(text);
    if (hard === null) break;
    const at = hard.index === 0 ? 0 : hard.index - 1;
    EASY.lastIndex = Math.max(hard.index + 1, at + PIECE);
    end = EASY.exec(text)?.index ?? text.length;
    const raw = text.slice(at, end);
    const composed = normalizeText(raw, "NFC");
    if (composed !== raw) {
      out.push(text.slice(from, at), composed);
      from = end;
    }
  }
  if (from === 0) return text;
  out.push(text.slice(from));
  return out.join("");
}

/** True for ASCII without a capital letter, as most names are: its own case fold, told by one scan. */
export function foldsToItself(text: string): boolean {
  return !NOT_SMALL_ASCII.test(text);
}

/**
 * Full Unicode case folding (CaseFolding.txt status C + F), then NFC: the caseless key of a
 * name. `Straße` and `STRASSE` share one key; so do `K` (Kelvin sign) and `k`.
 */
export function caseFold(text: string): string {
  // toLowerCase makes a new string even when nothing changes.
  if (foldsToItself(text)) return text;
  if (isAscii(text)) return text.toLowerCase();
  const composed = nfcInert(text) ? text : normalizeText(text, "NFC");
  const folded = mapCodes(composed, foldTable()).text;
  // NFC(NFC(x)) is NFC(x).
  return folded === composed || nfcInert(folded) ? folded : normalizeText(folded, "NFC");
}

/**
 * `caseFold` without its last NFC (`caseFold(x)` is `foldedCodes(x).normalize("NFC")`): enough for
 * whatever normalises next, as the skeleton does.
 */
export function foldedCodes(text: string): string {
  return mapCodes(nfcInert(text) ? text : normalizeText(text, "NFC"), foldTable()).text;
}
