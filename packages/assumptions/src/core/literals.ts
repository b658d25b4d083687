// Which of many literals a text holds, in passes over the text: the same answers as
// `text.includes(literal)` for each. Short literals go in whole into a trie (Aho-Corasick over
// UTF-16 code units), shortest first. A trie lives in typed arrays (about 40 bytes per code unit it
// holds) and holds at most `TRIE_UNITS` code units, and each trie is a pass over the text. A long
// literal goes in by its first `WINDOW` code units, and where those occur the whole literal is
// compared there: a trie of long literals that share little is large, and every step of a pass
// through it misses the processor's caches. So are literals longer than a window once the whole
// ones would fill more than one trie, so that thousands of them on one file take one pass, not a
// pass per million units. From `HASHED_FROM` windows on, the windows are found by a rolling hash
// (one pass whatever their number) rather than a trie. The passes then number one for the windows
// and one per 2^15 or so literals of at most a window each: linear in the text and the literals
// together up to that, where whole literals in tries of a million units made the cost their
// product. A trie small enough (nodes times distinct units within `DENSE_CELLS`) also gets a table
// of every transition, so a step is two array reads rather than a hash probe per edge and failure
// link tried. Where a text full of such beginnings would make too many comparisons (`aaaa...` and
// literals `aa...ab`), the long literals left go in whole after all: literals that share their
// beginnings with the text share their trie nodes too.

import { mix32, randomSeed } from "./seeded-hash.js";

/** Code units one trie holds. */
export const TRIE_UNITS = 1 << 20;

/** The longest literal a trie holds whole. */
const TRIE_LITERAL = 256;

/** How much of a longer literal goes into its trie. */
const WINDOW = 32;

/**
 * The trie's edges below the root: (node, code unit) to child, in an open-addressing table
 * (linear probing, at most half full) whose slots hold node, unit and child side by side, so a
 * probe reads one cache line. 0 stands for no child: the root is no one's.
 */
class Edges {
  private readonly slots: Int32Array;
  private readonly mask: number;
  // Mixed into every slot: literals chosen so that their edges share one run of slots (each
  // probe then walks them all) cannot be worked out in advance.
  private readonly seed = randomSeed();

  constructor(most: number) {
    let count = 16;
    while (count < most * 2) count *= 2;
    this.slots = new Int32Array(count * 3).fill(-1);
    this.mask = count - 1;
  }

  private home(node: number, unit: number): number {
    return mix32(Math.imul(node, 0x9e3779b1) ^ unit ^ this.seed) & this.mask;
  }

  get(node: number, unit: number): number {
    const slots = this.slots;
    for (let at = this.home(node, unit); ; at = (at + 1) & this.mask) {
      const from = slots[at * 3] as number;
      if (from === -1) return 0;
      if (from === node && slots[at * 3 + 1] === unit) return slots[at * 3 + 2] as number;
    }
  }

  set(node: number, unit: number, child: number): void {
    let at = this.home(node, unit);
    while ((this.slots[at * 3] as number) !== -1) at = (at + 1) & this.mask;
    this.slots[at * 3] = node;
    this.slots[at * 3 + 1] = unit;
    this.slots[at * 3 + 2] = child;
  }
}

interface Trie {
  /** Nodes, the root being 0. */
  readonly size: number;
  /** The root's children by code unit below its length (0: none). */
  readonly rootNext: Int32Array;
  /** The units the root has a child by, as one-unit strings, in the order the literals gave them. */
  readonly firsts: readonly string[];
  readonly edges: Edges;
  /** The longest proper suffix of a node's string that is in the trie. */
  readonly fail: Int32Array;
  /** The nearest node on the failure chain (the node excluded) where a literal ends; -1 none. */
  readonly out: Int32Array;
  /** A literal that ends at the node (-1 none); the others through `nextSame`. */
  readonly first: Int32Array;
  readonly nextSame: Int32Array;
  /** Every transition in one table, when it fits in `denseCells` (see `denseOf`). */
  readonly dense: Dense | undefined;
}

/** Most cells of a table of every transition (nodes times distinct units; 16 MiB of them). */
export const DENSE_CELLS = 1 << 22;

/**
 * Every transition of a trie, failure links already followed: the node after `node` reads a unit
 * is `next[node * width + column[unit]]`. Column 0 stands for every unit no literal holds (and
 * any unit from `column.length` on), which leads to the root from anywhere.
 */
interface Dense {
  readonly column: Int32Array;
  readonly width: number;
  readonly next: Int32Array;
}

// The child of `at` by `unit`; 0 when there is none.
function child(rootNext: Int32Array, edges: Edges, at: number, unit: number): number {
  if (at !== 0) return edges.get(at, unit);
  return unit < rootNext.length ? (rootNext[unit] as number) : 0;
}

function build(literals: readonly string[], chosen: readonly number[], units: number, denseCells: number): Trie {
  let span = 0;
  for (const index of chosen) span = Math.max(span, (literals[index] as string).charCodeAt(0) + 1);
  const rootNext = new Int32Array(span);
  const edges = new Edges(units);
  const parent = new Int32Array(units + 1);
  const unitOf = new Uint16Array(units + 1);
  const depth = new Int32Array(units + 1);
  const first = new Int32Array(units + 1).fill(-1);
  const nextSame = new Int32Array(literals.length).fill(-1);
  const firsts: string[] = [];
  let size = 1;
  for (const index of chosen) {
    const literal = literals[index] as string;
    let at = 0;
    for (let i = 0; i < literal.length; i += 1) {
      const unit = literal.charCodeAt(i);
      let to = child(rootNext, edges, at, unit);
      if (to === 0) {
        to = size;
        size += 1;
        if (at === 0) {
          rootNext[unit] = to;
          firsts.push(String.fromCharCode(unit));
        } else edges.set(at, unit, to);
        parent[to] = at;
        unitOf[to] = unit;
        depth[to] = i + 1;
      }
      at = to;
    }
    nextSame[index] = first[at] as number;
    first[at] = index;
  }
  // Failure and output links in order of depth: each node's rest on shallower nodes'.
  const fail = new Int32Array(size);
  const out = new Int32Array(size).fill(-1);
  const order = inDepthOrder(depth, size);
  for (const node of order) {
    const up = parent[node] as number;
    const unit = unitOf[node] as number;
    let link = 0;
    for (let f = up === 0 ? -1 : (fail[up] as number); f !== -1; f = f === 0 ? -1 : (fail[f] as number)) {
      link = child(rootNext, edges, f, unit);
      if (link !== 0) break;
    }
    fail[node] = link;
    out[node] = (first[link] as number) !== -1 ? link : (out[link] as number);
  }
  const dense = denseOf({ size, parent, unitOf, depth, fail, order }, denseCells);
  return { size, rootNext, firsts, edges, fail, out, first, nextSame, dense };
}

/** What `denseOf` reads of a trie being built. */
interface Shape {
  readonly size: number;
  readonly parent: Int32Array;
  readonly unitOf: Uint16Array;
  readonly depth: Int32Array;
  readonly fail: Int32Array;
  /** The nodes but the root, shallowest first. */
  readonly order: Int32Array;
}

// The table of every transition, or none when it would hold more than `denseCells` cells. Level
// by level: each node is first written into its parent's row, then each node's row starts as a
// copy of its failure node's (shallower, so complete by then) and its children overwrite their
// cells when the next level is written.
function denseOf(t: Shape, denseCells: number): Dense | undefined {
  let span = 0;
  for (let node = 1; node < t.size; node += 1) span = Math.max(span, (t.unitOf[node] as number) + 1);
  const column = new Int32Array(span);
  let width = 1;
  for (let node = 1; node < t.size; node += 1) {
    const unit = t.unitOf[node] as number;
    if (column[unit] === 0) column[unit] = width++;
  }
  if (t.size * width > denseCells) return undefined;
  const next = new Int32Array(t.size * width);
  const { order, depth, parent, fail, unitOf } = t;
  for (let from = 0; from < order.length; ) {
    const level = depth[order[from] as number] as number;
    let to = from;
    for (; to < order.length && depth[order[to] as number] === level; to += 1) {
      const node = order[to] as number;
      next[(parent[node] as number) * width + (column[unitOf[node] as number] as number)] = node;
    }
    for (let k = from; k < to; k += 1) {
      const node = order[k] as number;
      const row = (fail[node] as number) * width;
      next.copyWithin(node * width, row, row + width);
    }
    from = to;
  }
  return { column, width, next };
}

// The nodes other than the root by depth, shallowest first (a counting sort).
function inDepthOrder(depth: Int32Array, size: number): Int32Array {
  let deepest = 0;
  for (let node = 1; node < size; node += 1) deepest = Math.max(deepest, depth[node] as number);
  const start = new Int32Array(deepest + 2);
  for (let node = 1; node < size; node += 1) {
    const d = (depth[node] as number) + 1;
    start[d] = (start[d] as number) + 1;
  }
  for (let d = 1; d < start.length; d += 1) start[d] = (start[d] as number) + (start[d - 1] as number);
  const order = new Int32Array(size - 1);
  for (let node = 1; node < size; node += 1) {
    const d = depth[node] as number;
    const at = start[d] as number;
    order[at] = node;
    start[d] = at + 1;
  }
  return order;
}

/**
 * For each literal, whether `text` holds it (an empty literal is held by any text). `trieUnits`
 * bounds each trie (tests make it small to reach every path).
 */
export function literalsIn(
  text: string,
  literals: readonly string[],
  trieUnits: number = TRIE_UNITS,
  denseCells: number = DENSE_CELLS,
  hashedFrom: number = HASHED_FROM,
): boolean[] {
  const found = new Array<boolean>(literals.length).fill(false);
  const order = literals.map((_, i) => i).sort((a, b) => (literals[a] as string).length - (literals[b] as string).length);
  let short: number[] = [];
  let long: number[] = [];
  let units = 0;
  for (const index of order) {
    const length = (literals[index] as string).length;
    if (length === 0) found[index] = true;
    else if (length <= TRIE_LITERAL || trieUnits < WINDOW) {
      short.push(index);
      units += length;
    } else long.push(index);
  }
  if (units > trieUnits && trieUnits >= WINDOW) {
    // More whole literals than one trie holds would take a pass over the text per trie: those
    // longer than a window go in by their window instead, all of them in one pass (a trie holds
    // 2^15 windows; from HASHED_FROM on they are hashed).
    const windowed = short.filter((index) => (literals[index] as string).length > WINDOW);
    short = short.filter((index) => (literals[index] as string).length <= WINDOW);
    long = [...windowed, ...long];
  }
  wholePasses(text, literals, short, trieUnits, denseCells, found);
  wholePasses(
    text,
    literals,
    long.length >= hashedFrom ? hashWindows(text, literals, long, found) : windowPasses(text, literals, long, trieUnits, denseCells, found),
    trieUnits,
    denseCells,
    found,
  );
  return found;
}

// The long literals at `indexes` by their windows, in passes of one trie of windows each: those
// it could not tell about (see `scanWindows`).
function windowPasses(
  text: string,
  literals: readonly string[],
  indexes: readonly number[],
  trieUnits: number,
  denseCells: number,
  found: boolean[],
): number[] {
  const windows: string[] = [];
  for (const index of indexes) windows[index] = (literals[index] as string).slice(0, WINDOW);
  const left: number[] = [];
  inBatches(windows, indexes, trieUnits, (batch, units) => left.push(...scanWindows(text, literals, build(windows, batch, units, denseCells), batch, found)));
  return left;
}

/**
 * From this many long literals on, their windows are found by a rolling hash (`hashWindows`) in
 * one pass whatever their number: a trie of thousands of windows is too large for a table of
 * transitions, and each step through it probes a table and follows failure links, missing the
 * processor's caches (about 130 ns a unit with 30,000 windows, against a few for the hash).
 */
export const HASHED_FROM = 1024;

/** Slots `hashWindows` may probe past each hash's first, per unit of the text and per literal. */
const PROBES = 16;

// The rolling hash of WINDOW code units: a polynomial in BASE, modulo 2^32.
const BASE = 0x01000193;
// BASE^WINDOW: what the unit leaving a window weighs once the next unit is in.
const LEAVING = (() => {
  let power = 1;
  for (let k = 0; k < WINDOW; k += 1) power = Math.imul(power, BASE);
  return power;
})();

// The slot a hash starts its probe at: the hash and the table's seed through MurmurHash3's
// finaliser, so that nearby hashes spread and hashes that share a run of slots under one seed
// share none under another (see `Edges`).
function home(hash: number, mask: number, seed: number): number {
  return mix32(hash ^ seed) & mask;
}

/**
 * One pass over the text, hashing every window of WINDOW code units and looking it up among the
 * long literals' first WINDOW units (Rabin-Karp): where the hashes agree, each literal with that
 * hash not yet found is compared there whole and taken off its list once found. A hash is only a
 * hint, so a collision costs a comparison, never an answer. As in `scanWindows`, the comparisons
 * may cost up to four times the text and each literal once; past that, the pass stops and returns
 * the literals it could not tell about. So it does when the slots probed past each hash's first
 * pass PROBES times the text and the literals (a few per lookup is usual: the table is at most half
 * full and its seed is drawn anew), handing back all of them when filling the table spent it.
 * Exported for tests, which pin `seed` (the table's, see `home`).
 */
export function hashWindows(text: string, literals: readonly string[], long: readonly number[], found: boolean[], seed = randomSeed()): number[] {
  const table = new WindowTable(long.length, seed, PROBES * (text.length + long.length));
  // One bit per hash's top 18 bits (32 KiB, within the processor's nearest cache): most windows of
  // a text are no literal's, and the bit tells so without a probe of the table.
  const seen = new Int32Array(1 << 13);
  const nextSame = new Int32Array(literals.length).fill(-1);
  const tally: Tally = { budget: 4 * text.length, left: long.length };
  for (const index of long) {
    const literal = literals[index] as string;
    tally.budget += literal.length;
    let hash = 0;
    for (let k = 0; k < WINDOW; k += 1) hash = (Math.imul(hash, BASE) + literal.charCodeAt(k)) | 0;
    seen[hash >>> 19] = (seen[hash >>> 19] as number) | (1 << ((hash >>> 14) & 31));
    const slot = table.slot(hash);
    if (table.probes < 0) return [...long];
    table.used[slot] = 1;
    table.hashes[slot] = hash;
    nextSame[index] = table.heads[slot] as number;
    table.heads[slot] = index;
  }
  let hash = 0;
  let i = 0;
  for (; i < text.length && tally.left > 0 && tally.budget >= 0 && table.probes >= 0; i += 1) {
    hash = (Math.imul(hash, BASE) + text.charCodeAt(i)) | 0;
    if (i >= WINDOW) hash = (hash - Math.imul(text.charCodeAt(i - WINDOW), LEAVING)) | 0;
    if (i < WINDOW - 1 || ((seen[hash >>> 19] as number) & (1 << ((hash >>> 14) & 31))) === 0) continue;
    const slot = table.slot(hash);
    if (table.used[slot] === 0) continue;
    compareWindow(text, literals, i, table.heads, slot, nextSame, found, tally);
  }
  return tally.left > 0 && i < text.length ? long.filter((index) => !found[index]) : [];
}

// The long literals' first windows by hash, in open addressing (at most half full), and the probes
// past each hash's own slot `hashWindows` may still make.
class WindowTable {
  readonly used: Uint8Array;
  readonly hashes: Int32Array;
  // The first literal whose window has a slot's hash (-1: none); the others follow in `nextSame`.
  readonly heads: Int32Array;
  private readonly mask: number;

  constructor(
    count: number,
    private readonly seed: number,
    public probes: number,
  ) {
    let size = 16;
    while (size < count * 2) size *= 2;
    this.mask = size - 1;
    this.used = new Uint8Array(size);
    this.hashes = new Int32Array(size);
    this.heads = new Int32Array(size).fill(-1);
  }

  /** The slot holding `hash`, else the free one where it would go; each slot probed past its own costs one of `probes`. */
  slot(hash: number): number {
    let slot = home(hash, this.mask, this.seed);
    while (this.used[slot] === 1 && this.hashes[slot] !== hash) {
      slot = (slot + 1) & this.mask;
      this.probes -= 1;
    }
    return slot;
  }
}

// Splits `indexes` (literals shortest first) into batches of at most `trieUnits` code units.
function inBatches(literals: readonly string[], indexes: readonly number[], trieUnits: number, each: (batch: number[], units: number) => void): void {
  let batch: number[] = [];
  let units = 0;
  for (const index of indexes) {
    const length = (literals[index] as string).length;
    if (units + length > trieUnits && batch.length > 0) {
      each(batch, units);
      batch = [];
      units = 0;
    }
    batch.push(index);
    units += length;
  }
  if (batch.length > 0) each(batch, units);
}

// The literals at `indexes`, whole, in passes of one trie each; a literal longer than a trie
// holds is looked for on its own.
function wholePasses(text: string, literals: readonly string[], indexes: readonly number[], trieUnits: number, denseCells: number, found: boolean[]): void {
  const fits: number[] = [];
  for (const index of indexes) {
    const literal = literals[index] as string;
    if (literal.length > trieUnits) found[index] = text.includes(literal);
    else fits.push(index);
  }
  inBatches(literals, fits, trieUnits, (batch, units) => scan(text, build(literals, batch, units, denseCells), batch.length, found));
}

// One pass over the text. Each node where literals end is reported once: its output chain is
// walked only up to a node already reported, whose own chain was walked then, so the work is
// linear in the text and the trie however many literals end at one place.
function scan(text: string, trie: Trie, count: number, found: boolean[]): void {
  const { out, first, nextSame } = trie;
  const reported = new Uint8Array(trie.size);
  const starts = startsOf(trie, text);
  let left = count;
  let at = 0;
  for (let i = 0; i < text.length && left > 0; i += 1) {
    if (at === 0 && starts !== undefined) i = starts.next(i);
    if (i >= text.length) break;
    at = advance(trie, at, text.charCodeAt(i));
    for (let node = (first[at] as number) !== -1 ? at : (out[at] as number); node !== -1 && reported[node] === 0; node = out[node] as number) {
      reported[node] = 1;
      for (let index = first[node] as number; index !== -1; index = nextSame[index] as number) {
        found[index] = true;
        left -= 1;
      }
    }
  }
}

/** Most distinct first units a pass jumps between (see `Starts`); more, and it steps every unit. */
const MOST_STARTS = 8;

/**
 * Where a literal may begin next, for a pass standing at the root: the nearest place, from some
 * place on, of a unit the root has a child by (`text.length` when there is none). Nothing between
 * leaves the root, so the pass jumps there, each unit found by `indexOf` and its place kept until
 * passed. Jumps that stay short cost more than the steps they spare: when `TRIAL` jumps in a row
 * averaged fewer than `SHORT` units, the next `STEPPED` units are answered as themselves (the pass
 * steps through them), and jumps are tried again after.
 */
class Starts {
  private readonly places: number[];
  private jumps = 0;
  private skipped = 0;
  private steppingUntil = 0;

  constructor(
    private readonly text: string,
    private readonly units: readonly string[],
  ) {
    this.places = units.map(() => -1);
  }

  next(from: number): number {
    if (from < this.steppingUntil) return from;
    const { text, units, places } = this;
    let nearest = text.length;
    for (let k = 0; k < units.length; k += 1) {
      let place = places[k] as number;
      if (place < from) {
        place = text.indexOf(units[k] as string, from);
        places[k] = place = place === -1 ? text.length : place;
      }
      if (place < nearest) nearest = place;
    }
    this.jumps += 1;
    this.skipped += nearest - from;
    if (this.jumps === TRIAL) {
      if (this.skipped < TRIAL * SHORT) this.steppingUntil = nearest + STEPPED;
      this.jumps = 0;
      this.skipped = 0;
    }
    return nearest;
  }
}

const TRIAL = 64;
const SHORT = 8;
const STEPPED = 16 * 1024;

// The jumps of a pass through `trie` over `text`; none when the root has more than MOST_STARTS children.
function startsOf(trie: Trie, text: string): Starts | undefined {
  return trie.firsts.length > MOST_STARTS ? undefined : new Starts(text, trie.firsts);
}

// The node after `at` reads `unit`: from the table of transitions when the trie has one.
function advance(trie: Trie, at: number, unit: number): number {
  const dense = trie.dense;
  if (dense === undefined) return step(trie, at, unit);
  const column = unit < dense.column.length ? (dense.column[unit] as number) : 0;
  return dense.next[at * dense.width + column] as number;
}

// The node after `at` reads `unit`: down an edge, or along failure links until one leads on.
function step(trie: Trie, from: number, unit: number): number {
  const { rootNext, edges, fail } = trie;
  let at = from;
  let to = child(rootNext, edges, at, unit);
  while (to === 0 && at !== 0) {
    at = fail[at] as number;
    to = child(rootNext, edges, at, unit);
  }
  return to;
}

// One pass over the text with a trie of the long literals' first WINDOW code units. Every window
// has that one length, so a window ends only at a node of that depth, never on a failure chain.
// Where one ends, each literal it starts and not yet found is compared there whole, and taken
// off the node's list once found. The comparisons may cost up to four times the text and each
// literal once; past that, the pass stops and returns the literals it could not tell about.
function scanWindows(text: string, literals: readonly string[], trie: Trie, long: readonly number[], found: boolean[]): number[] {
  const { first, nextSame } = trie;
  const tally: Tally = { budget: 4 * text.length, left: long.length };
  for (const index of long) tally.budget += (literals[index] as string).length;
  const starts = startsOf(trie, text);
  let at = 0;
  let i = 0;
  for (; i < text.length && tally.left > 0 && tally.budget >= 0; i += 1) {
    if (at === 0 && starts !== undefined) i = starts.next(i);
    if (i >= text.length) break;
    at = advance(trie, at, text.charCodeAt(i));
    compareWindow(text, literals, i, first, at, nextSame, found, tally);
  }
  return tally.left > 0 && i < text.length ? long.filter((index) => !found[index]) : [];
}

/** What a pass over windows has left: its comparisons (in code units) and the literals not found. */
interface Tally {
  budget: number;
  left: number;
}

// At the window that ends at `i`, each literal on the list that starts at `heads[at]` (linked
// through `nextSame`) is compared whole, and taken off the list once found.
function compareWindow(
  text: string,
  literals: readonly string[],
  i: number,
  heads: Int32Array,
  at: number,
  nextSame: Int32Array,
  found: boolean[],
  tally: Tally,
): void {
  let before = -1;
  for (let index = heads[at] as number; index !== -1; ) {
    const next = nextSame[index] as number;
    const literal = literals[index] as string;
    tally.budget -= literal.length;
    if (text.startsWith(literal, i + 1 - WINDOW)) {
      found[index] = true;
      tally.left -= 1;
      if (before === -1) heads[at] = next;
      else nextSame[before] = next;
    } else before = index;
    index = next;
  }
}
