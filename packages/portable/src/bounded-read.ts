// The bounded read of one open file, written once and driven two ways: by synchronous fs calls
// (the gate's tree reader and gitTree's object store in @decay/assumptions) and by a FileHandle's
// promises (gitTree on an fs without synchronous calls, the executor's workspace reads).

/** One read the loop asks for: up to `length` bytes into `buffer` at `offset`, from the same position of the file. */
interface ReadAsk {
  readonly buffer: Uint8Array;
  readonly offset: number;
  readonly length: number;
}

/**
 * True for a bound a read can hold to: a positive integer, or `Infinity` (no bound). `NaN`, `0`,
 * a fraction or a negative number is none: compared with a size it would let every file through
 * as "within the bound" while the buffer it sized read nothing.
 */
export function isReadLimit(limit: number): boolean {
  return limit === Number.POSITIVE_INFINITY || (Number.isInteger(limit) && limit >= 1);
}

/**
 * The reads that take at most `limit` bytes from an open regular file of fstat size `size`: yields
 * each read it wants, is sent how many bytes that read got, returns the bytes read. The first
 * buffer holds `size + 1` bytes, so a file that grew shows it by filling the buffer. It stops at a
 * read that returns nothing, or once exactly `size` bytes are in and the buffer is not full: the
 * file ended where fstat said it would. Any other short read is not trusted as the end (an unread
 * tail could let `lacks` hold): reading goes on, into a larger buffer if the file grew.
 */
function* reads(size: number, limit: number): Generator<ReadAsk, Uint8Array, number> {
  // A limit that is no bound is a caller's bug: refused before a byte is read (each caller maps a
  // throw to its own fault), never read as an empty file.
  if (typeof limit !== "number" || !isReadLimit(limit)) throw new RangeError(`the read limit ${String(limit)} is not a positive integer`);
  let buffer = new Uint8Array(Math.min(size + 1, limit));
  let filled = 0;
  for (;;) {
    if (filled === buffer.length) {
      if (buffer.length >= limit) break;
      const grown = new Uint8Array(Math.min(buffer.length * 2 + 1, limit));
      grown.set(buffer);
      buffer = grown;
    }
    const got: number = yield { buffer, offset: filled, length: buffer.length - filled };
    if (got === 0) break;
    filled += got;
    if (filled === size && filled < buffer.length) break;
  }
  return buffer.subarray(0, filled);
}

/** A read at a position, as `readSync(fd, …)` makes it: the bytes it got. */
export type ReadAt = (buffer: Uint8Array, offset: number, length: number, position: number) => number;

/** At most `limit` bytes of an open file of fstat size `size`, read by `read` (see `reads`). */
export function readUpTo(read: ReadAt, size: number, limit: number): Uint8Array {
  const steps = reads(size, limit);
  for (let step = steps.next(0); ; ) {
    if (step.done === true) return step.value;
    const { buffer, offset, length } = step.value;
    step = steps.next(read(buffer, offset, length, offset));
  }
}

/** `readUpTo` by a read that answers a promise (a FileHandle's `read`). */
export async function readUpToAsync(read: (...args: Parameters<ReadAt>) => Promise<number>, size: number, limit: number): Promise<Uint8Array> {
  const steps = reads(size, limit);
  for (let step = steps.next(0); ; ) {
    if (step.done === true) return step.value;
    const { buffer, offset, length } = step.value;
    step = steps.next(await read(buffer, offset, length, offset));
  }
}

/** An open file as the promises of node:fs and memfs give it: `S` is what its `stat` answers. */
export interface OpenFile<S> {
  stat(): Promise<S>;
  read(buffer: Uint8Array, offset: number, length: number, position: number): Promise<{ readonly bytesRead: number }>;
  close(): Promise<void>;
}

/**
 * The bytes of an open file: `sizeOf` checks its stat (throwing refuses it unread) and gives its
 * size, then at most `limit` bytes are read (see `reads`). The file is closed whatever happens;
 * a failed check or read is the answer before a failed close.
 */
export async function readOpenFile<S>(file: OpenFile<S>, sizeOf: (stat: S) => number, limit: number): Promise<Uint8Array> {
  let bytes: Uint8Array;
  try {
    const size = sizeOf(await file.stat());
    bytes = await readUpToAsync(async (...at) => (await file.read(...at)).bytesRead, size, limit);
  } catch (e) {
    await file.close().catch(() => undefined);
    throw e;
  }
  await file.close();
  return bytes;
}

/** The chunks read from a stream, `total` bytes in all, as one array: the only chunk itself when there is one. */
export function concatBytes(chunks: readonly Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1 && chunks[0] !== undefined) return chunks[0];
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
