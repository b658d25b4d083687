// Where bytes stop being UTF-8, found in one pass: shared by every decoder that must name the
// offending bytes of a plan or contract it refuses.

/**
 * Where bytes stop being UTF-8, as a strict decoder sees them: `start`, the first byte of the
 * sequence that cannot be completed, and `end`, the byte that shows it (one no sequence may hold
 * there, or the end of the bytes); `undefined` when all of them are UTF-8. Overlong forms,
 * surrogates and code points past U+10FFFF are refused, as by a fatal `TextDecoder`.
 */
export function firstInvalidUtf8(bytes: Uint8Array): { readonly start: number; readonly end: number } | undefined {
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
