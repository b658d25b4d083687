// The last N bytes of a stream, kept without holding the whole stream in memory.
import { concatBytes } from "@decay/portable";

/** Collects chunks and keeps only the last `cap` bytes; `dropped` says whether anything was cut. */
export interface Tail {
  push(chunk: Uint8Array): void;
  readonly dropped: boolean;
  text(): string;
}

const decoder = new TextDecoder();

/** A tail of at most `cap` bytes; the text starts at a character boundary when bytes were cut. */
export function tail(cap: number): Tail {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let dropped = false;
  return {
    push(chunk) {
      chunks.push(chunk);
      size += chunk.length;
      // Drop whole chunks from the front while what remains still holds `cap` bytes.
      while (chunks.length > 1 && size - (chunks[0]?.length ?? 0) >= cap) {
        size -= chunks.shift()?.length ?? 0;
        dropped = true;
      }
    },
    get dropped() {
      return dropped || size > cap;
    },
    text() {
      const all = concatBytes(chunks, size);
      if (!dropped && all.length <= cap) return decoder.decode(all);
      let start = Math.max(0, all.length - cap);
      // Skip UTF-8 continuation bytes, so the tail never opens with half a character.
      while (start < all.length && ((all[start] ?? 0) & 0xc0) === 0x80) start += 1;
      return decoder.decode(all.subarray(start));
    },
  };
}
