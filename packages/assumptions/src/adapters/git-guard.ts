// The object-store guard: every file isomorphic-git reads from a repository passes through here
// first. A file that is not regular (a FIFO, a device) is refused before it is read; a pack index
// is checked against its own size before anything trusts its counts; a loose object's header is
// read (inflating only its first bytes) and its size checked before it is inflated whole, and a
// stream that would inflate past its declared size is stopped there.
import type { GitFs } from "./git-repo.js";
import { inflateBounded, MAX_DEFLATE_RATIO } from "./git-inflate.js";
import { inflatePeek } from "./git-peek.js";

/** The bounds the guard holds a repository to. */
export interface GitLimits {
  /** The largest object (blob, tree, commit) read, by its declared size. */
  readonly maxObjectBytes: number;
  /** The largest file read from the repository (a pack, an index, a ref). */
  readonly maxFileBytes: number;
}

/** The error the guard throws through isomorphic-git; the adapter turns it into a named fault. */
export interface GitRefusal extends Error {
  readonly code: "GitStoreRefused";
  /** The sentence, naming the file (and the object id where there is one). */
  readonly detail: string;
}

/** A refusal naming what was refused and why. */
export function refusal(detail: string): GitRefusal {
  return Object.assign(new Error(detail), { code: "GitStoreRefused" as const, detail });
}

/** True for an error the guard threw. */
export function isRefusal(e: unknown): e is GitRefusal {
  return (e as { code?: unknown } | null)?.code === "GitStoreRefused";
}

interface StatLike {
  isFile(): boolean;
  isDirectory(): boolean;
  readonly size: number | bigint;
}

const IDX_HEADER = 8 + 256 * 4;
const SHA_BYTES = 20;

function u32(b: Uint8Array, at: number): number {
  return (((b[at] ?? 0) << 24) >>> 0) + ((b[at + 1] ?? 0) << 16) + ((b[at + 2] ?? 0) << 8) + (b[at + 3] ?? 0);
}

/**
 * Checks a version-2 pack index against its real size before its counts are trusted: the magic,
 * a fan-out table that never decreases, a length that is exactly what its object count (and
 * its large-offset entries) need, and every large offset inside the 64-bit table. Answers the problem in words, or `undefined` when it is sound.
 */
export function packIndexProblem(idx: Uint8Array): string | undefined {
  if (idx.length < IDX_HEADER + 2 * SHA_BYTES) return `it is ${idx.length} bytes, shorter than any pack index`;
  if (u32(idx, 0) !== 0xff744f63 || u32(idx, 4) !== 2) return "it is not a version 2 pack index";
  let previous = 0;
  for (let i = 0; i < 256; i++) {
    const count = u32(idx, 8 + i * 4);
    if (count < previous) return `its fan-out table decreases at entry ${i}`;
    previous = count;
  }
  const n = previous;
  const base = IDX_HEADER + n * (SHA_BYTES + 8) + 2 * SHA_BYTES;
  if (base > idx.length) return `its fan-out table declares ${n} objects, which need at least ${base} bytes; the file has ${idx.length}`;
  const offsets = IDX_HEADER + n * (SHA_BYTES + 4);
  let large = 0;
  for (let i = 0; i < n; i++) if (((idx[offsets + i * 4] ?? 0) & 0x80) !== 0) large++;
  const expected = base + large * 8;
  if (expected !== idx.length) return `it declares ${n} objects and should be ${expected} bytes; the file has ${idx.length}`;
  for (let i = 0; i < n; i++) {
    const at = u32(idx, offsets + i * 4) - 0x80000000;
    if (at >= large) return `entry ${i} points at 64-bit offset ${at} of ${large}`;
  }
  return undefined;
}

const LOOSE = /(?:^|\/)objects\/([0-9a-f]{2})\/([0-9a-f]{38})$/;
const HEADER = /^(blob|tree|commit|tag) (0|[1-9][0-9]{0,15})$/;
const MAX_HEADER = 32;
/** Inflated bytes enough to hold any loose object's header and its NUL. */
export const LOOSE_HEADER_BYTES = MAX_HEADER + 1;

/** A loose object's `TYPE SIZE\0` header, from its first inflated bytes (`length` counts the NUL); `undefined` when there is none. */
export function looseHeader(bytes: Uint8Array): { type: "blob" | "tree" | "commit" | "tag"; size: number; length: number } | undefined {
  const nul = bytes.indexOf(0);
  if (nul === -1 || nul > MAX_HEADER) return undefined;
  const m = HEADER.exec(new TextDecoder().decode(bytes.subarray(0, nul)));
  return m?.[1] === undefined || m[2] === undefined ? undefined : { type: m[1] as "blob" | "tree" | "commit" | "tag", size: Number(m[2]), length: nul + 1 };
}

/**
 * Checks a loose object before isomorphic-git inflates it: the header (from its first inflated
 * bytes) must be `TYPE SIZE\0` with SIZE within the limit; when the compressed bytes could expand
 * past the limit, the whole object is inflated here, bounded, and must be exactly SIZE bytes.
 */
async function looseProblem(compressed: Uint8Array, limit: number): Promise<string | undefined> {
  const peek = inflatePeek(compressed, LOOSE_HEADER_BYTES);
  if (peek.kind === "corrupt") return `it is not a valid zlib stream (${peek.reason})`;
  const head = looseHeader(peek.bytes);
  if (head === undefined) return "its header is not TYPE SIZE";
  if (head.size > limit) return `its header declares a ${head.type} of ${head.size} bytes, over the limit of ${limit}`;
  if (compressed.length * MAX_DEFLATE_RATIO <= limit) return undefined;
  const whole = await inflateBounded(compressed, head.length + head.size);
  if (whole.kind === "corrupt") return `it is not a valid zlib stream (${whole.reason})`;
  if (whole.kind === "past") return `it inflates past the ${head.size} bytes its header declares`;
  return whole.bytes.length === head.length + head.size ? undefined : `it is truncated: ${whole.bytes.length - head.length} of ${head.size} bytes`;
}

async function vetted(path: string, bytes: Uint8Array, limits: GitLimits): Promise<Uint8Array> {
  if (path.endsWith(".idx") && path.includes("objects/pack/")) {
    const problem = packIndexProblem(bytes);
    if (problem !== undefined) throw refusal(`the pack index ${path} is corrupt: ${problem}`);
  }
  const loose = LOOSE.exec(path);
  if (loose !== null) {
    const problem = await looseProblem(bytes, limits.maxObjectBytes);
    if (problem !== undefined) throw refusal(`the git object ${loose[1]}${loose[2]} (${path}) is refused: ${problem}`);
  }
  return bytes;
}

/** Refuses, before it is opened, a file that is not regular or is larger than `maxFileBytes`. */
function checkFile(path: string, s: StatLike, limits: GitLimits): void {
  if (!s.isFile() && !s.isDirectory()) throw refusal(`${path} in the object store is not a regular file (a FIFO, socket or device)`);
  if (!s.isDirectory() && Number(s.size) > limits.maxFileBytes) {
    throw refusal(`${path} in the object store is larger than the limit of ${limits.maxFileBytes} bytes`);
  }
}

/** The synchronous calls of node:fs and memfs that `objectFiles` prefers where the fs has them. */
interface SyncFs {
  statSync(path: string): StatLike;
  readFileSync(path: string): Uint8Array;
  readdirSync(path: string): string[];
}

/** The file calls the object store makes: readFile guarded as below, readdir of its directories. */
export interface ObjectFiles {
  readFile(path: string): Promise<Uint8Array | string>;
  readdir(path: string): Promise<string[]>;
}

/**
 * The object store's file calls with the same guard as `guardedFs`, made synchronously where the
 * fs has synchronous calls (as the fs adapters do): an object is a small file, and a thread-pool
 * round trip per call costs more than reading it.
 */
export function objectFiles(fs: GitFs, limits: GitLimits): ObjectFiles {
  const sync = fs as unknown as Partial<SyncFs>;
  const promises = guardedFs(fs, limits).promises as unknown as ObjectFiles;
  if (typeof sync.statSync !== "function" || typeof sync.readFileSync !== "function" || typeof sync.readdirSync !== "function") return promises;
  const { statSync, readFileSync, readdirSync } = sync as SyncFs;
  return {
    readFile: async (path) => {
      checkFile(path, statSync.call(fs, path), limits);
      return vetted(path, readFileSync.call(fs, path), limits);
    },
    readdir: async (path) => readdirSync.call(fs, path),
  };
}

/**
 * `fs` with its `readFile` guarded (everything else as it was): anything but a regular file is
 * refused before it is opened, a file over `maxFileBytes` is refused by its size, and pack
 * indexes and loose objects are checked as above. Every refusal is a `GitRefusal` naming the file.
 */
export function guardedFs(fs: GitFs, limits: GitLimits): GitFs {
  const promises = fs.promises as unknown as { stat(path: string): Promise<StatLike>; readFile(path: string, o?: unknown): Promise<Uint8Array | string> };
  const readFile = async (path: string, options?: unknown): Promise<Uint8Array | string> => {
    // isomorphic-git probes every fs it wraps (once per call) with an argument-less readFile.
    if (typeof path !== "string") throw new TypeError("readFile needs a path");
    checkFile(path, await promises.stat(path), limits);
    const raw = await promises.readFile(path, options);
    return typeof raw === "string" ? raw : vetted(path, raw, limits);
  };
  // A proxy, so methods an fs keeps on its prototype (memfs) stay reachable, bound to it.
  const guarded = new Proxy(promises, {
    get(target, key) {
      if (key === "readFile") return readFile;
      const value: unknown = Reflect.get(target, key);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { promises: guarded } as unknown as GitFs;
}
