// Strict text decoding of a plan or a contract: UTF-8 or a fault naming the line and byte offset.
import { decodeStrictUtf8, firstInvalidUtf8 } from "@decay/portable";
import { err, ok, type Result } from "neverthrow";
import type { ContractFault } from "./fault.js";

/** Byte `offset`'s line (1-based) and its offset in that line (0-based). */
function lineOf(bytes: Uint8Array, offset: number): { line: number; offset: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let nl = bytes.indexOf(0x0a); nl !== -1 && nl < offset; nl = bytes.indexOf(0x0a, nl + 1)) {
    line++;
    lineStart = nl + 1;
  }
  return { line, offset, column: offset - lineStart };
}

/** Where the first byte that is not UTF-8 sits: its line (1-based), its offset in the file and in that line (0-based). */
export function firstInvalidByte(bytes: Uint8Array): { line: number; offset: number; column: number } | undefined {
  const bad = firstInvalidUtf8(bytes);
  return bad === undefined ? undefined : lineOf(bytes, bad.start);
}

/**
 * A CR alone (not before an LF) is a line break to a Markdown reader and none to this one, which
 * would read its two lines as one: refused, naming its line. One CR at the very end is the last
 * line's ending, like CRLF.
 */
function loneCr(text: string): Result<string, ContractFault> {
  let line = 1;
  let from = 0;
  for (let cr = text.indexOf("\r"); cr !== -1 && cr !== text.length - 1; cr = text.indexOf("\r", cr + 1)) {
    if (text.charCodeAt(cr + 1) === 0x0a) continue;
    for (let nl = text.indexOf("\n", from); nl !== -1 && nl < cr; nl = text.indexOf("\n", nl + 1)) {
      line++;
      from = nl + 1;
    }
    return err({ code: "cr-line-endings", line });
  }
  return ok(text);
}

/**
 * A plan's or a contract's bytes as text: strict UTF-8 (one leading BOM dropped), never a
 * silent U+FFFD; bytes that are not UTF-8 are a `not-utf8` fault naming the line and the byte
 * offset of the first of them. A line ending in CR alone is a `cr-line-endings` fault.
 */
export function decodeUtf8(bytes: Uint8Array): Result<string, ContractFault> {
  // A UTF-16 byte-order mark says what the file is: name the encoding, not a stray byte.
  const [b0, b1] = bytes;
  if ((b0 === 0xff && b1 === 0xfe) || (b0 === 0xfe && b1 === 0xff))
    return err({ code: "encoding", line: 1, encoding: "UTF-16 (it starts with a UTF-16 byte-order mark)" });
  return decodeStrictUtf8(bytes)
    .mapErr((bad): ContractFault => {
      const at = lineOf(bytes, bad.start);
      const hex = (bytes[at.offset] ?? 0).toString(16).toUpperCase().padStart(2, "0");
      return { code: "not-utf8", line: at.line, offset: at.offset, column: at.column, byte: hex };
    })
    .andThen(loneCr);
}
