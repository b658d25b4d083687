import { ResultAsync, type Result } from "neverthrow";
import type { EvidenceFault } from "../fault.js";
import type { RecordKey } from "../record/schema.js";
import type { HeldLock } from "../store/lock.js";
import type { PendingStore } from "../store/store.js";

/** Runs `work` holding `lock` and releases it on every way out; a failed release is reported when the work succeeded. */
async function whileHolding<T>(lock: HeldLock, work: () => PromiseLike<Result<T, EvidenceFault>>): Promise<Result<T, EvidenceFault>> {
  let result: Result<T, EvidenceFault>;
  try {
    result = await work();
  } catch (bug) {
    await lock.release();
    throw bug;
  }
  const released = await lock.release();
  return result.andThen((value) => released.map(() => value));
}

/**
 * Runs `work` under the store's inter-process lock for `key`: `prepare` and `publish` of one
 * attempt never interleave, in this process or another.
 */
export function withKeyLock<T>(store: PendingStore, key: RecordKey, work: () => PromiseLike<Result<T, EvidenceFault>>): ResultAsync<T, EvidenceFault> {
  return store.lock(key).andThen((lock) => new ResultAsync(whileHolding(lock, work)));
}
