// The repository-file guard: every file gitTree reads from a repository (refs, config, pack
// indexes, packs, loose objects; isomorphic-git's reads too) passes through here. `.git` can be
// written by agents, so what a path names may change between two calls: the path is opened once,
// without waiting (a FIFO opens at once instead of blocking for a writer), and only the open file
// is checked (fstat: a regular file within `maxFileBytes`) and read, at most one byte past the
// bound. Final links are followed, as git follows them inside `.git`. A pack index is checked
// against its own size before anything trusts its counts. Loose objects are checked by the store
// (git-store.ts), packed ones by the pack guard (git-pack-guard.ts).
import { thrownCode, type OpenFile, readOpenFile, readUpTo } from "@decay/portable";
import type { GitFs } from "./git-repo.js";

/** The bounds the guard holds a repository to. */
export interface GitLimits {
  /** The largest object (blob, tree, commit) read, by its declared size. */
  readonly maxObjectBytes: number;
  /** The largest file read whole from the repository (an index, a ref, a loose object; a pack read whole). */
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
  return thrownCode(e) === "GitStoreRefused";
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

function vetted(path: string, bytes: Uint8Array): Uint8Array {
  if (path.endsWith(".idx") && path.includes("objects/pack/")) {
    const problem = packIndexProblem(bytes);
    if (problem !== undefined) throw refusal(`the pack index ${path} is corrupt: ${problem}`);
  }
  return bytes;
}

const notRegular = (path: string) => refusal(`${path} in the object store is not a regular file (a FIFO, socket or device)`);
const tooLarge = (path: string, limits: GitLimits) => refusal(`${path} in the object store is larger than the limit of ${limits.maxFileBytes} bytes`);

/** An error as node:fs words a read of a directory, so that callers that pass over one (isomorphic-git's ref lookup) still do. */
function isDirectory(path: string): Error {
  return Object.assign(new Error(`EISDIR: illegal operation on a directory, read '${path}'`), { code: "EISDIR", path });
}

/** The size of a file by its stat, refusing anything but a regular file (a directory is EISDIR) and a file over `maxFileBytes`. */
function checkedSize(path: string, s: StatLike, limits: GitLimits): number {
  const size = regularSize(path, s);
  if (size > limits.maxFileBytes) throw tooLarge(path, limits);
  return size;
}

/** The bytes read from an opened file, refused when there are more than `maxFileBytes` (it grew since fstat), then vetted. */
function within(path: string, bytes: Uint8Array, limits: GitLimits): Uint8Array {
  if (bytes.length > limits.maxFileBytes) throw tooLarge(path, limits);
  return vetted(path, bytes);
}

/** The open's error, or a refusal when it says what is there is no regular file (a socket cannot be opened: ENXIO). */
function openFailed(path: string, e: unknown): unknown {
  return thrownCode(e) === "ENXIO" ? notRegular(path) : e;
}

interface OpenFlags {
  readonly O_RDONLY: number;
  readonly O_NONBLOCK?: number;
}

/** The flags every repository file is opened with: read-only, never waiting (where the platform has O_NONBLOCK). */
function readFlags(constants: OpenFlags): number {
  return constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);
}

/** The synchronous calls of node:fs and memfs that `objectFiles` prefers where the fs has them all. */
interface SyncFs {
  readonly constants: OpenFlags;
  openSync(path: string, flags: number): number;
  fstatSync(fd: number): StatLike;
  readSync(fd: number, buffer: Uint8Array, offset: number, length: number, position: number): number;
  closeSync(fd: number): void;
  readdirSync(path: string): string[];
}

/** `use` of one repository file opened by synchronous calls (never waiting), closed whatever happens. */
function opened<T>(fs: SyncFs, path: string, use: (fd: number) => T): T {
  let fd: number;
  try {
    fd = fs.openSync(path, readFlags(fs.constants));
  } catch (e) {
    throw openFailed(path, e);
  }
  let out: T;
  try {
    out = use(fd);
  } catch (e) {
    // Closed whatever the read did; the read's failure is the answer.
    try {
      fs.closeSync(fd);
    } catch {}
    throw e;
  }
  fs.closeSync(fd);
  return out;
}

/** One repository file by synchronous calls: one open, one fstat, a bounded read, one close whatever happens. */
function readSync(fs: SyncFs, path: string, limits: GitLimits): Uint8Array {
  const bytes = opened(fs, path, (fd) => {
    const size = checkedSize(path, fs.fstatSync(fd), limits);
    return readUpTo((buffer, offset, length, position) => fs.readSync(fd, buffer, offset, length, position), size, limits.maxFileBytes + 1);
  });
  return within(path, bytes, limits);
}

/** The size of a regular file (a directory is EISDIR, anything else refused), by the fstat of what was opened. */
function regularSize(path: string, s: StatLike): number {
  if (s.isDirectory()) throw isDirectory(path);
  if (!s.isFile()) throw notRegular(path);
  return Number(s.size);
}

/** Exactly `length` bytes of a regular file from `position`; a file that ends before them is refused. */
function readRangeSync(fs: SyncFs, path: string, position: number, length: number): Uint8Array {
  return opened(fs, path, (fd) => {
    regularSize(path, fs.fstatSync(fd));
    const out = new Uint8Array(length);
    let got = 0;
    while (got < length) {
      const n = fs.readSync(fd, out, got, length - got, position + got);
      if (n === 0)
        throw refusal(`${path} in the object store ends at byte ${position + got}, inside bytes ${position} to ${position + length} its index names`);
      got += n;
    }
    return out;
  });
}

/** The promise calls the guard makes: `open` where the fs has it (and its flags), else `stat` and `readFile`. */
interface PromiseFs {
  readonly constants?: OpenFlags;
  open?(path: string, flags: number): Promise<OpenFile<StatLike>>;
  stat(path: string): Promise<StatLike>;
  readFile(path: string, options?: unknown): Promise<Uint8Array | string>;
}

/** One repository file by a FileHandle: one open, one stat of the handle, a bounded read, one close whatever happens. */
async function readHandle(open: (path: string) => Promise<OpenFile<StatLike>>, path: string, limits: GitLimits): Promise<Uint8Array> {
  let handle: OpenFile<StatLike>;
  try {
    handle = await open(path);
  } catch (e) {
    throw openFailed(path, e);
  }
  return within(path, await readOpenFile(handle, (s) => checkedSize(path, s, limits), limits.maxFileBytes + 1), limits);
}

/**
 * One repository file through an fs's promises: by `readHandle` where the fs can open a file
 * without waiting (node:fs, memfs); an fs without `open` or its flags (LightningFS, which has no
 * FIFOs) is read by stat, then readFile, and what came back is held to the bound again.
 */
function promiseReader(fs: GitFs, limits: GitLimits): (path: string) => Promise<Uint8Array> {
  const promises = fs.promises as unknown as PromiseFs;
  const constants = (fs as { constants?: OpenFlags }).constants ?? promises.constants;
  if (typeof promises.open === "function" && constants !== undefined) {
    const flags = readFlags(constants);
    const open = promises.open.bind(promises);
    return (path) => readHandle((p) => open(p, flags), path, limits);
  }
  return async (path) => {
    checkedSize(path, await promises.stat(path), limits);
    const raw = await promises.readFile(path);
    return within(path, typeof raw === "string" ? new TextEncoder().encode(raw) : raw, limits);
  };
}

/** The file calls the object store makes: readFile guarded as below, readdir of its directories. */
export interface ObjectFiles {
  readFile(path: string): Promise<Uint8Array | string>;
  readdir(path: string): Promise<string[]>;
  /**
   * Where the fs has synchronous calls: a regular file's size, and bytes of it from a position
   * (a large pack is read an entry at a time). Absent otherwise: a pack is read whole.
   */
  readonly ranges?: RangeReads;
}

/** Parts of a repository file, each opened, checked a regular file and read on its own. */
export interface RangeReads {
  size(path: string): Promise<number>;
  read(path: string, position: number, length: number): Promise<Uint8Array>;
}

/**
 * The object store's file calls with the same guard as `guardedFs`, made synchronously where the
 * fs has synchronous calls (as the fs adapters do): an object is a small file, and a thread-pool
 * round trip per call costs more than reading it.
 */
export function objectFiles(fs: GitFs, limits: GitLimits): ObjectFiles {
  const sync = fs as unknown as Partial<SyncFs>;
  const calls = ["openSync", "fstatSync", "readSync", "closeSync", "readdirSync"] as const;
  if (sync.constants === undefined || calls.some((c) => typeof sync[c] !== "function")) return guardedFs(fs, limits).promises as unknown as ObjectFiles;
  const whole = sync as SyncFs;
  return {
    readFile: async (path) => readSync(whole, path, limits),
    readdir: async (path) => whole.readdirSync(path),
    ranges: {
      size: async (path) => opened(whole, path, (fd) => regularSize(path, whole.fstatSync(fd))),
      read: async (path, position, length) => readRangeSync(whole, path, position, length),
    },
  };
}

/** The text of a read in the encoding asked for (isomorphic-git asks for utf8 alone), or its bytes when none was. */
function encoded(path: string, bytes: Uint8Array, options: unknown): Uint8Array | string {
  const encoding = typeof options === "string" ? options : (options as { encoding?: unknown } | null | undefined)?.encoding;
  if (encoding === undefined || encoding === null || encoding === "buffer") return bytes;
  if (typeof encoding === "string" && /^utf-?8$/i.test(encoding)) return new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
  throw new TypeError(`reading ${path}: the encoding ${String(encoding)} is not one the guard decodes (utf8)`);
}

/**
 * `fs` with its `readFile` guarded (everything else as it was): the path is opened once without
 * waiting, and only the open file is checked and read: anything but a regular file is refused
 * unread, a file over `maxFileBytes` is refused by its size (or by what a read found, if it grew),
 * and pack indexes are checked as above. Every refusal is a `GitRefusal` naming the file.
 */
export function guardedFs(fs: GitFs, limits: GitLimits): GitFs {
  const promises = fs.promises as unknown as PromiseFs;
  const read = promiseReader(fs, limits);
  const readFile = async (path: string, options?: unknown): Promise<Uint8Array | string> => {
    // isomorphic-git probes every fs it wraps (once per call) with an argument-less readFile.
    if (typeof path !== "string") throw new TypeError("readFile needs a path");
    return encoded(path, await read(path), options);
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
