// Strict text decoding of a plan or a contract: UTF-8 or a fault naming the line and byte offset.
import { decodeStrictUtf8, dropOneBom, firstInvalidUtf8, loneCrLine } from "@decay/portable";
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
 * A plan's or a contract's bytes as text: strict UTF-8 (one leading BOM dropped, a second one a
 * `repeated-bom` fault), never a silent U+FFFD; bytes that are not UTF-8 are a `not-utf8` fault
 * naming the line and the byte offset of the first of them. A line ending in CR alone is a
 * `cr-line-endings` fault: a Markdown reader breaks the line there and this one would not.
 */
export function decodeUtf8(bytes: Uint8Array): Result<string, ContractFault> {
  // A UTF-16 byte-order mark says what the file is: name the encoding, not a stray byte.
  const [b0, b1] = bytes;
  if ((b0 === 0xff && b1 === 0xfe) || (b0 === 0xfe && b1 === 0xff))
    return err({ code: "encoding", line: 1, encoding: "UTF-16 (it starts with a UTF-16 byte-order mark)" });
  // The BOM is kept by the decoder and dropped once here: the readers given the text drop none.
  return decodeStrictUtf8(bytes, { bom: "keep" })
    .mapErr((bad): ContractFault => {
      const at = lineOf(bytes, bad.start);
      const hex = (bytes[at.offset] ?? 0).toString(16).toUpperCase().padStart(2, "0");
      return { code: "not-utf8", line: at.line, offset: at.offset, column: at.column, byte: hex };
    })
    .andThen(withoutBom)
    .andThen((text): Result<string, ContractFault> => {
      // One CR at the very end is the last line's ending, like CRLF.
      const line = loneCrLine(text.endsWith("\r") ? text.slice(0, -1) : text);
      return line === null ? ok(text) : err({ code: "cr-line-endings", line });
    });
}

/** A plan's or a contract's text with its one leading BOM dropped; a second is a `repeated-bom` fault (line 1). */
export function withoutBom(text: string): Result<string, ContractFault> {
  return dropOneBom(text).mapErr((): ContractFault => ({ code: "repeated-bom", line: 1 }));
}
