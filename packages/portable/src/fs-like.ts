// The one node:fs-shaped type of the decay packages. node:fs itself and a memfs `fs`
// (`memfs().fs`, `createFsFromVolume(vol)`) both fit it whole; each adapter takes the `Pick` of
// the calls it makes, so a hand-written fs needs only those.

type Done = (e: unknown) => void;
type Got<T> = (e: unknown, value?: T) => void;

/** What `lstat`/`fstat` hand back, as node:fs and memfs both shape it. */
export interface FsStats {
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
  readonly size: number | bigint;
  readonly mode: number | bigint;
  readonly uid: number | bigint;
}

/** One entry of `readdir(path, { withFileTypes: true })`, its name as text or as bytes. */
export interface FsDirent {
  readonly name: Uint8Array | string;
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
}

/** The synchronous calls (the tree adapters: small reads cost less than a thread-pool round trip). */
export interface FsLikeSync {
  readonly constants: { readonly O_RDONLY: number; readonly O_NONBLOCK: number; readonly O_NOFOLLOW: number };
  /**
   * Names decoded as UTF-8 (the common case), or as bytes when a name must be decoded strictly.
   * memfs types its answer loosely (names or dirents); a non-dirent answer is refused at run time.
   */
  readdirSync(path: string, options: { withFileTypes: true }): readonly (FsDirent | string | Uint8Array)[];
  readdirSync(path: string, options: { encoding: "buffer"; withFileTypes: true }): readonly (FsDirent | string | Uint8Array)[];
  lstatSync(path: string): Omit<FsStats, "mode" | "uid">;
  openSync(path: string, flags: number): number;
  fstatSync(fd: number): Omit<FsStats, "mode" | "uid">;
  readSync(fd: number, buffer: Uint8Array, offset: number, length: number, position: number): number;
  closeSync(fd: number): void;
  readlinkSync(path: string, options: { encoding: "buffer" }): Uint8Array | string;
}

/** The callback calls (the store adapters: every write is awaited). */
export interface FsLikeCallback {
  mkdir(path: string, options: { mode: number }, cb: Done): void;
  lstat(path: string, cb: Got<FsStats>): void;
  chmod(path: string, mode: number, cb: Done): void;
  readdir(path: string, cb: Got<readonly unknown[]>): void;
  readFile(path: string, cb: Got<unknown>): void;
  open(path: string, flags: string, mode: number, cb: Got<number>): void;
  fstat(fd: number, cb: Got<FsStats>): void;
  read(fd: number, buffer: Uint8Array, offset: number, length: number, position: number, cb: Got<number>): void;
  write(fd: number, data: Uint8Array, offset: number, length: number, position: number | null, cb: Got<number>): void;
  fsync(fd: number, cb: Done): void;
  close(fd: number, cb: Done): void;
  link(existing: string, newPath: string, cb: Done): void;
  rename(from: string, to: string, cb: Done): void;
  unlink(path: string, cb: Done): void;
  realpath(path: string, cb: Got<unknown>): void;
}

/** A node:fs-shaped object: node:fs, a memfs `fs`, or anything else of that shape. */
export type FsLike = FsLikeSync & FsLikeCallback;
