// Strict UTF-8: the one decoder the packages share, and where bytes stop being UTF-8 (found in one
// pass) for every decoder that must name the offending bytes of a file it refuses.
import { err, ok, type Result } from "neverthrow";

/** The first sequence that is not UTF-8: `start`, its first byte; `end`, the byte that shows it. */
export interface InvalidUtf8 {
  readonly start: number;
  readonly end: number;
}

/**
 * Where bytes stop being UTF-8, as a strict decoder sees them: `start`, the first byte of the
 * sequence that cannot be completed, and `end`, the byte that shows it (one no sequence may hold
 * there, or the end of the bytes); `undefined` when all of them are UTF-8. Overlong forms,
 * surrogates and code points past U+10FFFF are refused, as by a fatal `TextDecoder`.
 */
export function firstInvalidUtf8(bytes: Uint8Array): InvalidUtf8 | undefined {
  for (let i = 0; i < bytes.length; ) {
    const lead = bytes[i] as number;
    if (lead < 0x80) {
      i += 1;
      continue;
    }
    let need = 0;
    let lower = 0x80;
    let upper = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) need = 1;
    else if (lead >= 0xe0 && lead <= 0xef) {
      need = 2;
      if (lead === 0xe0) lower = 0xa0;
      if (lead === 0xed) upper = 0x9f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      need = 3;
      if (lead === 0xf0) lower = 0x90;
      if (lead === 0xf4) upper = 0x8f;
    } else return { start: i, end: i };
    for (let k = 1; k <= need; k += 1) {
      const next = bytes[i + k];
      if (next === undefined) return { start: i, end: bytes.length };
      if (next < lower || next > upper) return { start: i, end: i + k };
      lower = 0x80;
      upper = 0xbf;
    }
    i += need + 1;
  }
  return undefined;
}

const DROP_BOM = new TextDecoder("utf-8", { fatal: true });
const KEEP_BOM = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * Bytes as text under strict UTF-8 (a fatal `TextDecoder`), never a U+FFFD in place of a bad
 * byte: else `err` with the first sequence that is not UTF-8 (`firstInvalidUtf8`: a second pass
 * up to it, on failure only). One leading byte order mark is dropped, as a default `TextDecoder`
 * drops it; `bom: "keep"` keeps it as U+FEFF, for a format that refuses one.
 */
export function decodeStrictUtf8(bytes: Uint8Array, opts?: { readonly bom?: "drop" | "keep" }): Result<string, InvalidUtf8> {
  try {
    return ok((opts?.bom === "keep" ? KEEP_BOM : DROP_BOM).decode(bytes));
  } catch {
    return err(firstInvalidUtf8(bytes) ?? { start: bytes.length, end: bytes.length });
  }
}
