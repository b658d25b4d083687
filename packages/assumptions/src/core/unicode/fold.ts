import { FOLD_FULL, FOLD_RUNS } from "./casefold-table.js";

const ASCII = /^[\x00-\x7f]*$/;

let table: Map<number, string> | undefined;

function foldTable(): Map<number, string> {
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
  table = map;
  return map;
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

/** NFC, skipped for ASCII strings (which NFC leaves unchanged). */
export function nfc(text: string): string {
  return isAscii(text) ? text : text.normalize("NFC");
}

/**
 * Full Unicode case folding (CaseFolding.txt status C + F), then NFC: the caseless key of a
 * name. `Straße` and `STRASSE` share one key; so do `K` (Kelvin sign) and `k`.
 */
export function caseFold(text: string): string {
  // toLowerCase makes a new string even when nothing changes: most names hold no capital.
  if (isAscii(text)) return ASCII_CAPITAL.test(text) ? text.toLowerCase() : text;
  const map = foldTable();
  let out = "";
  for (const ch of text.normalize("NFC")) {
    const cp = ch.codePointAt(0) ?? 0;
    out += map.get(cp) ?? ch;
  }
  return out.normalize("NFC");
}
