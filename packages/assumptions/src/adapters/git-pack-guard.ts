// Packed objects, vetted before isomorphic-git inflates them: the entry's declared size (and a
// delta's result size) must be within the limit, and an entry whose compressed bytes could
// expand past the limit is inflated here first, bounded, and must stop at its declared size.
import { inflateBounded, MAX_DEFLATE_RATIO } from "./git-inflate.js";
import { inflatePeek } from "./git-peek.js";
import { refusal } from "./git-guard.js";
import { joinTree } from "./tree-error.js";

/** The file calls the pack vetting makes (the guarded fs's promises). */
export interface PackFs {
  readdir(path: string): Promise<string[]>;
  readFile(path: string): Promise<Uint8Array | string>;
  stat(path: string): Promise<unknown>;
}

interface PackIndex {
  readonly idx: Uint8Array;
  readonly pack: string;
  readonly count: number;
  /** Every entry's offset, ascending: an entry ends where the next one starts. */
  readonly sorted: Float64Array;
}

const FANOUT = 8;
const NAMES = FANOUT + 256 * 4;

function u32(b: Uint8Array, at: number): number {
  return (((b[at] ?? 0) << 24) >>> 0) + ((b[at + 1] ?? 0) << 16) + ((b[at + 2] ?? 0) << 8) + (b[at + 3] ?? 0);
}

function offsetOf(ix: PackIndex, i: number): number {
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

/** An entry's header: its type, declared size, where its compressed bytes start, and its base. */
function entryHeader(pack: Uint8Array, at: number): { type: number; size: number; data: number; base?: number | string } | undefined {
  let byte = pack[at] ?? 0;
  const type = (byte >> 4) & 7;
  let size = byte & 15;
  let shift = 4;
  let p = at + 1;
  while (byte & 0x80) {
    if (p >= pack.length || shift > 49) return undefined;
    byte = pack[p++] ?? 0;
    size += (byte & 0x7f) * 2 ** shift;
    shift += 7;
  }
  if (type === 6) {
    byte = pack[p++] ?? 0;
    let rel = byte & 0x7f;
    while (byte & 0x80) {
      if (p >= pack.length || rel > 2 ** 45) return undefined;
      byte = pack[p++] ?? 0;
      rel = (rel + 1) * 128 + (byte & 0x7f);
    }
    return { type, size, data: p, base: at - rel };
  }
  if (type === 7) {
    const base = Array.from(pack.subarray(p, p + 20), (b) => b.toString(16).padStart(2, "0")).join("");
    return { type, size, data: p + 20, base };
  }
  return type >= 1 && type <= 4 ? { type, size, data: p } : undefined;
}

/** The result size a delta declares: the second varint of its inflated instructions. */
function deltaTarget(bytes: Uint8Array): number | undefined {
  let p = 0;
  for (let n = 0; n < 2; n++) {
    let value = 0;
    let shift = 0;
    for (;;) {
      const b = bytes[p++];
      if (b === undefined || shift > 49) return undefined;
      value += (b & 0x7f) * 2 ** shift;
      shift += 7;
      if ((b & 0x80) === 0) break;
    }
    if (n === 1) return value;
  }
  return undefined;
}

/** The first offset greater than `at` in an ascending list, by binary search. */
function after(sorted: Float64Array, at: number): number | undefined {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] ?? 0) <= at) lo = mid + 1;
    else hi = mid;
  }
  return sorted[lo];
}

/** What is wrong with the entry at `at` of `pack` (ending at `end`), by its header and bounded inflation. */
export async function packEntryProblem(pack: Uint8Array, at: number, end: number, limit: number): Promise<{ problem?: string; base?: number | string }> {
  const head = entryHeader(pack, at);
  if (head === undefined || head.data > end) return { problem: `the entry at offset ${at} has no valid header` };
  if (head.size > limit) return { problem: `the entry at offset ${at} declares ${head.size} bytes, over the limit of ${limit}` };
  const compressed = pack.subarray(head.data, end);
  if (head.base !== undefined) {
    const peek = inflatePeek(compressed, 21);
    const target = peek.kind === "ok" ? deltaTarget(peek.bytes) : undefined;
    if (target === undefined) return { problem: `the delta at offset ${at} has no valid size header` };
    if (target > limit) return { problem: `the delta at offset ${at} builds ${target} bytes, over the limit of ${limit}` };
  }
  if (compressed.length * MAX_DEFLATE_RATIO > limit) {
    const whole = await inflateBounded(compressed, head.size);
    if (whole.kind === "past") return { problem: `the entry at offset ${at} inflates past the ${head.size} bytes it declares` };
    if (whole.kind === "corrupt") return { problem: `the entry at offset ${at} is not a valid zlib stream (${whole.reason})` };
  }
  return head.base === undefined ? {} : { base: head.base };
}

/**
 * Vets packed objects by id for one repository's object directory. Pack indexes (already checked
 * against their size by the guard's readFile) and packs are read once and kept.
 */
export function packVetter(fs: PackFs, objects: string, limit: number): (oid: string) => Promise<void> {
  let indexes: Promise<PackIndex[]> | undefined;
  const packs = new Map<string, Promise<Uint8Array>>();
  const load = async (): Promise<PackIndex[]> => {
    const dir = joinTree(objects, "pack");
    const names = await fs.readdir(dir).catch(() => [] as string[]);
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
  };
  const packOf = (path: string): Promise<Uint8Array> => {
    let got = packs.get(path);
    if (got === undefined) {
      got = fs.readFile(path).then((b) => (typeof b === "string" ? new TextEncoder().encode(b) : b));
      packs.set(path, got);
    }
    return got;
  };
  // Entries found sound, by pack and offset, with the number of delta hops below each.
  const sound = new Map<string, number>();
  // Loose object names by fan-out directory, listed once: a loose object is read (and guarded) as such.
  const loose = new Map<string, Promise<ReadonlySet<string>>>();
  const isLoose = async (oid: string): Promise<boolean> => {
    const dir = oid.slice(0, 2);
    let names = loose.get(dir);
    if (names === undefined) {
      names = fs.readdir(joinTree(objects, dir)).then(
        (list) => new Set(list),
        () => new Set<string>(),
      );
      loose.set(dir, names);
    }
    return (await names).has(oid.slice(2));
  };
  const vetAt = async (ix: PackIndex, oid: string, at: number, depth: number): Promise<number> => {
    const key = `${ix.pack}\0${at}`;
    const known = sound.get(key);
    if (known !== undefined && depth + known <= 64) return known;
    const pack = await packOf(ix.pack);
    const next = after(ix.sorted, at);
    const { problem, base } = known === undefined ? await packEntryProblem(pack, at, next ?? pack.length - 20, limit) : {};
    if (problem !== undefined) throw refusal(`the git object ${oid} in ${ix.pack} is refused: ${problem}`);
    if (depth > 64 || (known !== undefined && depth + known > 64)) throw refusal(`the git object ${oid} in ${ix.pack} is refused: its delta chain is longer than 64`);
    let below = 0;
    if (typeof base === "number") below = 1 + (await vetAt(ix, oid, base, depth + 1));
    else if (typeof base === "string") below = 1 + (await vet(base, depth + 1));
    sound.set(key, below);
    return below;
  };
  /** Vets `oid` and answers the delta hops below it (0 when loose or not packed). */
  const vet = async (oid: string, depth = 0): Promise<number> => {
    if (await isLoose(oid)) return 0;
    indexes ??= load();
    const key = hexBytes(oid);
    for (const ix of await indexes) {
      const i = find(ix, key);
      if (i !== undefined) return vetAt(ix, oid, offsetOf(ix, i), depth);
    }
    return 0;
  };
  return (oid) => vet(oid).then(() => undefined);
}
