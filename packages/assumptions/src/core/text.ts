import { sha256Hex } from "@decay/portable";
import { err, ok, type Result } from "neverthrow";
import type { CheckFault } from "./faults.js";
import { isAscii } from "./unicode/fold.js";

const CR = 13;

// Plain ASCII is valid UTF-8 and holds no BOM: the lenient decoder reads it exactly.
const lenient = new TextDecoder("utf-8");
// Refuses what is not UTF-8 (stray or overlong bytes, surrogates); drops one leading BOM.
const strict = new TextDecoder("utf-8", { fatal: true });

/** Whether every byte is below 0x80. */
function bytesAreAscii(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i += 1) if ((bytes[i] as number) > 0x7f) return false;
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
  if (text === undefined) return err(path === undefined ? { code: "file-not-utf8" } : { code: "file-not-utf8", path });
  if (bytes.indexOf(CR) !== -1) text = text.replace(/\r\n?/g, "\n");
  return ok(ascii ? text : text.normalize("NFC"));
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
  if (ascii && bytes.indexOf(CR) === -1) return ok(hash(bytes));
  return normalised(bytes, ascii, path).map((text) => hash(UTF8.encode(text)));
}

const UTF8 = new TextEncoder();
