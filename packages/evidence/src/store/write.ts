import { err, errAsync, ok, ResultAsync, type Result } from "neverthrow";
import type { StoreFault } from "./fault.js";
import type { StoreFs, StoreFsError } from "./port.js";

/** Mode of every file the store writes. */
export const FILE_MODE = 0o600;

/** `n` random bytes as lowercase hex. */
export function randomHex(n: number): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(n));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Creates a fresh `.pending-<random>` file in `dir` holding `data`, written and fsynced. */
export function writeTemp(fs: StoreFs, dir: string, data: Uint8Array, tries = 3): ResultAsync<string, StoreFsError> {
  const temp = `${dir}/.pending-${randomHex(12)}`;
  return fs
    .writeNew(temp, data, FILE_MODE)
    .map(() => temp)
    .orElse((e) => {
      if (e.errno === "EEXIST" && tries > 1) return writeTemp(fs, dir, data, tries - 1);
      // A write that failed half way may have left the file: remove it, keep the first error.
      return e.errno === "EEXIST" ? errAsync(e) : after(fs.unlink(temp), () => err(e));
    });
}

/** True when both byte arrays hold the same bytes. */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** Runs `next` once `first` settled either way; `next` decides the outcome. */
function after<A, F, T, E>(first: ResultAsync<A, F>, next: (r: Result<A, F>) => Result<T, E> | ResultAsync<T, E>): ResultAsync<T, E> {
  return new ResultAsync(Promise.resolve(first).then((r) => next(r)));
}

/** Links `temp` to `target`; an existing target must already hold exactly `data`. */
function linkImmutable(fs: StoreFs, temp: string, target: string, data: Uint8Array): ResultAsync<void, StoreFault> {
  return fs.link(temp, target).orElse((e): ResultAsync<void, StoreFault> => {
    if (e.errno !== "EEXIST") return errAsync(e);
    return fs.readFile(target).andThen((old) => (sameBytes(old, data) ? ok(undefined) : err<void, StoreFault>({ code: "immutable-changed", path: target })));
  });
}

/**
 * Writes `data` to `target` in `dir` atomically and durably: a temp file in the same
 * directory, written and fsynced, then renamed over the target (or hard-linked to it when
 * `immutable`, refusing changed content), then the directory fsynced. The temp file never
 * outlives the call unless the process dies. A failed rename leaves the old target as it was.
 */
export function atomicWrite(fs: StoreFs, dir: string, target: string, data: Uint8Array, immutable: boolean): ResultAsync<void, StoreFault> {
  return writeTemp(fs, dir, data).andThen((temp) => {
    const placed = immutable ? linkImmutable(fs, temp, target, data) : fs.rename(temp, target);
    const synced = placed.andThen(() => fs.fsyncDir(dir));
    return after(synced, (r) => {
      if (!immutable && r.isOk()) return r;
      const cleanup = fs.unlink(temp).orElse((e) => (e.errno === "ENOENT" ? ok(undefined) : err(e)));
      return after(cleanup, (c): Result<void, StoreFault> => (r.isErr() ? r : c));
    });
  });
}
