import { err, errAsync, ok, okAsync, ResultAsync, type Result } from "neverthrow";
import type { StoreFault } from "./fault.js";
import type { StoreFs } from "./port.js";
import { randomHex, sameBytes, writeTemp } from "./write.js";

/** Who this process is to the lock, and how it judges other owners. Injectable for tests. */
export interface LockIdentity {
  readonly pid: number;
  readonly host: string;
  /** True while process `pid` on this host may still run. */
  isAlive(pid: number): boolean;
  now(): number;
}

/** A held lock; `release()` removes the lock file only while it is still this holder's. */
export interface HeldLock {
  readonly path: string;
  release(): ResultAsync<void, StoreFault>;
}

/** What a lock file holds: `{"pid":…,"host":…,"time":…,"nonce":…}` and a newline. */
interface LockOwner {
  readonly pid: number;
  readonly host: string;
  readonly time: number;
  readonly nonce: string;
}

/** The most of a lock file read: an owner is far shorter, so a longer file reads as an unreadable owner. */
const MAX_LOCK_BYTES = 4096;

/** Default stale age: a lock older than this is taken over whatever its owner. */
export const DEFAULT_STALE_MS = 10 * 60 * 1000;

function parseOwner(bytes: Uint8Array): LockOwner | null {
  try {
    const o = JSON.parse(new TextDecoder().decode(bytes)) as Partial<LockOwner>;
    const valid = typeof o.pid === "number" && typeof o.host === "string" && typeof o.time === "number" && typeof o.nonce === "string";
    return valid ? (o as LockOwner) : null;
  } catch {
    return null;
  }
}

function describeOwner(owner: LockOwner | null): string {
  return owner === null ? "an unreadable owner" : `process ${owner.pid} on ${owner.host}`;
}

const settle = <T, E>(r: ResultAsync<T, E>): ResultAsync<Result<T, E>, never> => ResultAsync.fromSafePromise(Promise.resolve(r));

/**
 * Moves the lock file aside (only one mover can win a given file), keeps it removed if it still
 * holds `expected`, and puts it back otherwise. Resolves to whether `expected` was removed.
 */
function takeIfSame(fs: StoreFs, path: string, expected: Uint8Array): ResultAsync<boolean, StoreFault> {
  const aside = `${path}.aside-${randomHex(8)}`;
  return fs
    .rename(path, aside)
    .andThen(() =>
      fs.readFile(aside, expected.length + 1).andThen((found) => {
        const restore: ResultAsync<void, StoreFault> = sameBytes(found, expected)
          ? okAsync(undefined)
          : fs.link(aside, path).orElse((e) => (e.errno === "EEXIST" ? ok(undefined) : err(e)));
        return restore.andThen(() => fs.unlink(aside)).map(() => sameBytes(found, expected));
      }),
    )
    .orElse((e) => (e.code === "store-fs" && e.errno === "ENOENT" ? ok(false) : err(e)));
}

interface Attempt {
  readonly fs: StoreFs;
  readonly path: string;
  readonly temp: string;
  readonly id: LockIdentity;
  readonly staleMs: number;
}

/** One try to link our prepared lock file into place, recovering a stale lock at most `left` times. */
function tryLock(a: Attempt, left: number): ResultAsync<void, StoreFault> {
  return a.fs.link(a.temp, a.path).orElse((e): ResultAsync<void, StoreFault> => {
    if (e.errno !== "EEXIST") return errAsync(e);
    return a.fs
      .readFile(a.path, MAX_LOCK_BYTES)
      .andThen((bytes): ResultAsync<void, StoreFault> => {
        const owner = parseOwner(bytes);
        const stale = owner !== null && ((owner.host === a.id.host && !a.id.isAlive(owner.pid)) || a.id.now() - owner.time > a.staleMs);
        if (!stale || left <= 0) return errAsync({ code: "lock-held", path: a.path, owner: describeOwner(owner) });
        return takeIfSame(a.fs, a.path, bytes).andThen(() => tryLock(a, left - 1));
      })
      .orElse((e) => (e.code === "store-fs" && e.errno === "ENOENT" && left > 0 ? tryLock(a, left - 1) : err(e)));
  });
}

/**
 * Takes the exclusive lock file `path` in `dir`: a complete owner file is written aside and
 * hard-linked into place, so the lock never exists half written. A lock whose owner process is
 * dead on this host, or that is older than `staleMs`, is stale: it is moved aside by exactly one
 * recoverer and replaced. A live lock is a `lock-held` fault.
 */
export function acquireLock(fs: StoreFs, dir: string, path: string, id: LockIdentity, staleMs: number): ResultAsync<HeldLock, StoreFault> {
  const mine = new TextEncoder().encode(`${JSON.stringify({ pid: id.pid, host: id.host, time: id.now(), nonce: randomHex(16) })}\n`);
  return writeTemp(fs, dir, mine)
    .andThen((temp) => settle(tryLock({ fs, path, temp, id, staleMs }, 3)).andThen((locked) => fs.unlink(temp).andThen(() => locked)))
    .map(
      (): HeldLock => ({
        path,
        release: () => takeIfSame(fs, path, mine).map(() => undefined),
      }),
    );
}
