import { bytesToHex } from "@noble/hashes/utils";
// Packed objects, vetted before the store (git-store.ts) inflates them: the entry's declared size (and a
// delta's result size) must be within the limit, and an entry whose compressed bytes could
// expand past the limit is inflated here first, bounded, and must stop at its declared size.
import { inflateBounded, MAX_DEFLATE_RATIO } from "./git-inflate.js";
import { inflatePeek } from "./git-peek.js";
import { refusal } from "./git-guard.js";
import { entryEnd, type ObjectDir, type PackedAt, type PackFile, type PackIndex } from "./git-packs.js";

/** An entry's header: its type, declared size, where its compressed bytes start, and its base. */
export type EntryHeader = { type: number; size: number; data: number; base?: number | string };

/**
 * The header of the entry whose bytes `pack` holds from index `at` on (`origin`: the pack offset
 * of `pack[0]`, so that an offset delta's base is a pack offset); `data` is an index into `pack`.
 */
export function entryHeader(pack: Uint8Array, at: number, origin = 0): EntryHeader | undefined {
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
    return { type, size, data: p, base: origin + at - rel };
  }
  if (type === 7) {
    const base = bytesToHex(pack.subarray(p, p + 20));
    return { type, size, data: p + 20, base };
  }
  return type >= 1 && type <= 4 ? { type, size, data: p } : undefined;
}

/** One size of a delta's header (base-128, low bits first) at `at.p`, moving past it; `undefined` when cut short. */
export function deltaSize(delta: Uint8Array, at: { p: number }): number | undefined {
  let value = 0;
  let shift = 0;
  for (;;) {
    const b = delta[at.p++];
    if (b === undefined || shift > 49) return undefined;
    value += (b & 0x7f) * 2 ** shift;
    shift += 7;
    if ((b & 0x80) === 0) return value;
  }
}

/** The result size a delta declares: the second size of its inflated instructions. */
function deltaTarget(bytes: Uint8Array): number | undefined {
  const at = { p: 0 };
  return deltaSize(bytes, at) === undefined ? undefined : deltaSize(bytes, at);
}

/**
 * The bytes of the entry at `at` of a pack, as far as the next entry (or the trailer) but never
 * past twice what an object within `limit` holds (a deflated stream of incompressible bytes adds a
 * few bytes per block, about 5 in 16 KiB as git writes them: twice is far past any encoder's
 * overhead, and a stream cut there is no object within the limit, which inflating it says), and its
 * header; a problem when it holds no valid header. Read once per use: a large pack is never read
 * whole for it, nor far past what one object may take.
 */
export async function packEntry(pack: PackFile, ix: PackIndex, at: number, limit: number): Promise<{ head: EntryHeader; compressed: Uint8Array } | string> {
  const end = Math.min(entryEnd(ix, at, pack.size), at + 2 * limit + 1024);
  const bytes = end > at ? await pack.range(at, end) : new Uint8Array(0);
  const head = entryHeader(bytes, 0, at);
  if (head === undefined || head.data > bytes.length) return `the entry at offset ${at} has no valid header`;
  return { head, compressed: bytes.subarray(head.data) };
}

/**
 * The bytes the entry at `at` rebuilds (its declared size, or a delta's result, read from `delta`,
 * its first inflated bytes), or what is wrong with them: over `limit`, or a delta with no valid
 * size header. Checked before anything is inflated past those first bytes.
 */
export function entryBuilds(at: number, head: EntryHeader, compressed: Uint8Array, limit: number): { builds: number } | { problem: string } {
  if (head.size > limit) return { problem: `the entry at offset ${at} declares ${head.size} bytes, over the limit of ${limit}` };
  if (head.base === undefined) return { builds: head.size };
  const peek = inflatePeek(compressed, 21);
  const target = peek.kind === "ok" ? deltaTarget(peek.bytes) : undefined;
  if (target === undefined) return { problem: `the delta at offset ${at} has no valid size header` };
  if (target > limit) return { problem: `the delta at offset ${at} builds ${target} bytes, over the limit of ${limit}` };
  return { builds: target };
}

/**
 * What is wrong with the entry at `at` of `pack`, by its header and bounded inflation; else its
 * base, if it is a delta, and the bytes it rebuilds (its size, or a delta's result).
 */
export async function packEntryProblem(
  pack: PackFile,
  ix: PackIndex,
  at: number,
  limit: number,
): Promise<{ problem?: string; base?: number | string; builds?: number }> {
  const entry = await packEntry(pack, ix, at, limit);
  if (typeof entry === "string") return { problem: entry };
  const { head, compressed } = entry;
  const sized = entryBuilds(at, head, compressed, limit);
  if ("problem" in sized) return sized;
  const { builds } = sized;
  if (compressed.length * MAX_DEFLATE_RATIO > limit) {
    const whole = await inflateBounded(compressed, head.size);
    if (whole.kind === "past") return { problem: `the entry at offset ${at} inflates past the ${head.size} bytes it declares` };
    if (whole.kind === "corrupt") return { problem: `the entry at offset ${at} is not a valid zlib stream (${whole.reason})` };
  }
  return head.base === undefined ? { builds } : { base: head.base, builds };
}

/** The most delta links git itself writes below one packed object (`pack.depth` is capped there). */
export const MAX_CHAIN_LINKS = 4095;
/** Bytes one object's chain may rebuild, as a multiple of the object limit: a base and 64 delta links, all at the limit. */
const CHAIN_WORK_FACTOR = 65;

/** A vetted entry: the delta links below it, and the bytes rebuilding it takes (its own and every packed base's). */
interface Chain {
  readonly links: number;
  readonly work: number;
}

/** The pack guard of one object directory. */
export interface PackVetter {
  /** Vets the packed entry of `oid` found at `found`. */
  readonly vetPacked: (oid: string, found: PackedAt) => Promise<void>;
}

/**
 * Vets packed objects in one object directory: each entry on the object's delta chain, the chain's
 * length (at most git's own `MAX_CHAIN_LINKS`, never back to an entry already on it) and the bytes
 * rebuilding it takes (at most 65 objects at the limit: a chain of small files may be as long as
 * git makes it, one of 64 MiB objects a base and 64 links). Entries found sound are kept (with what lies below
 * each), so a base shared by many objects is vetted once; a loose object is left to the guard's
 * readFile (and counts no bytes).
 */
export function packVetter(dir: ObjectDir, limit: number): PackVetter {
  const sound = new Map<string, Chain>();
  const maxWork = CHAIN_WORK_FACTOR * limit;
  const refuse = (oid: string, ix: PackIndex, why: string) => refusal(`the git object ${oid} in ${ix.pack} is refused: ${why}`);
  // `depth` entries of the chain lie above this one; `above` holds every entry the chain has met (a
  // delta has one base, so a chain is one path and one set serves it all the way down): one met
  // again means the chain loops.
  const vetAt = async (ix: PackIndex, oid: string, at: number, depth: number, above: Set<string>): Promise<Chain> => {
    const key = `${ix.pack}\0${at}`;
    if (above.has(key)) throw refuse(oid, ix, "its delta chain comes back to an entry already on it");
    const known = sound.get(key);
    if (known !== undefined) return known;
    if (depth > MAX_CHAIN_LINKS) throw refuse(oid, ix, `its delta chain is longer than ${MAX_CHAIN_LINKS} links`);
    const { problem, base, builds = 0 } = await packEntryProblem(await dir.pack(ix), ix, at, limit);
    if (problem !== undefined) throw refuse(oid, ix, problem);
    above.add(key);
    const below =
      typeof base === "number" ? await vetAt(ix, oid, base, depth + 1, above) : typeof base === "string" ? await vet(base, depth + 1, above) : undefined;
    const chain = below === undefined ? { links: 0, work: builds } : { links: below.links + 1, work: below.work + builds };
    if (depth + chain.links > MAX_CHAIN_LINKS) throw refuse(oid, ix, `its delta chain is longer than ${MAX_CHAIN_LINKS} links`);
    if (chain.work > maxWork)
      throw refuse(oid, ix, `its delta chain rebuilds ${chain.work} bytes, over ${CHAIN_WORK_FACTOR} times the object limit of ${limit}`);
    sound.set(key, chain);
    return chain;
  };
  /** Vets `oid` (a ref delta's base): what lies below it (nothing when loose or not packed: the store reads a loose object first). */
  const vet = async (oid: string, depth: number, above: Set<string>): Promise<Chain> => {
    if (await dir.isLoose(oid)) return { links: 0, work: 0 };
    const found = await dir.locate(oid);
    return found === undefined ? { links: 0, work: 0 } : vetAt(found.ix, oid, found.at, depth, above);
  };
  return {
    vetPacked: (oid, found) => vetAt(found.ix, oid, found.at, 0, new Set()).then(() => undefined),
  };
}
