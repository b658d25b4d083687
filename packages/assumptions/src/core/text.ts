import { Buffer, isAscii as bytesAreAscii, isUtf8 as bytesAreUtf8 } from "node:buffer";
import * as nodeCrypto from "node:crypto";
import { err, ok, type Result } from "neverthrow";
import type { CheckFault } from "./faults.js";
import { isAscii } from "./unicode/fold.js";

const CR = 13;

// A Buffer over the same memory: Buffer's indexOf and latin1 decoding are native and fast.
function view(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

const BOM = 0xfeff;

// Strict UTF-8 decoding, one leading BOM dropped, told whether the bytes are plain ASCII (then
// Buffer's native latin1). Other bytes are validated first (isUtf8 refuses what a fatal
// TextDecoder refuses: stray or overlong bytes, surrogates) and then decoded by Buffer, which is
// faster than a fatal TextDecoder.
function decodeStrict(bytes: Uint8Array, ascii: boolean): string | undefined {
  if (ascii) return view(bytes).toString("latin1");
  if (!bytesAreUtf8(bytes)) return undefined;
  const text = view(bytes).toString("utf8");
  return text.charCodeAt(0) === BOM ? text.slice(1) : text;
}

/**
 * Bytes as a string under strict UTF-8, one leading BOM dropped; `undefined` when they are not
 * UTF-8. Plain ASCII (most files) takes Buffer's native latin1 decoding.
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
  if (view(bytes).indexOf(CR) !== -1) text = text.replace(/\r\n?/g, "\n");
  return ok(ascii ? text : text.normalize("NFC"));
}

/**
 * Whether an ASCII literal occurs in a file's normalised text, answered from the bytes when they
 * are plain ASCII (no BOM, and NFC already): a literal holds no CR or LF, so folding line ends
 * neither makes nor breaks an occurrence. `undefined` when the text must be decoded first.
 */
export function asciiIncludes(bytes: Uint8Array, literal: string): boolean | undefined {
  if (!isAscii(literal) || !bytesAreAscii(bytes)) return undefined;
  return view(bytes).indexOf(literal, 0, "latin1") !== -1;
}

// One-shot `crypto.hash` (Node 20.12+) spares a Hash object per file; older Node 20 falls back.
const oneShot = (nodeCrypto as { hash?: typeof nodeCrypto.hash }).hash;

// SHA-256 of bytes, or of a string's UTF-8 (encoded by Node itself: no JavaScript copy of it).
function sha256(data: Uint8Array | string): string {
  if (oneShot) return oneShot("sha256", data, "hex");
  const hash = nodeCrypto.createHash("sha256");
  return (typeof data === "string" ? hash.update(data, "utf8") : hash.update(data)).digest("hex");
}

/**
 * SHA-256 (lowercase hex) of a file's normalised text (see `decodeText`), encoded as UTF-8.
 * Plain ASCII without CR is already normalised, so its raw bytes are hashed directly.
 */
export function digestText(bytes: Uint8Array, path?: string): Result<string, CheckFault> {
  const ascii = bytesAreAscii(bytes);
  if (ascii && view(bytes).indexOf(CR) === -1) return ok(sha256(bytes));
  return normalised(bytes, ascii, path).map(sha256);
}
