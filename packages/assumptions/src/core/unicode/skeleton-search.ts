import { NFD_STABLE_BELOW } from "./forms.js";
import { anchorKind, NOT, skeleton, skeletonTable } from "./skeleton.js";

// The search's anchors are the skeleton's anchors below U+00C0 (`isAnchor`): what it needs to know
// of them is which code units they can put in a skeleton (themselves, or their prototypes'), and
// where the runs of other code units are.
interface SearchTable {
  readonly anchors: Uint8Array;
  readonly anchorOutput: Uint8Array;
  readonly otherRuns: RegExp;
}

let search: SearchTable | undefined;

function searchTable(): SearchTable {
  if (search) return search;
  const t = skeletonTable();
  const anchors = new Uint8Array(NFD_STABLE_BELOW);
  const anchorOutput = new Uint8Array(0x10000);
  let others = "";
  for (let unit = 0; unit < NFD_STABLE_BELOW; unit += 1) {
    const index = t.map.bmp[unit] as number;
    if (anchorKind(unit, t) === NOT) others += `\\u${unit.toString(16).padStart(4, "0")}`;
    else if (index === 0) anchorOutput[unit] = 1;
    else for (const ch of t.map.values[index] as string) anchorOutput[ch.charCodeAt(0)] = 1;
    anchors[unit] = anchorKind(unit, t) === NOT ? 0 : 1;
  }
  search = { anchors, anchorOutput, otherRuns: new RegExp(`[${others}\\u00c0-\\uffff]+`, "g") };
  return search;
}

// Whether a code unit is one of the search's anchors.
function isAnchor(unit: number, anchors: Uint8Array): boolean {
  return unit < NFD_STABLE_BELOW && anchors[unit] === 1;
}

// Characters per window (or block) looked at in one go.
const BLOCK = 16 * 1024;

/**
 * Which code points a text holds, and how many times each: the skeleton of a text is the
 * skeletons of its code points put together (NFD and the prototypes go code point by code point,
 * NFD's reordering moves units but never adds one), so a unit occurs in `skeleton(text)` only
 * where some code point of the text puts it in.
 */
export interface Alphabet {
  readonly points: readonly number[];
  readonly counts: readonly number[];
  /** How many of the text's units are anchors (see `isAnchor`). */
  readonly anchorUnits: number;
}

// Counts each BMP unit of `text` into `tally` (and `met`, in the order first met) and each astral
// code point into the map returned. The loop is a function of its own: V8 compiles it while it
// runs, and code after it in the same function would be compiled without having run once and
// thrown away at the loop's end, leaving the next text to be counted by the slow tiers again.
function tallyUnits(text: string, tally: Uint32Array, met: number[]): Map<number, number> | undefined {
  let astral: Map<number, number> | undefined;
  for (let i = 0; i < text.length; i += 1) {
    const unit = text.charCodeAt(i);
    if ((unit & 0xf800) !== 0xd800) {
      const n = tally[unit] as number;
      if (n === 0) met.push(unit);
      tally[unit] = n + 1;
      continue;
    }
    let point = unit;
    const low = unit < 0xdc00 && i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
    if ((low & 0xfc00) === 0xdc00) {
      point = ((unit - 0xd800) << 10) + low - 0xdc00 + 0x10000;
      i += 1;
    }
    astral ??= new Map();
    astral.set(point, (astral.get(point) ?? 0) + 1);
  }
  return astral;
}

/** The alphabet of `text`, counted in one pass (a surrogate pair is one code point, a lone one its own). */
function alphabetOf(text: string): Alphabet {
  const { anchors } = searchTable();
  const tally = new Uint32Array(0x10000);
  // The BMP units met, in the order first met: the tally is read back through them alone.
  const met: number[] = [];
  const astral = tallyUnits(text, tally, met);
  const points: number[] = [];
  const counts: number[] = [];
  let anchorUnits = 0;
  for (const unit of met) {
    const n = tally[unit] as number;
    points.push(unit);
    counts.push(n);
    if (isAnchor(unit, anchors)) anchorUnits += n;
  }
  for (const [point, n] of astral ?? []) {
    points.push(point);
    counts.push(n);
  }
  return { points, counts, anchorUnits };
}

/** The unit of a literal's skeleton that the fewest code points of a text put into the text's skeleton. */
interface Rarest {
  /** How many code points of the text put that unit into the skeleton: 0, and the text cannot hold the literal. */
  readonly hits: number;
  readonly unit: string;
}

// The skeleton of each BMP code point alone, as asked for.
let single: (string | undefined)[] | undefined;

function skeletonOf(point: number): string {
  if (point >= 0x10000) return skeleton(String.fromCodePoint(point));
  single ??= new Array(0x10000);
  return (single[point] ??= skeleton(String.fromCharCode(point)));
}

// Per alphabet, made on its first weighing: how many of its text's code points put each code unit
// into the skeleton (a code point counted once per unit however often its skeleton holds it), which
// code points those are, and the searches made of them. Every literal after is weighed by lookups,
// and a search is made once per unit, however many code points the text has.
interface Weights {
  readonly hits: Map<string, number>;
  readonly sources: Map<string, number[]>;
  readonly searches: Map<string, RegExp>;
}

const weights = new WeakMap<Alphabet, Weights>();

function weightsOf(alphabet: Alphabet): Weights {
  let known = weights.get(alphabet);
  if (known !== undefined) return known;
  known = { hits: new Map(), sources: new Map(), searches: new Map() };
  const { points, counts } = alphabet;
  for (let k = 0; k < points.length; k += 1) {
    const point = points[k] as number;
    const units = skeletonOf(point);
    for (let i = 0; i < units.length; i += 1) {
      const unit = units[i] as string;
      // Counted once per code point: at the first place the unit stands in its skeleton.
      if (units.indexOf(unit) !== i) continue;
      known.hits.set(unit, (known.hits.get(unit) ?? 0) + (counts[k] as number));
      const sources = known.sources.get(unit);
      if (sources === undefined) known.sources.set(unit, [point]);
      else sources.push(point);
    }
  }
  weights.set(alphabet, known);
  return known;
}

/**
 * The unit of `literalSkeleton` that the fewest code points of the text put into its skeleton,
 * and how many do; the first with none, as soon as it is met. Units that are surrogates are not
 * weighed: `undefined` when none is left.
 */
function rarest(alphabet: Alphabet, literalSkeleton: string): Rarest | undefined {
  const { hits } = weightsOf(alphabet);
  let best: Rarest | undefined;
  for (let i = 0; i < literalSkeleton.length; i += 1) {
    if ((literalSkeleton.charCodeAt(i) & 0xf800) === 0xd800) continue;
    const unit = literalSkeleton[i] as string;
    const count = hits.get(unit) ?? 0;
    if (count === 0) return { hits: 0, unit };
    if (best === undefined || count < best.hits) best = { hits: count, unit };
  }
  return best;
}

// The code points of the text that put `unit` into its skeleton, as a global search.
function placesOf(alphabet: Alphabet, unit: string): RegExp {
  const known = weightsOf(alphabet);
  let search = known.searches.get(unit);
  if (search === undefined) {
    let sources = "";
    for (const point of known.sources.get(unit) ?? []) sources += `\\u{${point.toString(16)}}`;
    search = new RegExp(`[${sources}]`, "gu");
    known.searches.set(unit, search);
  }
  return search;
}

// From this many code units on, a text's alphabet is counted before its skeleton is looked at:
// one pass of a few nanoseconds a unit, where building the skeleton of text in another script
// costs about 11 and its windows up to twice that. Below it the windows of a file of code with a
// few words in another script cost less than the count (the unicode shape's files of 4-6 KiB ran
// 4% slower counted).
const ALPHABET_FROM = 32768;

/** The alphabet `skeletonIncludes` weighs a text by: counted for a text of `from` units or more (ALPHABET_FROM). */
export function alphabetFor(text: string, from = ALPHABET_FROM): Alphabet | undefined {
  return text.length >= from ? alphabetOf(text) : undefined;
}

/** Whether no code point of the text (its alphabet given) puts some unit of `literalSkeleton` into its skeleton. */
export function surelyLacks(alphabet: Alphabet | undefined, literalSkeleton: string): boolean {
  return alphabet !== undefined && literalSkeleton !== "" && rarest(alphabet, literalSkeleton)?.hits === 0;
}

/**
 * Whether `skeleton(text)` includes `literalSkeleton` (a skeleton already), without building the
 * skeleton of the whole text. An occurrence holds every unit of the literal's skeleton, each put
 * in by some code point of the text; and an anchor is its own skeleton or its prototype's, so
 * text splits around it and an occurrence lies within as many anchors as the literal is long on
 * either side of any one of those code points. So in a long text (`alphabet`, counted when not
 * given) the unit fewest code points put in is found: none, and the text cannot hold the literal;
 * few, and only windows around them are looked at. Otherwise, when the literal's skeleton holds a
 * code unit no anchor can put in, windows around the runs of other units; otherwise, or once the
 * windows have cost twice the text, the text is looked at block by block, each block ending at a
 * line feed.
 */
export function skeletonIncludes(text: string, literalSkeleton: string, alphabet: Alphabet | undefined = alphabetFor(text)): boolean {
  if (literalSkeleton === "") return true;
  const { anchors, anchorOutput, otherRuns } = searchTable();
  const best = alphabet && rarest(alphabet, literalSkeleton);
  if (best?.hits === 0) return false;
  const reach = literalSkeleton.length;
  // About how many units a window around one place spans: as many anchors as the literal is long
  // on either side, anchors lying as far apart as they do on average in this text.
  if (alphabet !== undefined && best !== undefined) {
    const span = (2 * reach + 1) * (text.length / Math.max(1, alphabet.anchorUnits));
    if (best.hits * span <= text.length) return inWindows(text, literalSkeleton, placesOf(alphabet, best.unit), anchors);
  }
  let foreign = false;
  for (let i = 0; i < literalSkeleton.length && !foreign; i += 1) foreign = anchorOutput[literalSkeleton.charCodeAt(i)] === 0;
  if (!foreign) return inBlocks(text, literalSkeleton);
  return inWindows(text, literalSkeleton, otherRuns, anchors);
}

/**
 * Whether `skeleton(text)` includes `literalSkeleton`, looking in windows around the matches of
 * `places` (a global search), which every occurrence must meet: each window reaches as many anchors
 * as the literal is long before and after, and windows that overlap are looked at as one.
 */
function inWindows(text: string, literalSkeleton: string, places: RegExp, anchors: Uint8Array): boolean {
  const reach = literalSkeleton.length;
  // Windows overlap where places lie closer than a window is wide (a long literal on text dense
  // with other scripts): past twice the text in windows, the blocks take over, once each.
  let spent = 0;
  const found = (from: number, to: number) => {
    spent += to - from;
    return skeleton(text.slice(from, to)).includes(literalSkeleton);
  };
  // The window being gathered: from `start` to `reach` anchors after `lastEnd`. A place this close
  // to the last one shares its window, which then spans both of theirs.
  let start = -1;
  let lastEnd = -1;
  places.lastIndex = 0;
  for (let run = places.exec(text); run !== null; run = places.exec(text)) {
    const runEnd = places.lastIndex;
    if (start !== -1 && run.index - lastEnd <= 2 * reach && runEnd + reach - start <= BLOCK) {
      lastEnd = runEnd;
      continue;
    }
    if (start !== -1 && found(start, anchorsAfter(text, lastEnd, reach, anchors))) return true;
    if (spent > 2 * text.length) return inBlocks(text, literalSkeleton);
    start = anchorsBefore(text, run.index, reach, anchors);
    lastEnd = runEnd;
  }
  return start !== -1 && found(start, anchorsAfter(text, lastEnd, reach, anchors));
}

// Back from `at` past `count` anchors (to the last of them), or to the start of the text.
function anchorsBefore(text: string, at: number, count: number, anchors: Uint8Array): number {
  let i = at;
  for (let seen = 0; i > 0 && seen < count; ) {
    i -= 1;
    if (isAnchor(text.charCodeAt(i), anchors)) seen += 1;
  }
  return i;
}

// On from `from` past `count` anchors (just after the last of them), or to the end of the text.
function anchorsAfter(text: string, from: number, count: number, anchors: Uint8Array): number {
  let j = from;
  for (let seen = 0; j < text.length && seen < count; j += 1) {
    if (isAnchor(text.charCodeAt(j), anchors)) seen += 1;
  }
  return j;
}

// A line feed is an anchor that is its own skeleton: a literal's skeleton without one occurs
// within a line, so the text is looked at in blocks of whole lines, stopping at the first hit.
function inBlocks(text: string, literalSkeleton: string): boolean {
  if (literalSkeleton.includes("\n") || skeleton("\n") !== "\n") return skeleton(text).includes(literalSkeleton);
  for (let start = 0; start < text.length; ) {
    let end = text.indexOf("\n", start + BLOCK);
    if (end === -1) end = text.length;
    if (skeleton(text.slice(start, end)).includes(literalSkeleton)) return true;
    start = end + 1;
  }
  return false;
}
