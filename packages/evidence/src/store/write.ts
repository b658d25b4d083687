// The store's files are written through the one atomic write of the decay packages
// (@decay/portable), as `.pending-<random>` temp files of mode 0600.
import { atomicWrite as sharedAtomicWrite, randomHex, sameBytes, type TempFile, writeTemp as sharedWriteTemp } from "@decay/portable";
import type { ResultAsync } from "neverthrow";
import type { StoreFault } from "./fault.js";
import type { StoreFs, StoreFsError } from "./port.js";

export { randomHex, sameBytes };

/** Mode of every file the store writes. */
export const FILE_MODE = 0o600;

const PENDING: TempFile = { mode: FILE_MODE, name: () => `.pending-${randomHex(12)}` };

/** Creates a fresh `.pending-<random>` file in `dir` holding `data`, written and fsynced. */
export function writeTemp(fs: StoreFs, dir: string, data: Uint8Array): ResultAsync<string, StoreFsError> {
  return sharedWriteTemp(fs, dir, data, PENDING);
}

/**
 * Writes `data` to `target` in `dir` atomically and durably (see `atomicWrite` of
 * @decay/portable); `immutable` links instead of renaming and refuses changed content.
 */
export function atomicWrite(fs: StoreFs, dir: string, target: string, data: Uint8Array, immutable: boolean): ResultAsync<void, StoreFault> {
  return sharedAtomicWrite(fs, dir, target, data, { ...PENDING, immutable });
}
