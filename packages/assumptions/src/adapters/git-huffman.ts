// Canonical Huffman codes for the inflater in git-peek.ts: counts and symbols in code order (the
// slow, always-right decode) and a table by the next few input bits (the fast one).

/** A canonical Huffman code: how many codes of each length, and the symbols in code order. */
export interface Huffman {
  readonly count: Uint16Array;
  readonly symbol: Uint16Array;
  /** By the next FAST_BITS input bits: (symbol << 4) | length for codes that short, else 0. */
  readonly fast: Uint16Array;
}

/** Codes up to this many bits long decode by one table lookup. */
export const FAST_BITS = 9;

/** Builds a code from lengths; answers 0 when complete, > 0 when incomplete, < 0 when over-subscribed. */
export function build(lengths: ArrayLike<number>, from: number, n: number): { code: Huffman; left: number } {
  const code = { count: new Uint16Array(16), symbol: new Uint16Array(n), fast: new Uint16Array(1 << FAST_BITS) };
  for (let i = 0; i < n; i++) {
    const len = lengths[from + i] ?? 0;
    code.count[len] = (code.count[len] ?? 0) + 1;
  }
  if (code.count[0] === n) return { code, left: 0 };
  let left = 1;
  for (let len = 1; len <= 15; len++) {
    left = left * 2 - (code.count[len] ?? 0);
    if (left < 0) return { code, left };
  }
  const offs = new Uint16Array(16);
  const next = new Uint16Array(16);
  for (let len = 1; len < 15; len++) {
    offs[len + 1] = (offs[len] ?? 0) + (code.count[len] ?? 0);
    next[len + 1] = ((next[len] ?? 0) + (code.count[len] ?? 0)) * 2;
  }
  for (let i = 0; i < n; i++) {
    const len = lengths[from + i] ?? 0;
    if (len === 0) continue;
    const at = offs[len] ?? 0;
    code.symbol[at] = i;
    offs[len] = at + 1;
    const c = next[len] ?? 0;
    next[len] = c + 1;
    if (len <= FAST_BITS) {
      let rev = 0;
      for (let b = 0; b < len; b++) rev |= ((c >> b) & 1) << (len - 1 - b);
      for (let j = rev; j < 1 << FAST_BITS; j += 1 << len) code.fast[j] = (i << 4) | len;
    }
  }
  return { code, left };
}

/** The fixed literal/length and distance codes of RFC 1951 (block type 1). */
export const FIXED: { readonly lens: Huffman; readonly dists: Huffman } = (() => {
  const lengths = new Uint8Array(288);
  lengths.fill(8, 0, 144).fill(9, 144, 256).fill(7, 256, 280).fill(8, 280, 288);
  return { lens: build(lengths, 0, 288).code, dists: build(new Uint8Array(30).fill(5), 0, 30).code };
})();
