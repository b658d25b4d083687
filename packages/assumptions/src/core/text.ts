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

/** A file's normalised text, and whether normalising left its decoded text as it was. */
export interface NormalisedText {
  readonly text: string;
  /** True when the text is the file's bytes (less a BOM) as they are: nothing was folded. */
  readonly asRead: boolean;
}

/**
 * A file's bytes as normalised text: strict UTF-8 (else a fault), one BOM stripped, CRLF and
 * lone CR folded to LF, NFC; and whether that changed anything.
 */
export function normaliseBytes(bytes: Uint8Array, path?: string): Result<NormalisedText, CheckFault> {
  const text = decodeStrict(bytes);
  if (text === undefined) return notUtf8(path);
  const done = normalised(text, text.length === bytes.length);
  return ok({ text: done, asRead: done === text });
}

// Decoded text with its line ends folded (CRLF first, then any CR left alone, as /\r\n?/ would;
// a string pattern, not a regular expression), and in NFC (which ASCII is already).
function normalised(text: string, ascii: boolean): string {
  let folded = text;
  if (text.indexOf("\r") !== -1) {
    folded = text.replaceAll("\r\n", "\n");
    if (folded.indexOf("\r") !== -1) folded = folded.replaceAll("\r", "\n");
  }
  return ascii ? folded : nfc(folded);
}

/**
 * SHA-256 (lowercase hex) of the normalised text `normal` of `bytes`, encoded as UTF-8. UTF-8
 * the strict decoder takes encodes back to the same bytes (less the BOM it drops), so text that
 * normalising left alone is hashed from the bytes.
 */
export function digestNormalised(bytes: Uint8Array, normal: NormalisedText, hash: (bytes: Uint8Array) => string = sha256Hex): string {
  return hash(normal.asRead ? (hasBom(bytes) ? bytes.subarray(3) : bytes) : UTF8.encode(normal.text));
}

/** SHA-256 (lowercase hex) of a file's normalised text (see `normaliseBytes`), encoded as UTF-8. */
export function digestText(bytes: Uint8Array, path?: string, hash: (bytes: Uint8Array) => string = sha256Hex): Result<string, CheckFault> {
  return normaliseBytes(bytes, path).map((normal) => digestNormalised(bytes, normal, hash));
}

function notUtf8(path: string | undefined): Result<never, CheckFault> {
  return err(path === undefined ? { code: "file-not-utf8" } : { code: "file-not-utf8", path });
}

function hasBom(bytes: Uint8Array): boolean {
  return bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
}

const UTF8 = new TextEncoder();
