import { sha256Hex } from "@decay/portable";
import { err, ok, type Result } from "neverthrow";
import type { CheckFault } from "./faults.js";
import { nfc } from "./unicode/fold.js";

// Refuses what is not UTF-8 (stray or overlong bytes, surrogates); drops one leading BOM.
const strict = new TextDecoder("utf-8", { fatal: true });

// Strict UTF-8 decoding, one leading BOM dropped. (Decoded UTF-8 is as long as its bytes exactly
// when every byte is ASCII: any other sequence, a BOM too, gives fewer code units than bytes.)
function decodeStrict(bytes: Uint8Array): string | undefined {
  try {
    return strict.decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * Bytes as a string under strict UTF-8, one leading BOM dropped; `undefined` when they are not
 * UTF-8.
 */
export function strictText(bytes: Uint8Array): string | undefined {
  return decodeStrict(bytes);
}

/** A file's normalised text, and its UTF-8 bytes when they are known without encoding it again. */
export interface NormalisedText {
  readonly text: string;
  /** The UTF-8 of `text` (the bytes read, less a BOM, line ends folded), unless NFC changed it. */
  readonly utf8: Uint8Array | undefined;
}

/**
 * A file's bytes as normalised text: strict UTF-8 (else a fault), one BOM stripped, CRLF and
 * lone CR folded to LF, NFC. Line ends are folded in the bytes, before decoding: CR and LF are
 * single bytes that no multi-byte sequence holds, so the decoder accepts or refuses the same
 * files, and a file of millions of line ends makes no string pieces to collect.
 */
export function normaliseBytes(bytes: Uint8Array, path?: string): Result<NormalisedText, CheckFault> {
  const cr = bytes.indexOf(CR);
  const folded = cr === -1 ? bytes : foldLineEnds(bytes, cr);
  const text = decodeStrict(folded);
  if (text === undefined) return notUtf8(path);
  // Decoded UTF-8 is as long as its bytes exactly when every byte is ASCII, which is NFC.
  const done = text.length === folded.length ? text : nfc(text);
  return ok({ text: done, utf8: done === text ? (hasBom(folded) ? folded.subarray(3) : folded) : undefined });
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
  return hash(normal.utf8 ?? UTF8.encode(normal.text));
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
