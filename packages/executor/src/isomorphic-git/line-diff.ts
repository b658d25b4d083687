// A line diff: the shortest edit script between two sequences (Myers' O(ND) algorithm, in linear
// space by splitting at the middle snake). Runtime-neutral.

/** One run of changes: `del` lines of the old sequence from `a` replaced by `ins` lines of the new from `b`. */
export interface Change {
  readonly a: number;
  readonly del: number;
  readonly b: number;
  readonly ins: number;
}

/**
 * Steps of the search one file may take (diagonals visited plus items matched) before a region still
 * unsolved is given up as all deleted and all inserted: a correct script, no longer the shortest.
 */
export const DIFF_BUDGET = 50_000_000;

/**
 * The changes that turn `older` into `newer`, in order, with the fewest deleted plus inserted items
 * while the search stays within `budget` steps; past it, each region left is replaced whole.
 */
export function diffSequences(older: readonly string[], newer: readonly string[], budget = DIFF_BUDGET): Change[] {
  const ids = new Map<string, number>();
  const id = (s: string) => {
    let n = ids.get(s);
    if (n === undefined) ids.set(s, (n = ids.size));
    return n;
  };
  const a = older.map(id);
  const b = newer.map(id);
  const deleted = new Uint8Array(a.length);
  const inserted = new Uint8Array(b.length);
  // An item with no equal on the other side is changed in every script: it is marked at once and
  // left out of the search, which keeps files with little in common fast and changes no count.
  const inA = new Uint8Array(ids.size);
  const inB = new Uint8Array(ids.size);
  for (const x of a) inA[x] = 1;
  for (const y of b) inB[y] = 1;
  const keptA = indexesWhere(a, (x) => inB[x] === 1, deleted);
  const keptB = indexesWhere(b, (y) => inA[y] === 1, inserted);
  const search: Search = { a: keptA.map((i) => a[i] as number), b: keptB.map((j) => b[j] as number), budget };
  const marks = { del: new Uint8Array(keptA.length), ins: new Uint8Array(keptB.length) };
  compare(search, marks, 0, search.a.length, 0, search.b.length);
  keptA.forEach((i, k) => (deleted[i] ||= marks.del[k] as number));
  keptB.forEach((j, k) => (inserted[j] ||= marks.ins[k] as number));
  return changesOf(deleted, inserted);
}

/** Indexes of `items` that pass `keep`; the others are marked in `marked`. */
function indexesWhere(items: readonly number[], keep: (x: number) => boolean, marked: Uint8Array): number[] {
  const kept: number[] = [];
  items.forEach((x, i) => {
    if (keep(x)) kept.push(i);
    else marked[i] = 1;
  });
  return kept;
}

/** Walks both marked sequences together: unmarked items pair up in order, marked ones gather into changes. */
function changesOf(deleted: Uint8Array, inserted: Uint8Array): Change[] {
  const changes: Change[] = [];
  let i = 0;
  let j = 0;
  while (i < deleted.length || j < inserted.length) {
    if (deleted[i] !== 1 && inserted[j] !== 1) {
      i += 1;
      j += 1;
      continue;
    }
    const a = i;
    const b = j;
    while (deleted[i] === 1) i += 1;
    while (inserted[j] === 1) j += 1;
    changes.push({ a, del: i - a, b, ins: j - b });
  }
  return changes;
}

interface Search {
  readonly a: readonly number[];
  readonly b: readonly number[];
  /** Steps left before regions are replaced whole. */
  budget: number;
}

interface Marks {
  readonly del: Uint8Array;
  readonly ins: Uint8Array;
}

/** Marks the shortest edit script of a[x0..x1) against b[y0..y1). */
function compare(s: Search, m: Marks, x0: number, x1: number, y0: number, y1: number): void {
  while (x0 < x1 && y0 < y1 && s.a[x0] === s.b[y0]) {
    x0 += 1;
    y0 += 1;
  }
  while (x1 > x0 && y1 > y0 && s.a[x1 - 1] === s.b[y1 - 1]) {
    x1 -= 1;
    y1 -= 1;
  }
  if (x0 === x1) m.ins.fill(1, y0, y1);
  else if (y0 === y1) m.del.fill(1, x0, x1);
  else {
    const mid = middle(s, x0, x1, y0, y1);
    if (mid === null) {
      m.del.fill(1, x0, x1);
      m.ins.fill(1, y0, y1);
      return;
    }
    compare(s, m, x0, mid[0], y0, mid[1]);
    compare(s, m, mid[0], x1, mid[1], y1);
  }
}

/**
 * A point on a shortest path from (x0, y0) to (x1, y1) with edits on both sides of it: where a
 * forward search from the start and a backward search from the end first overlap on a diagonal.
 * Both ends differ (compare trimmed them), so the script has at least two edits.
 */
function middle(s: Search, x0: number, x1: number, y0: number, y1: number): [number, number] | null {
  const dmin = x0 - y1;
  const dmax = x1 - y0;
  const off = y1 - x0 + 1;
  const size = dmax - dmin + 3;
  // The furthest x reached on each diagonal (x - y, shifted by `off`) forward, and the nearest backward.
  const fd = new Int32Array(size);
  const bd = new Int32Array(size);
  const fmid = x0 - y0;
  const bmid = x1 - y1;
  const odd = ((fmid - bmid) & 1) === 1;
  fd[fmid + off] = x0;
  bd[bmid + off] = x1;
  let [fmin, fmax, bmin, bmax] = [fmid, fmid, bmid, bmid];
  for (;;) {
    // Out of budget: null, and the caller replaces the region whole.
    s.budget -= fmax - fmin + bmax - bmin + 2;
    if (s.budget < 0) return null;
    // One more edit forward on every diagonal in reach, kept inside the rectangle.
    if (fmin > dmin) fd[--fmin - 1 + off] = -1;
    else fmin += 1;
    if (fmax < dmax) fd[++fmax + 1 + off] = -1;
    else fmax -= 1;
    for (let d = fmax; d >= fmin; d -= 2) {
      const lo = fd[d - 1 + off] as number;
      const hi = fd[d + 1 + off] as number;
      let x = lo < hi ? hi : lo + 1;
      let y = x - d;
      while (x < x1 && y < y1 && s.a[x] === s.b[y]) {
        x += 1;
        y += 1;
      }
      fd[d + off] = x;
      if (odd && bmin <= d && d <= bmax && (bd[d + off] as number) <= x) return [x, y];
    }
    // And one more backward.
    if (bmin > dmin) bd[--bmin - 1 + off] = 0x7fffffff;
    else bmin += 1;
    if (bmax < dmax) bd[++bmax + 1 + off] = 0x7fffffff;
    else bmax -= 1;
    for (let d = bmax; d >= bmin; d -= 2) {
      const lo = bd[d - 1 + off] as number;
      const hi = bd[d + 1 + off] as number;
      let x = lo < hi ? lo : hi - 1;
      let y = x - d;
      while (x > x0 && y > y0 && s.a[x - 1] === s.b[y - 1]) {
        x -= 1;
        y -= 1;
      }
      bd[d + off] = x;
      if (!odd && fmin <= d && d <= fmax && x <= (fd[d + off] as number)) return [x, y];
    }
  }
}
