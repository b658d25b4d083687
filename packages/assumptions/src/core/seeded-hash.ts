// The mixing behind the core's own hash tables (the literal search's, `TextMap`'s long keys): each
// table draws a seed, so that keys crafted to share its slots under one seed share none under the
// next, and mixes it in with MurmurHash3's finaliser.

/** A 32-bit seed for one hash table, new for every table. */
export function randomSeed(): number {
  return (Math.random() * 0x100000000) | 0;
}

/** MurmurHash3's 32-bit finaliser: every bit of the result depends on every bit of `h`. */
export function mix32(h: number): number {
  let x = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return x ^ (x >>> 16);
}
