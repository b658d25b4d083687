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
 * SHA-256 (lowercase hex) of a file's normalised text (see `decodeText`), encoded as UTF-8.
 * Plain ASCII without CR is already normalised, so its raw bytes are hashed directly.
 */
export function digestText(bytes: Uint8Array, path?: string, hash: (bytes: Uint8Array) => string = sha256Hex): Result<string, CheckFault> {
  const text = decodeStrict(bytes);
  if (text === undefined) return notUtf8(path);
  const done = normalised(text, text.length === bytes.length);
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
