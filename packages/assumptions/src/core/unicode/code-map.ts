/**
 * A code point -> replacement string table read by code unit: `bmp[unit]` (or `astral` for a
 * surrogate pair) is an index into `values`, 0 meaning "unchanged". `flagged[index]` marks the
 * replacements the builder's `flag` picked out (those a caller must normalise after).
 */
export interface CodeMap {
  readonly bmp: Uint16Array;
  readonly astral: ReadonlyMap<number, number>;
  readonly values: readonly string[];
  readonly flagged: Uint8Array;
}

/** Builds a `CodeMap` from code point -> replacement pairs (a later pair wins, as in a `Map`). */
export function codeMap(entries: ReadonlyMap<number, string>, flag: (value: string) => boolean): CodeMap {
  const bmp = new Uint16Array(0x10000);
  const astral = new Map<number, number>();
  const values = [""];
  const flags = [0];
  for (const [cp, value] of entries) {
    if (cp < 0x10000) bmp[cp] = values.length;
    else astral.set(cp, values.length);
    values.push(value);
    flags.push(flag(value) ? 1 : 0);
  }
  if (values.length > 0xffff) throw new Error("code map: too many entries for a Uint16Array index");
  return { bmp, astral, values, flagged: Uint8Array.from(flags) };
}

/** The result of `mapCodes`: the mapped text, and whether any flagged replacement went in. */
export interface Mapped {
  readonly text: string;
  readonly flagged: boolean;
}

/**
 * Each code point of `text` replaced by its value in `map`, the unchanged runs copied whole:
 * the same string as concatenating `map.get(cp) ?? ch` over the string's iterator (a surrogate
 * pair read whole, a lone surrogate alone), and `text` itself when nothing is replaced.
 */
export function mapCodes(text: string, map: CodeMap): Mapped {
  let out = "";
  let from = 0;
  let flagged = false;
  let i = 0;
  while (i < text.length) {
    const unit = text.charCodeAt(i);
    let next = i + 1;
    let index: number;
    if ((unit & 0xfc00) === 0xd800 && next < text.length && (text.charCodeAt(next) & 0xfc00) === 0xdc00) {
      index = map.astral.get(((unit - 0xd800) << 10) + text.charCodeAt(next) - 0xdc00 + 0x10000) ?? 0;
      next += 1;
    } else index = map.bmp[unit] as number;
    if (index !== 0) {
      out += text.slice(from, i) + map.values[index];
      flagged ||= map.flagged[index] === 1;
      from = next;
    }
    i = next;
  }
  return from === 0 ? { text, flagged } : { text: out + text.slice(from), flagged };
}

/** True when every code unit of `text` is below `bound`. */
export function allBelow(text: string, bound: number): boolean {
  for (let i = 0; i < text.length; i += 1) if (text.charCodeAt(i) >= bound) return false;
  return true;
}
