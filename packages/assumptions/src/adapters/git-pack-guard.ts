import { bytesToHex } from "@noble/hashes/utils";
// Packed objects, vetted before the store (git-store.ts) inflates them: the entry's declared size (and a
// delta's result size) must be within the limit, and an entry whose compressed bytes could
// expand past the limit is inflated here first, bounded, and must stop at its declared size.
import { inflateBounded, MAX_DEFLATE_RATIO } from "./git-inflate.js";
import { inflatePeek } from "./git-peek.js";
import { refusal } from "./git-guard.js";
import { entryEnd, type ObjectDir, type PackedAt, type PackIndex } from "./git-packs.js";

/** An entry's header: its type, declared size, where its compressed bytes start, and its base. */
export function entryHeader(pack: Uint8Array, at: number): { type: number; size: number; data: number; base?: number | string } | undefined {
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

/** The pack guard of one object directory. */
export interface PackVetter {
  /** Vets the packed entry of `oid` found at `found`. */
  readonly vetPacked: (oid: string, found: PackedAt) => Promise<void>;
}

/**
 * Vets packed objects in one object directory: each entry on the object's delta chain, and the
 * chain's length. Entries found sound are kept (with the delta hops below each), so a base
 * shared by many objects is vetted once; a loose object is left to the guard's readFile.
 */
export function packVetter(dir: ObjectDir, limit: number): PackVetter {
  const sound = new Map<string, number>();
  const vetAt = async (ix: PackIndex, oid: string, at: number, depth: number): Promise<number> => {
    const key = `${ix.pack}\0${at}`;
    const known = sound.get(key);
    if (known !== undefined && depth + known <= 64) return known;
    const pack = await dir.pack(ix);
    const { problem, base } = known === undefined ? await packEntryProblem(pack, at, entryEnd(ix, at, pack), limit) : {};
    if (problem !== undefined) throw refusal(`the git object ${oid} in ${ix.pack} is refused: ${problem}`);
    // Too deep here, or (for a kept entry) too deep counting the hops below it.
    if (depth > 64 || known !== undefined) throw refusal(`the git object ${oid} in ${ix.pack} is refused: its delta chain is longer than 64`);
    let below = 0;
    if (typeof base === "number") below = 1 + (await vetAt(ix, oid, base, depth + 1));
    else if (typeof base === "string") below = 1 + (await vet(base, depth + 1));
    sound.set(key, below);
    return below;
  };
  /** Vets `oid` (a ref delta's base) and answers the delta hops below it (0 when loose or not packed: the store reads a loose object first). */
  const vet = async (oid: string, depth = 0): Promise<number> => {
    if (await dir.isLoose(oid)) return 0;
    const found = await dir.locate(oid);
    return found === undefined ? 0 : vetAt(found.ix, oid, found.at, depth);
  };
  return {
    vetPacked: (oid, found) => vetAt(found.ix, oid, found.at, 0).then(() => undefined),
  };
}
