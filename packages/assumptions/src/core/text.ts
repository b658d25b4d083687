import { sha256Hex } from "@decay/portable";
import { err, ok, type Result } from "neverthrow";
import type { CheckFault } from "./faults.js";
import { isAscii, nfc } from "./unicode/fold.js";

const CR = 13;

// Plain ASCII is valid UTF-8 and holds no BOM: the lenient decoder reads it exactly.
const lenient = new TextDecoder("utf-8");
// Refuses what is not UTF-8 (stray or overlong bytes, surrogates); drops one leading BOM.
const strict = new TextDecoder("utf-8", { fatal: true });

const NON_ASCII = 1;
const HAS_CR = 2;

// Whether a 32-bit word holds a CR byte (the classic "has a zero byte" test on word ^ CRs).
function crIn(word: number): boolean {
  const x = word ^ 0x0d0d0d0d;
  return ((x - 0x01010101) & ~x & 0x80808080) !== 0;
}

/**
 * One pass over the bytes, four at a time where they are aligned: NON_ASCII as soon as a byte is
 * 0x80 or above (the scan stops there), else HAS_CR when one is a CR.
 */
function scan(bytes: Uint8Array): number {
  const length = bytes.length;
  const head = Math.min(length, (4 - (bytes.byteOffset & 3)) & 3);
  const words = (length - head) >> 2;
  let cr = false;
  for (let i = 0; i < head; i += 1) {
    if ((bytes[i] as number) > 0x7f) return NON_ASCII;
    cr ||= bytes[i] === CR;
  }
  const view = words === 0 ? undefined : new Uint32Array(bytes.buffer, bytes.byteOffset + head, words);
  for (let w = 0; view && w < words; w += 16) {
    let high = 0;
    const end = Math.min(words, w + 16);
    for (let k = w; k < end; k += 1) {
      const word = view[k] as number;
      high |= word;
      cr ||= crIn(word);
    }
    if ((high & 0x80808080) !== 0) return NON_ASCII;
  }
  for (let i = head + words * 4; i < length; i += 1) {
    if ((bytes[i] as number) > 0x7f) return NON_ASCII;
    cr ||= bytes[i] === CR;
  }
  return cr ? HAS_CR : 0;
}

/** Whether every byte is below 0x80. */
export function bytesAreAscii(bytes: Uint8Array): boolean {
  return (scan(bytes) & NON_ASCII) === 0;
}

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

/**
 * A file's bytes as normalised text: strict UTF-8 (else a fault), one BOM stripped, CRLF and
 * lone CR folded to LF, NFC.
 */
export function decodeText(bytes: Uint8Array, path?: string): Result<string, CheckFault> {
  const text = decodeStrict(bytes);
  return text === undefined ? notUtf8(path) : ok(normalised(text, text.length === bytes.length));
}

// Decoded text with its line ends folded, and in NFC (which ASCII is already).
function normalised(text: string, ascii: boolean): string {
  const folded = text.indexOf("\r") === -1 ? text : text.replace(/\r\n?/g, "\n");
  return ascii ? folded : nfc(folded);
}

/**
 * Whether an ASCII literal occurs in a file's normalised text, answered without normalising when
 * the bytes are plain ASCII (no BOM, and NFC already): a literal holds no CR or LF, so folding
 * line ends neither makes nor breaks an occurrence. `undefined` when the text must be decoded first.
 */
export function asciiIncludes(bytes: Uint8Array, literal: string): boolean | undefined {
  if (!isAscii(literal) || !bytesAreAscii(bytes)) return undefined;
  return lenient.decode(bytes).includes(literal);
}

/**
 * SHA-256 (lowercase hex) of a file's normalised text (see `decodeText`), encoded as UTF-8.
 * Plain ASCII without CR is already normalised, so its raw bytes are hashed directly.
 */
export function digestText(bytes: Uint8Array, path?: string, hash: (bytes: Uint8Array) => string = sha256Hex): Result<string, CheckFault> {
  const facts = scan(bytes);
  if (facts === 0) return ok(hash(bytes));
  const text = decodeStrict(bytes);
  if (text === undefined) return notUtf8(path);
  const done = normalised(text, facts === HAS_CR);
  // UTF-8 the strict decoder takes encodes back to the same bytes (less the BOM it drops), so
  // text that normalising left alone is hashed from the bytes.
  return ok(hash(done === text ? (hasBom(bytes) ? bytes.subarray(3) : bytes) : UTF8.encode(done)));
}

function notUtf8(path: string | undefined): Result<never, CheckFault> {
  return err(path === undefined ? { code: "file-not-utf8" } : { code: "file-not-utf8", path });
}

function hasBom(bytes: Uint8Array): boolean {
  return bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
}

const UTF8 = new TextEncoder();
