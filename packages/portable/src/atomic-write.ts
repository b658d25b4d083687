// The one atomic, durable file write of the decay packages, over the smallest async port that can
// do it: a temp file beside the target, written and fsynced, renamed over the target (or
// hard-linked to it when the target is immutable), then the directory fsynced.
import { err, errAsync, ok, type Result, ResultAsync } from "neverthrow";

/** What a failed call of the port says: at least the errno (`EEXIST`, `ENOENT`, ...). */
export interface AtomicFsError {
  readonly errno: string;
}

/** The calls `atomicWrite` makes; the evidence `StoreFs` fits it, and the CLI output adapter does. */
export interface AtomicFs<E extends AtomicFsError> {
  /** Creates `path` exclusively with `mode`, writes `data`, fsyncs and closes it. */
  writeNew(path: string, data: Uint8Array, mode: number): ResultAsync<void, E>;
  rename(from: string, to: string): ResultAsync<void, E>;
  unlink(path: string): ResultAsync<void, E>;
  /** fsyncs a directory so a rename or link in it is durable. */
  fsyncDir(path: string): ResultAsync<void, E>;
  /** Needed only for an immutable target. */
  link?(existing: string, newPath: string): ResultAsync<void, E>;
  /** Needed only for an immutable target: at most `maxBytes` bytes of the file (all of a shorter one). */
  readFile?(path: string, maxBytes: number): ResultAsync<Uint8Array, E>;
}

/** How the temp file is made. */
export interface TempFile {
  /** Mode of the temp file, and so of the target it becomes. */
  readonly mode: number;
  /** A fresh temp file name (no slash) in the target's directory; a clash is retried with another. */
  readonly name: () => string;
}

/** Options of `atomicWrite`. */
export interface AtomicWriteOptions extends TempFile {
  /** Link instead of rename: an existing target must already hold exactly the bytes (else `immutable-changed`). */
  readonly immutable?: boolean;
}

/** An immutable target that exists with other bytes. */
export interface ImmutableChanged {
  readonly code: "immutable-changed";
  readonly path: string;
}

/** `n` random bytes as lowercase hex. */
export function randomHex(n: number): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(n));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** True when both byte arrays hold the same bytes. */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** Runs `next` once `first` settled either way; `next` decides the outcome. */
function after<A, F, T, E>(first: ResultAsync<A, F>, next: (r: Result<A, F>) => Result<T, E> | ResultAsync<T, E>): ResultAsync<T, E> {
  return new ResultAsync(Promise.resolve(first).then((r) => next(r)));
}

/** Creates a fresh temp file in `dir` holding `data`, written and fsynced; resolves to its path. */
export function writeTemp<E extends AtomicFsError>(fs: AtomicFs<E>, dir: string, data: Uint8Array, temp: TempFile, tries = 3): ResultAsync<string, E> {
  const path = `${dir}/${temp.name()}`;
  return fs
    .writeNew(path, data, temp.mode)
    .map(() => path)
    .orElse((e) => {
      if (e.errno === "EEXIST" && tries > 1) return writeTemp(fs, dir, data, temp, tries - 1);
      // A write that failed half way may have left the file: remove it, keep the first error.
      return e.errno === "EEXIST" ? errAsync(e) : after(fs.unlink(path), () => err(e));
    });
}

/**
 * Links `temp` to `target`; an existing target must already hold exactly `data`. Only
 * `data.length + 1` bytes of it are read: enough to tell, whatever its size.
 */
function linkImmutable<E extends AtomicFsError>(fs: AtomicFs<E>, temp: string, target: string, data: Uint8Array): ResultAsync<void, E | ImmutableChanged> {
  if (fs.link === undefined || fs.readFile === undefined) throw new Error("atomicWrite: an immutable target needs link and readFile");
  const read = fs.readFile.bind(fs);
  return fs.link(temp, target).orElse((e): ResultAsync<void, E | ImmutableChanged> => {
    if (e.errno !== "EEXIST") return errAsync(e);
    return read(target, data.length + 1).andThen((old) =>
      sameBytes(old, data) ? ok(undefined) : err<void, ImmutableChanged>({ code: "immutable-changed", path: target }),
    );
  });
}

/**
 * Writes `data` to `target` in `dir` atomically and durably: a temp file in the same directory,
 * written and fsynced, then renamed over the target (or hard-linked to it when `immutable`,
 * refusing changed content), then the directory fsynced. The temp file never outlives the call
 * unless the process dies. A failed rename leaves the old target as it was.
 */
export function atomicWrite<E extends AtomicFsError>(
  fs: AtomicFs<E>,
  dir: string,
  target: string,
  data: Uint8Array,
  opts: AtomicWriteOptions,
): ResultAsync<void, E | ImmutableChanged> {
  const immutable = opts.immutable === true;
  return writeTemp(fs, dir, data, opts).andThen((temp) => {
    const placed = immutable ? linkImmutable(fs, temp, target, data) : fs.rename(temp, target);
    const synced = placed.andThen(() => fs.fsyncDir(dir));
    return after(synced, (r) => {
      if (!immutable && r.isOk()) return r;
      const cleanup = fs.unlink(temp).orElse((e) => (e.errno === "ENOENT" ? ok(undefined) : err(e)));
      return after(cleanup, (c): Result<void, E | ImmutableChanged> => (r.isErr() ? r : c));
    });
  });
}
