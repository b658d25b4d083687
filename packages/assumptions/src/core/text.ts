import { sha256Hex } from "@decay/portable";
import { err, ok, type Result } from "neverthrow";
import type { CheckFault } from "./faults.js";
import { isAscii, nfc } from "./unicode/fold.js";

const CR = 13;

// Plain ASCII is valid UTF-8 and holds no BOM: the lenient decoder reads it exactly.
const lenient = new TextDecoder("utf-8");
// Refuses what is not UTF-8 (stray or overlong bytes, surrogates); drops one leading BOM.
const strict = new TextDecoder("utf-8", { fatal: true });

/** Whether every byte is below 0x80: looked at four bytes a time where they are aligned. */
export function bytesAreAscii(bytes: Uint8Array): boolean {
  const length = bytes.length;
  const head = Math.min(length, (4 - (bytes.byteOffset & 3)) & 3);
  for (let i = 0; i < head; i += 1) if ((bytes[i] as number) > 0x7f) return false;
  const words = (length - head) >> 2;
  const view = words === 0 ? undefined : new Uint32Array(bytes.buffer, bytes.byteOffset + head, words);
  for (let w = 0; view && w < words; w += 16) {
    let any = 0;
    const end = Math.min(words, w + 16);
    for (let k = w; k < end; k += 1) any |= view[k] as number;
    if ((any & 0x80808080) !== 0) return false;
  }
  for (let i = head + words * 4; i < length; i += 1) if ((bytes[i] as number) > 0x7f) return false;
  return true;
}

// Strict UTF-8 decoding, one leading BOM dropped, told whether the bytes are plain ASCII.
function decodeStrict(bytes: Uint8Array, ascii: boolean): string | undefined {
  if (ascii) return lenient.decode(bytes);
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
  return decodeStrict(bytes, bytesAreAscii(bytes));
}

/**
 * A file's bytes as normalised text: strict UTF-8 (else a fault), one BOM stripped, CRLF and
 * lone CR folded to LF, NFC.
 */
export function decodeText(bytes: Uint8Array, path?: string): Result<string, CheckFault> {
  return normalised(bytes, bytesAreAscii(bytes), path);
}

// `decodeText` once the bytes are known to be plain ASCII or not.
function normalised(bytes: Uint8Array, ascii: boolean, path: string | undefined): Result<string, CheckFault> {
  let text = decodeStrict(bytes, ascii);
  if (text === undefined) return notUtf8(path);
  if (bytes.indexOf(CR) !== -1) text = text.replace(/\r\n?/g, "\n");
  return ok(ascii ? text : nfc(text));
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
  const ascii = bytesAreAscii(bytes);
  if (bytes.indexOf(CR) !== -1) return normalised(bytes, ascii, path).map((text) => hash(UTF8.encode(text)));
  if (ascii) return ok(hash(bytes));
  // UTF-8 the strict decoder takes encodes back to the same bytes (less the BOM it drops), so
  // text that is NFC already is hashed from the bytes.
  const text = decodeStrict(bytes, false);
  if (text === undefined) return notUtf8(path);
  const composed = nfc(text);
  if (composed !== text) return ok(hash(UTF8.encode(composed)));
  return ok(hash(hasBom(bytes) ? bytes.subarray(3) : bytes));
}

function notUtf8(path: string | undefined): Result<never, CheckFault> {
  return err(path === undefined ? { code: "file-not-utf8" } : { code: "file-not-utf8", path });
}

function hasBom(bytes: Uint8Array): boolean {
  return bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
}

const UTF8 = new TextEncoder();
