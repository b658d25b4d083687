// Where an object lives in one repository's object directory: the loose fan-out directories, each
// listed once, and the pack indexes, each read once (through the guarded fs, which checks an index
// against its size before its counts are used), with their packs opened when first needed: a small
// one read whole once, a large one an entry at a time.
import { thrownCode } from "@decay/portable";
import { type ObjectFiles, refusal } from "./git-guard.js";
import { joinTree } from "./tree-error.js";

/** One pack: its (validated) index, the pack file's path, and every entry's offset, ascending. */
export interface PackIndex {
  readonly idx: Uint8Array;
  readonly pack: string;
  readonly count: number;
  /** Every entry's offset, ascending: an entry ends where the next one starts. */
  readonly sorted: Float64Array;
}

/** A packed object: its pack and the offset of its entry. */
export interface PackedAt {
  readonly ix: PackIndex;
  readonly at: number;
}

/** The object directory of one repository, read once and kept for one tree. */
export interface ObjectDir {
  /** The `objects` directory. */
  readonly path: string;
  /** True when a loose file holds the object (by the listing of its fan-out directory). */
  isLoose(oid: string): Promise<boolean>;
  /** False when the object's fan-out directory does not exist (`objects` is listed once). */
  mayBeLoose(oid: string): Promise<boolean>;
  /** The pack entry holding the object, if any pack has it. */
  locate(oid: string): Promise<PackedAt | undefined>;
  /** A pack's bytes, as its entries are read. */
  pack(ix: PackIndex): Promise<PackFile>;
}

/** A pack file: its size, and the bytes of a stretch of it (each entry's, as its index places it). */
export interface PackFile {
  readonly size: number;
  /** Bytes `from` to `to` (exclusive) of the pack. */
  range(from: number, to: number): Promise<Uint8Array>;
}

/**
 * Packs up to this size (and `maxFileBytes`) are read whole, once: their objects then cost no call
 * each, where reading each entry on its own costs calls and a second read of the entries vetted
 * first (a 37 MB pack of 20,000 files with 2,000 rows checked: 10% slower by ranges). A larger one
 * is read an entry at a time where the fs can read part of a file, so that a check of a few rows
 * neither reads nor holds a pack of gigabytes, nor is refused for one.
 */
export const WHOLE_PACK_BYTES = 128 * 1024 * 1024;
/** Bytes of recently read entries a pack read by ranges keeps (at least the last entry, whatever its size). */
const RECENT_BYTES = 32 * 1024 * 1024;

const FANOUT = 8;
const NAMES = FANOUT + 256 * 4;

function u32(b: Uint8Array, at: number): number {
  return (((b[at] ?? 0) << 24) >>> 0) + ((b[at + 1] ?? 0) << 16) + ((b[at + 2] ?? 0) << 8) + (b[at + 3] ?? 0);
}

/** The offset of entry `i` of a pack index (large offsets through the 64-bit table). */
export function offsetOf(ix: PackIndex, i: number): number {
  const table = NAMES + ix.count * 24;
  const small = u32(ix.idx, table + i * 4);
  if (small < 0x80000000) return small;
  const at = table + ix.count * 4 + (small & 0x7fffffff) * 8;
  return u32(ix.idx, at) * 2 ** 32 + u32(ix.idx, at + 4);
}

function compareAt(idx: Uint8Array, at: number, oid: Uint8Array): number {
  for (let k = 0; k < 20; k++) {
    const d = (idx[at + k] ?? 0) - (oid[k] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** The entry index of `oid` in a (validated) pack index, by binary search inside its fan-out bucket. */
function find(ix: PackIndex, oid: Uint8Array): number | undefined {
  const first = oid[0] ?? 0;
  let lo = first === 0 ? 0 : u32(ix.idx, FANOUT + (first - 1) * 4);
  let hi = u32(ix.idx, FANOUT + first * 4);
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const c = compareAt(ix.idx, NAMES + mid * 20, oid);
    if (c === 0) return mid;
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return undefined;
}

function hexBytes(oid: string): Uint8Array {
  const out = new Uint8Array(20);
  for (let i = 0; i < 20; i++) out[i] = Number.parseInt(oid.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** Where the entry at `at` ends: the next entry's offset, or the pack's trailer (`size` is the pack's). */
export function entryEnd(ix: PackIndex, at: number, size: number): number {
  const sorted = ix.sorted;
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] ?? 0) <= at) lo = mid + 1;
    else hi = mid;
  }
  return sorted[lo] ?? size - 20;
}

/** A pack opened through `fs`: read whole when it is within `wholeUpTo` bytes or `fs` cannot read part of a file, else by ranges. */
async function openPack(fs: ObjectFiles, path: string, wholeUpTo: number): Promise<PackFile> {
  const { ranges } = fs;
  const size = ranges === undefined ? undefined : await ranges.size(path);
  if (ranges === undefined || size === undefined || size <= wholeUpTo) {
    const raw = await fs.readFile(path);
    const bytes = typeof raw === "string" ? new TextEncoder().encode(raw) : raw;
    return { size: bytes.length, range: async (from, to) => bytes.subarray(from, to) };
  }
  // The entries read last, kept a while: an entry is vetted, then read, one right after the other.
  const recent = new Map<string, { readonly bytes: Promise<Uint8Array>; readonly length: number }>();
  let held = 0;
  return {
    size,
    range: (from, to) => {
      const key = `${from}-${to}`;
      const kept = recent.get(key);
      if (kept !== undefined) return kept.bytes;
      const bytes = ranges.read(path, from, to - from);
      recent.set(key, { bytes, length: to - from });
      held += to - from;
      for (const [old, { length }] of recent) {
        if (held <= RECENT_BYTES || recent.size <= 1) break;
        recent.delete(old);
        held -= length;
      }
      return bytes;
    },
  };
}

/** Lists `path`; none when it does not exist, and a refusal naming it when it cannot be listed (ELOOP, EACCES, …). */
function listing(fs: ObjectFiles, path: string): Promise<string[]> {
  return fs.readdir(path).catch((e: unknown) => {
    const code = thrownCode(e);
    if (code === "ENOENT" || code === "ENOTDIR") return [];
    throw refusal(`cannot list ${path}: ${typeof code === "string" ? code : String(e)}`);
  });
}

async function loadIndexes(fs: ObjectFiles, objects: string): Promise<PackIndex[]> {
  const dir = joinTree(objects, "pack");
  const names = await listing(fs, dir);
  const out: PackIndex[] = [];
  for (const name of names.filter((n) => n.endsWith(".idx"))) {
    const idx = (await fs.readFile(joinTree(dir, name))) as Uint8Array;
    const count = u32(idx, FANOUT + 255 * 4);
    const ix: PackIndex = { idx, pack: joinTree(dir, `${name.slice(0, -4)}.pack`), count, sorted: new Float64Array(count) };
    for (let i = 0; i < count; i++) ix.sorted[i] = offsetOf(ix, i);
    ix.sorted.sort();
    out.push(ix);
  }
  return out;
}

/** The object directory `objects`, read through `fs` (the guarded one) as it is needed; packs over `wholeUpTo` bytes by ranges. */
export function objectDir(fs: ObjectFiles, objects: string, wholeUpTo: number): ObjectDir {
  let indexes: Promise<PackIndex[]> | undefined;
  const packs = new Map<string, Promise<PackFile>>();
  const loose = new Map<string, Promise<ReadonlySet<string>>>();
  let fanouts: Promise<ReadonlySet<string>> | undefined;
  const listed = (path: string): Promise<ReadonlySet<string>> => listing(fs, path).then((names) => new Set(names));
  return {
    path: objects,
    mayBeLoose: async (oid) => {
      fanouts ??= listed(objects);
      return (await fanouts).has(oid.slice(0, 2));
    },
    isLoose: async (oid) => {
      const dir = oid.slice(0, 2);
      fanouts ??= listed(objects);
      if (!(await fanouts).has(dir)) return false;
      let names = loose.get(dir);
      if (names === undefined) {
        names = listed(joinTree(objects, dir));
        loose.set(dir, names);
      }
      return (await names).has(oid.slice(2));
    },
    locate: async (oid) => {
      indexes ??= loadIndexes(fs, objects);
      const key = hexBytes(oid);
      for (const ix of await indexes) {
        const i = find(ix, key);
        if (i !== undefined) return { ix, at: offsetOf(ix, i) };
      }
      return undefined;
    },
    pack: (ix) => {
      let got = packs.get(ix.pack);
      if (got === undefined) {
        got = openPack(fs, ix.pack, wholeUpTo);
        packs.set(ix.pack, got);
      }
      return got;
    },
  };
}
