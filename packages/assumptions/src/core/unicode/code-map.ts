import { LONG, UnitBuffer } from "./pieces.js";

/**
 * A code point -> replacement string table read by code unit: `bmp[unit]` (or `astral` for a
 * surrogate pair) is an index into `values`, 0 meaning "unchanged". `isFlagged` tells the
 * replacements the builder's `flag` picks out (those a caller must normalise after).
 */
export interface CodeMap {
  readonly bmp: Uint16Array;
  readonly astral: ReadonlyMap<number, number>;
  readonly values: readonly string[];
  /** Per value: 0 not asked yet, then FLAGGED or PLAIN (`flag` runs on a value's first use). */
  readonly flags: Uint8Array;
  readonly flag: (value: string) => boolean;
}

const FLAGGED = 1;
const PLAIN = 2;

/** Whether the replacement at `index` is one `flag` picks out. */
export function isFlagged(map: CodeMap, index: number): boolean {
  let known = map.flags[index] as number;
  if (known === 0) {
    known = map.flag(map.values[index] as string) ? FLAGGED : PLAIN;
    map.flags[index] = known;
  }
  return known === FLAGGED;
}

/** Builds a `CodeMap` from code point -> replacement pairs (a later pair wins, as in a `Map`). */
export function codeMap(entries: ReadonlyMap<number, string>, flag: (value: string) => boolean = () => false): CodeMap {
  const bmp = new Uint16Array(0x10000);
  const astral = new Map<number, number>();
  const values = [""];
  for (const [cp, value] of entries) {
    if (cp < 0x10000) bmp[cp] = values.length;
    else astral.set(cp, values.length);
    values.push(value);
  }
  return finished(bmp, astral, values, flag);
}

/**
 * Each group of a flat list of numbers in which groups of code points share one replacement: per
 * group, the count of its replacement's code points, those code points, the count of the code
 * points it replaces, then those. `visit` gets the replacement and where its code points lie in
 * `groups`, `[from, to)`.
 */
export function eachGroup(groups: readonly number[], visit: (value: string, from: number, to: number) => void): void {
  for (let at = 0; at < groups.length; ) {
    const sourcesAt = at + 1 + (groups[at] as number);
    const end = sourcesAt + 1 + (groups[sourcesAt] as number);
    let value = "";
    for (let k = at + 1; k < sourcesAt; k += 1) value += String.fromCodePoint(groups[k] as number);
    visit(value, sourcesAt + 1, end);
    at = end;
  }
}

/**
 * Builds a `CodeMap` from such groups (see `eachGroup`; a code point in two groups keeps the
 * later one). One value per group, and no pair or `Map` per code point: a table of thousands is
 * built in about a millisecond the first time, where `codeMap` over the same pairs took several.
 */
export function groupedCodeMap(groups: readonly number[], flag: (value: string) => boolean = () => false): CodeMap {
  const bmp = new Uint16Array(0x10000);
  const astral = new Map<number, number>();
  const values = [""];
  eachGroup(groups, (value, from, to) => {
    const index = values.length;
    values.push(value);
    for (let k = from; k < to; k += 1) {
      const cp = groups[k] as number;
      if (cp < 0x10000) bmp[cp] = index;
      else astral.set(cp, index);
    }
  });
  return finished(bmp, astral, values, flag);
}

function finished(bmp: Uint16Array, astral: Map<number, number>, values: string[], flag: (value: string) => boolean): CodeMap {
  if (values.length > 0xffff) throw new Error("code map: too many entries for a Uint16Array index");
  const flags = new Uint8Array(values.length);
  // Index 0 is no replacement at all, never flagged.
  flags[0] = PLAIN;
  return { bmp, astral, values, flags, flag };
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
  if (text.length >= LONG) return mapLong(text, map);
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
      flagged ||= isFlagged(map, index);
      from = next;
    }
    i = next;
  }
  return from === 0 ? { text, flagged } : { text: out + text.slice(from), flagged };
}

// `mapCodes` through one buffer of code units (see `UnitBuffer`): many replacements in a row cost
// a string each otherwise.
function mapLong(text: string, map: CodeMap): Mapped {
  const out = new UnitBuffer(text.length);
  let changed = false;
  let flagged = false;
  for (let i = 0; i < text.length; i += 1) {
    const unit = text.charCodeAt(i);
    const low = (unit & 0xfc00) === 0xd800 && i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
    const pair = (low & 0xfc00) === 0xdc00;
    const index = pair ? (map.astral.get(((unit - 0xd800) << 10) + low - 0xdc00 + 0x10000) ?? 0) : (map.bmp[unit] as number);
    if (index === 0) {
      out.unit(unit);
      if (pair) out.unit(low);
    } else {
      out.add(map.values[index] as string);
      changed = true;
      flagged ||= isFlagged(map, index);
    }
    if (pair) i += 1;
  }
  return { text: changed ? out.text() : text, flagged };
}
