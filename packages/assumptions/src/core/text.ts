import { decodeStrictUtf8, sha256Hex } from "@decay/portable";
import { err, ok, type Result } from "neverthrow";
import type { CheckFault } from "./faults.js";
import { nfc } from "./unicode/fold.js";

/**
 * A file's normalised text, worked out only as far as it is asked for. The bytes up to `head` are
 * ASCII, which is its own NFC and its own UTF-8; only the rest is decoded up front (to refuse what
 * is not UTF-8) and normalised. A digest of a file that is ASCII throughout decodes nothing.
 */
export class NormalisedText {
  private whole: string | undefined;
  private encoded: Uint8Array | undefined;

  constructor(
    // The bytes as read, line ends folded, one leading BOM dropped.
    private readonly bytes: Uint8Array,
    // Bytes [0, head) are ASCII; `tail` is the normalised text of the bytes from `head` on.
    private readonly head: number,
    private readonly tail: string,
    // Whether NFC left `tail` as it was decoded (its UTF-8 is then the bytes from `head` on).
    private readonly tailKept: boolean,
  ) {}

  /** The normalised text. */
  text(): string {
    this.whole ??= this.head === 0 ? this.tail : ASCII.decode(this.bytes.subarray(0, this.head)) + this.tail;
    return this.whole;
  }

  /** The normalised text as UTF-8: the bytes read themselves, unless NFC changed something. */
  utf8(): Uint8Array {
    if (this.tailKept) return this.bytes;
    if (this.encoded === undefined) {
      const tail = UTF8.encode(this.tail);
      const out = new Uint8Array(this.head + tail.length);
      out.set(this.bytes.subarray(0, this.head));
      out.set(tail, this.head);
      this.encoded = out;
    }
    return this.encoded;
  }
}

/**
 * A file's bytes as normalised text: strict UTF-8 (else a fault), one BOM stripped, CRLF and
 * lone CR folded to LF, NFC. Line ends are folded in the bytes, before decoding: CR and LF are
 * single bytes that no multi-byte sequence holds, so the decoder accepts or refuses the same
 * files, and a file of millions of line ends makes no string pieces to collect. The ASCII before
 * the first other byte, when it is most of the file, is neither decoded nor normalised here
 * (an ASCII file's digest decodes nothing): it is valid UTF-8 and NFC, and no
 * ASCII character composes with what comes before it, so NFC of the whole is that ASCII followed
 * by NFC of the rest, taken from the last ASCII character on (a mark after it may compose with it).
 */
export function normaliseBytes(bytes: Uint8Array, path?: string): Result<NormalisedText, CheckFault> {
  // One scan finds the first CR or byte past ASCII; most files have neither.
  const stop = firstCrOrNonAscii(bytes);
  let folded = bytes;
  let other = stop;
  if (stop !== -1 && bytes[stop] === CR) {
    folded = foldLineEnds(bytes, stop);
    // Folding left the bytes before `stop` where they were, and no CR after it.
    const rest = firstCrOrNonAscii(folded.subarray(stop));
    other = rest === -1 ? -1 : stop + rest;
  } else if (stop !== -1) {
    const cr = bytes.indexOf(CR, stop);
    if (cr !== -1) folded = foldLineEnds(bytes, cr);
  }
  if (other === -1) return ok(new NormalisedText(folded, folded.length, "", true));
  // Skipped only when the ASCII is most of the file: otherwise the text a row asks for would be the
  // two pieces joined, a copy of the whole that decoding it whole does not make. From the start,
  // the decoder also drops a leading BOM (a BOM is not ASCII, so `other` is 0).
  const head = other - 1 < folded.length / 2 ? 0 : other - 1;
  // Strict UTF-8 (stray or overlong bytes, surrogates refused); from the start, one leading BOM dropped.
  const decoded = decodeStrictUtf8(head === 0 ? folded : folded.subarray(head)).unwrapOr(undefined);
  if (decoded === undefined) return notUtf8(path);
  const tail = nfc(decoded);
  const body = head === 0 && hasBom(folded) ? folded.subarray(3) : folded;
  return ok(new NormalisedText(body, head, tail, tail === decoded));
}

// Whether a byte ends the run `firstCrOrNonAscii` skips: a CR, or a byte past ASCII.
function stops(byte: number): boolean {
  return byte >= 0x80 || byte === CR;
}

/**
 * The index of the first CR (0x0d) or byte past ASCII (0x80 and above), or -1. Eight bytes at a
 * time where the view is aligned for it (a word holds a CR when its XOR with 0x0d0d0d0d has a zero
 * byte): several times faster than a loop per byte, and one pass where `indexOf(CR)` and a scan
 * for the first other byte were two.
 */
export function firstCrOrNonAscii(bytes: Uint8Array): number {
  const n = bytes.length;
  let i = 0;
  const lead = Math.min(n, (4 - (bytes.byteOffset & 3)) & 3);
  for (; i < lead; i += 1) if (stops(bytes[i] as number)) return i;
  const words = (n - i) >> 2;
  if (words > 0) {
    const w = new Uint32Array(bytes.buffer, bytes.byteOffset + i, words);
    let k = 0;
    for (; k + 2 <= words; k += 2) {
      const v = w[k] as number;
      const u = w[k + 1] as number;
      const x = v ^ 0x0d0d0d0d;
      const y = u ^ 0x0d0d0d0d;
      if ((((x - 0x01010101) & ~x) | ((y - 0x01010101) & ~y) | v | u) & 0x80808080) break;
    }
    // The byte loop below finds the first such byte from the pair of words that holds it.
    i += k * 4;
  }
  for (; i < n; i += 1) if (stops(bytes[i] as number)) return i;
  return -1;
}

const CR = 0x0d;
const LF = 0x0a;

// The bytes with CRLF and then any CR left alone made LF (as /\r\n?/g would), from the first CR.
function foldLineEnds(bytes: Uint8Array, first: number): Uint8Array {
  const out = new Uint8Array(bytes.length);
  out.set(bytes.subarray(0, first));
  let n = first;
  for (let i = first; i < bytes.length; i += 1) {
    const byte = bytes[i] as number;
    if (byte !== CR) out[n++] = byte;
    else {
      out[n++] = LF;
      if (bytes[i + 1] === LF) i += 1;
    }
  }
  return out.subarray(0, n);
}

/**
 * SHA-256 (lowercase hex) of normalised text, encoded as UTF-8: from the bytes it was decoded
 * from when normalising left them as they were.
 */
export function digestNormalised(normal: NormalisedText, hash: (bytes: Uint8Array) => string = sha256Hex): string {
  return hash(normal.utf8());
}

/** SHA-256 (lowercase hex) of a file's normalised text (see `normaliseBytes`), encoded as UTF-8. */
export function digestText(bytes: Uint8Array, path?: string, hash: (bytes: Uint8Array) => string = sha256Hex): Result<string, CheckFault> {
  return normaliseBytes(bytes, path).map((normal) => digestNormalised(normal, hash));
}

function notUtf8(path: string | undefined): Result<never, CheckFault> {
  return err(path === undefined ? { code: "file-not-utf8" } : { code: "file-not-utf8", path });
}

function hasBom(bytes: Uint8Array): boolean {
  return bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
}

const UTF8 = new TextEncoder();
// Bytes known to be ASCII: any decoder gives their text; this one skips the checks of a strict one.
const ASCII = new TextDecoder();
