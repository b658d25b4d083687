import { inflateSync } from "node:zlib";
import type { Inflate } from "../adapters/git-natives.js";

// What `inflateSync` gives with `info: true`; @types/node types only the buffer.
interface WithInfo {
  readonly buffer: Uint8Array;
  readonly engine: { readonly bytesWritten: number };
}

/**
 * node:zlib's inflater, as `gitTree`'s `inflate` option: the stream's output (at most `max` bytes)
 * and the input bytes after its end (node:zlib stops there; `bytesWritten` counts what it took), or
 * `undefined` for anything it refuses, so the portable inflater words the refusal.
 */
export const nodeInflate: Inflate = (compressed, max) => {
  try {
    const got = inflateSync(compressed, { info: true, maxOutputLength: Math.max(1, max) }) as unknown as WithInfo;
    const out = got.buffer;
    if (out.length > max) return undefined;
    // A plain Uint8Array over the Buffer's bytes: the port hands out Uint8Arrays, never Buffers.
    return { bytes: new Uint8Array(out.buffer, out.byteOffset, out.length), trailing: compressed.length - got.engine.bytesWritten };
  } catch {
    return undefined;
  }
};
