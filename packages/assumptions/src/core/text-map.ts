// A map keyed by strings of any length. V8 hashes a string by its characters only up to 16,383 of
// them; a longer one hashes by its length alone, so a `Map` of thousands of long keys of one length
// (plan paths or literals, which a plan may make as long as it likes) keeps them all in one chain
// and compares each lookup against every one: a plan of 2,000 such rows took 6 s, where keys one
// character shorter took 0.5 s. Long keys go here by a hash of all their characters instead,
// seeded per map so that keys cannot be chosen to collide, in buckets compared with `===`.

import { mix32, randomSeed } from "./seeded-hash.js";

/** The longest string V8 hashes by its characters (`String::kMaxHashCalcLength`). */
export const HASHED_UNITS = 16_383;

/** FNV-1a over every code unit of `text`, from `seed`, mixed at the end. */
function hashOf(text: string, seed: number): number {
  let h = seed ^ 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return mix32(h);
}

/**
 * A `Map` from strings, as fast for short keys and linear for long ones: keys of up to
 * HASHED_UNITS code units go into a `Map` as they are, longer ones into buckets by `hashOf`.
 * `values()` gives the short keys' values, then the long keys'.
 */
export class TextMap<V> {
  private readonly short = new Map<string, V>();
  private long: Map<number, [string, V][]> | undefined;
  private longCount = 0;
  private readonly seed = randomSeed();

  /** `bits`: the bits of the hash long keys are bucketed by (all 32; tests narrow them to share buckets). */
  constructor(private readonly bits = -1) {}

  /** How many keys the map holds. */
  get size(): number {
    return this.short.size + this.longCount;
  }

  /** The value under `key`, if any. */
  get(key: string): V | undefined {
    if (key.length <= HASHED_UNITS) return this.short.get(key);
    return this.bucket(key)?.find((pair) => pair[0] === key)?.[1];
  }

  /** Whether `key` is in the map. */
  has(key: string): boolean {
    if (key.length <= HASHED_UNITS) return this.short.has(key);
    return this.bucket(key)?.some((pair) => pair[0] === key) === true;
  }

  /** Puts `value` under `key`, in place of any value there. */
  set(key: string, value: V): this {
    if (key.length <= HASHED_UNITS) {
      this.short.set(key, value);
      return this;
    }
    const long = (this.long ??= new Map<number, [string, V][]>());
    const hash = hashOf(key, this.seed) & this.bits;
    const bucket = long.get(hash);
    const pair = bucket?.find((p) => p[0] === key);
    if (pair !== undefined) pair[1] = value;
    else {
      if (bucket === undefined) long.set(hash, [[key, value]]);
      else bucket.push([key, value]);
      this.longCount += 1;
    }
    return this;
  }

  /** Takes `key` out; whether it was there. */
  delete(key: string): boolean {
    if (key.length <= HASHED_UNITS) return this.short.delete(key);
    const bucket = this.bucket(key);
    const at = bucket === undefined ? -1 : bucket.findIndex((pair) => pair[0] === key);
    if (at === -1) return false;
    bucket?.splice(at, 1);
    this.longCount -= 1;
    return true;
  }

  /** Takes every key out. */
  clear(): void {
    this.short.clear();
    this.long = undefined;
    this.longCount = 0;
  }

  /** The keys: the short ones first (in the order they were first set), then the long ones. */
  *keys(): IterableIterator<string> {
    yield* this.short.keys();
    for (const bucket of this.long?.values() ?? []) for (const pair of bucket) yield pair[0];
  }

  /** The values: those of short keys first (in the order their keys were first set), then those of long keys. */
  *values(): IterableIterator<V> {
    yield* this.short.values();
    for (const bucket of this.long?.values() ?? []) for (const pair of bucket) yield pair[1];
  }

  private bucket(key: string): [string, V][] | undefined {
    return this.long?.get(hashOf(key, this.seed) & this.bits);
  }
}
