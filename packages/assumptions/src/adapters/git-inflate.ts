// Bounded zlib inflation for the object-store guard: never more output than asked for. Uses the
// web-standard DecompressionStream (Node 18+, browsers), so the adapter stays runtime-neutral.
import { concatBytes } from "@decay/portable";

/** The most a zlib (deflate) stream can expand: about 1032 output bytes per input byte. */
export const MAX_DEFLATE_RATIO = 1032;

/** What a bounded inflation found. */
export type Inflated =
  | { readonly kind: "ok"; readonly bytes: Uint8Array; readonly complete: boolean }
  | { readonly kind: "past" }
  | { readonly kind: "corrupt"; readonly reason: string };

/**
 * Inflates `compressed` (a zlib stream) until the stream ends, or until `stop(bytesSoFar)` says
 * enough has been seen (`complete: false`), or until more than `max` bytes came out (`past`, and
 * inflation stops there). A stream that is not zlib is `corrupt`.
 */
export async function inflateBounded(compressed: Uint8Array, max: number, stop?: (soFar: Uint8Array) => boolean): Promise<Inflated> {
  const ds = new DecompressionStream("deflate");
  const writer = ds.writable.getWriter();
  writer.write(compressed).catch(() => undefined);
  writer.close().catch(() => undefined);
  const reader = ds.readable.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { kind: "ok", bytes: concatBytes(chunks, total), complete: true };
      chunks.push(value);
      total += value.length;
      // The stop test comes first: one chunk (a few KiB) past `max` is never a reason to refuse a peek.
      const soFar = stop === undefined ? undefined : concatBytes(chunks, total);
      if (soFar !== undefined && stop?.(soFar) === true) {
        await reader.cancel().catch(() => undefined);
        return { kind: "ok", bytes: soFar, complete: false };
      }
      if (total > max) {
        await reader.cancel().catch(() => undefined);
        return { kind: "past" };
      }
    }
  } catch (e) {
    return { kind: "corrupt", reason: e instanceof Error && e.message !== "" ? e.message : "not a valid zlib stream" };
  }
}
