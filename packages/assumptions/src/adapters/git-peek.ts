// A small synchronous zlib inflater for the object-store guards, which need only the first bytes
// of an object (its header, a delta's sizes): decoding stops at `max` output bytes. A web
// DecompressionStream costs a few hundred microseconds per object to set up and cancel; this costs
// the block header and a few dozen symbols. Written after zlib's puff.c (RFC 1950/1951).
import { build, FAST_BITS, FIXED, type Huffman } from "./git-huffman.js";
import type { Inflated } from "./git-inflate.js";

const LBASE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258];
const LEXT = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
const DBASE = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577];
const DEXT = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];
const ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];

/** Decoding state: input position and bit buffer, output so far, and the first fault met. */
interface State {
  readonly src: Uint8Array;
  pos: number;
  bits: number;
  count: number;
  out: Uint8Array;
  n: number;
  readonly max: number;
  full: boolean;
  bad: string | undefined;
}

/** Tops the bit buffer up to at least 25 bits, as far as the input goes. */
function fill(s: State): void {
  while (s.count <= 24 && s.pos < s.src.length) {
    s.bits |= (s.src[s.pos++] ?? 0) << s.count;
    s.count += 8;
  }
}

function need(s: State, k: number): number {
  if (s.count < k) {
    fill(s);
    if (s.count < k) {
      s.bad ??= "the stream ends early";
      return 0;
    }
  }
  const v = s.bits & ((1 << k) - 1);
  s.bits >>>= k;
  s.count -= k;
  return v;
}

/** Drops the bits up to the next byte boundary and hands whole buffered bytes back to the input. */
function align(s: State): void {
  s.pos -= s.count >> 3;
  s.bits = 0;
  s.count = 0;
}

/** Makes room for `n` output bytes in all (never more than `max`). */
function room(s: State, n: number): void {
  if (n <= s.out.length) return;
  const grown = new Uint8Array(Math.min(s.max, Math.max(n, s.out.length * 2)));
  grown.set(s.out.subarray(0, s.n));
  s.out = grown;
}

/** Appends one byte; false (and `full`) once `max` bytes are out. */
function put(s: State, byte: number): boolean {
  if (s.n >= s.max) {
    s.full = true;
    return false;
  }
  room(s, s.n + 1);
  s.out[s.n++] = byte;
  return true;
}

/** Copies `len` bytes from `dist` back (overlapping as LZ77 means); false (and `full`) past `max`. */
function copy(s: State, dist: number, len: number): boolean {
  const take = Math.min(len, s.max - s.n);
  room(s, s.n + take);
  const out = s.out;
  let n = s.n;
  for (const end = n + take; n < end; n++) out[n] = out[n - dist] ?? 0;
  s.n = n;
  if (take < len) s.full = true;
  return take === len;
}

function decode(s: State, h: Huffman): number {
  if (s.count < FAST_BITS) fill(s);
  const hit = h.fast[s.bits & ((1 << FAST_BITS) - 1)] ?? 0;
  if (hit !== 0 && (hit & 15) <= s.count) {
    s.bits >>>= hit & 15;
    s.count -= hit & 15;
    return hit >> 4;
  }
  let code = 0;
  let first = 0;
  let index = 0;
  for (let len = 1; len <= 15; len++) {
    code |= need(s, 1);
    const count = h.count[len] ?? 0;
    if (code - count < first) return h.symbol[index + (code - first)] ?? 0;
    index += count;
    first = (first + count) * 2;
    code *= 2;
  }
  s.bad ??= "an invalid Huffman code";
  return -1;
}

function codes(s: State, lens: Huffman, dists: Huffman): void {
  for (;;) {
    let sym = decode(s, lens);
    if (s.bad !== undefined || sym === 256) return;
    if (sym < 256) {
      if (!put(s, sym)) return;
      continue;
    }
    sym -= 257;
    if (sym >= 29) return void (s.bad ??= "an invalid length code");
    const len = (LBASE[sym] ?? 0) + need(s, LEXT[sym] ?? 0);
    const d = decode(s, dists);
    if (s.bad !== undefined) return;
    if (d < 0 || d >= 30) return void (s.bad ??= "an invalid distance code");
    const dist = (DBASE[d] ?? 0) + need(s, DEXT[d] ?? 0);
    if (s.bad !== undefined) return;
    if (dist > s.n) return void (s.bad ??= "a distance too far back");
    if (!copy(s, dist, len)) return;
  }
}

function stored(s: State): void {
  align(s);
  if (s.pos + 4 > s.src.length) return void (s.bad ??= "the stream ends early");
  const len = (s.src[s.pos] ?? 0) | ((s.src[s.pos + 1] ?? 0) << 8);
  const nlen = (s.src[s.pos + 2] ?? 0) | ((s.src[s.pos + 3] ?? 0) << 8);
  if (len !== (~nlen & 0xffff)) return void (s.bad ??= "a stored block's length is not complemented");
  s.pos += 4;
  if (s.pos + len > s.src.length) return void (s.bad ??= "the stream ends early");
  for (let i = 0; i < len; i++) if (!put(s, s.src[s.pos + i] ?? 0)) return;
  s.pos += len;
}

/** Reads the code lengths of a dynamic block: code-length codes, then literal/length and distance lengths. */
function dynamicLengths(s: State, nlen: number, ndist: number, ncode: number): Uint8Array | undefined {
  const pre = new Uint8Array(19);
  for (let i = 0; i < ncode; i++) pre[ORDER[i] ?? 0] = need(s, 3);
  const { code, left } = build(pre, 0, 19);
  if (left !== 0) return void (s.bad ??= "an incomplete code-length code");
  const lengths = new Uint8Array(nlen + ndist);
  for (let i = 0; i < nlen + ndist && s.bad === undefined; ) {
    const sym = decode(s, code);
    if (sym < 16) {
      lengths[i++] = sym;
      continue;
    }
    const [value, times] = sym === 16 ? [i === 0 ? -1 : (lengths[i - 1] ?? 0), 3 + need(s, 2)] : [0, sym === 17 ? 3 + need(s, 3) : 11 + need(s, 7)];
    if (value < 0 || i + times > nlen + ndist) return void (s.bad ??= "a repeat past the code lengths");
    lengths.fill(value, i, i + times);
    i += times;
  }
  return s.bad === undefined ? lengths : undefined;
}

function dynamic(s: State): void {
  const nlen = need(s, 5) + 257;
  const ndist = need(s, 5) + 1;
  const ncode = need(s, 4) + 4;
  if (nlen > 286 || ndist > 30) return void (s.bad ??= "too many length or distance codes");
  const lengths = dynamicLengths(s, nlen, ndist, ncode);
  if (lengths === undefined) return;
  if (lengths[256] === 0) return void (s.bad ??= "no end-of-block code");
  const lens = build(lengths, 0, nlen);
  const dists = build(lengths, nlen, ndist);
  const incomplete = (h: { code: Huffman; left: number }, n: number) => h.left < 0 || (h.left > 0 && n - (h.code.count[0] ?? 0) !== 1);
  if (incomplete(lens, nlen) || incomplete(dists, ndist)) return void (s.bad ??= "an invalid literal/length or distance code");
  codes(s, lens.code, dists.code);
}

function adler32(bytes: Uint8Array): number {
  let a = 1;
  let b = 0;
  for (let i = 0; i < bytes.length; ) {
    const end = Math.min(bytes.length, i + 3800);
    for (; i < end; i++) {
      a += bytes[i] ?? 0;
      b += a;
    }
    a %= 65521;
    b %= 65521;
  }
  return ((b << 16) | a) >>> 0;
}

/** What `inflatePeek` found: as `Inflated`, and for a complete stream the input bytes left after its end. */
export type Peeked =
  | { readonly kind: "ok"; readonly bytes: Uint8Array; readonly complete: false }
  | { readonly kind: "ok"; readonly bytes: Uint8Array; readonly complete: true; readonly trailing: number }
  | Extract<Inflated, { kind: "corrupt" }>;

/**
 * Inflates the zlib stream `compressed` up to `max` output bytes. `complete: false` when the output
 * reached `max` before the stream ended (decoding stops there); a stream that is not valid zlib
 * up to that point is `corrupt`. A complete stream's Adler-32 is checked, and `trailing` counts
 * the bytes of `compressed` after it (git refuses a loose object with any).
 */
export function inflatePeek(compressed: Uint8Array, max: number): Peeked {
  const cmf = compressed[0] ?? 0;
  const flg = compressed[1] ?? 0;
  if (compressed.length < 2 || (cmf & 0x0f) !== 8 || cmf >> 4 > 7 || (cmf * 256 + flg) % 31 !== 0 || (flg & 0x20) !== 0) {
    return { kind: "corrupt", reason: "incorrect header check" };
  }
  const s: State = {
    src: compressed,
    pos: 2,
    bits: 0,
    count: 0,
    out: new Uint8Array(Math.max(1, Math.min(max, 4096))),
    n: 0,
    max,
    full: false,
    bad: undefined,
  };
  for (let last = 0; last === 0 && !s.full && s.bad === undefined; ) {
    last = need(s, 1);
    const type = need(s, 2);
    if (type === 0) stored(s);
    else if (type === 1) codes(s, FIXED.lens, FIXED.dists);
    else if (type === 2) dynamic(s);
    else s.bad ??= "an invalid block type";
  }
  if (s.full) return { kind: "ok", bytes: s.out.subarray(0, s.n), complete: false };
  if (s.bad !== undefined) return { kind: "corrupt", reason: s.bad };
  const bytes = s.out.subarray(0, s.n);
  align(s);
  const sum = compressed.subarray(s.pos, s.pos + 4);
  if (sum.length < 4) return { kind: "corrupt", reason: "the stream ends early" };
  const want = (((sum[0] ?? 0) << 24) | ((sum[1] ?? 0) << 16) | ((sum[2] ?? 0) << 8) | (sum[3] ?? 0)) >>> 0;
  if (adler32(bytes) !== want) return { kind: "corrupt", reason: "incorrect data check" };
  return { kind: "ok", bytes, complete: true, trailing: compressed.length - (s.pos + 4) };
}
