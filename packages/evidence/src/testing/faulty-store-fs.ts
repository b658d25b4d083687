import { errAsync, type ResultAsync } from "neverthrow";
import type { StoreFs, StoreFsError } from "../store/port.js";

/** How `faultyStoreFs` misbehaves. Operations are numbered from 1 in call order. */
export interface StoreFsFaults {
  /** Operation `crashAt` and every later one fail with errno `ECRASH`: a simulated process death. */
  readonly crashAt?: number;
  /** Returns an error to fail operation `n` (`op` is the method name) instead of running it. */
  readonly fail?: (op: string, path: string, n: number) => StoreFsError | undefined;
}

/** A StoreFs that counts its operations and whether it has crashed. */
export type FaultyStoreFs = StoreFs & { readonly count: number; readonly crashed: boolean };

/** The error a crashed StoreFs answers every call with. */
function crashError(op: string, path: string): StoreFsError {
  return { code: "store-fs", errno: "ECRASH", op, path, message: "simulated crash: the process died here" };
}

/**
 * Wraps a StoreFs for tests: counts every operation (`uid()` is not one), fails the ones `fail`
 * picks, and from operation `crashAt` on fails everything. A crash that lands on `writeNew`
 * leaves the first half of the data behind, unsynced, as a dying process would.
 */
export function faultyStoreFs(inner: StoreFs, inject: StoreFsFaults): FaultyStoreFs {
  let count = 0;
  let crashed = false;
  const guard = <T>(op: string, path: string, run: () => ResultAsync<T, StoreFsError>): ResultAsync<T, StoreFsError> => {
    count += 1;
    if (crashed || (inject.crashAt !== undefined && count >= inject.crashAt)) {
      crashed = true;
      return errAsync(crashError(op, path));
    }
    const injected = inject.fail?.(op, path, count);
    return injected ? errAsync(injected) : run();
  };
  const fs: FaultyStoreFs = {
    get count() {
      return count;
    },
    get crashed() {
      return crashed;
    },
    uid: () => inner.uid(),
    mkdir: (p, mode) => guard("mkdir", p, () => inner.mkdir(p, mode)),
    lstat: (p) => guard("lstat", p, () => inner.lstat(p)),
    chmod: (p, mode) => guard("chmod", p, () => inner.chmod(p, mode)),
    readdir: (p) => guard("readdir", p, () => inner.readdir(p)),
    readFile: (p, maxBytes) => guard("readFile", p, () => inner.readFile(p, maxBytes)),
    writeNew: (p, data, mode) => {
      const before = crashed;
      const r = guard("writeNew", p, () => inner.writeNew(p, data, mode));
      return crashed && !before
        ? inner
            .writeNew(p, data.slice(0, data.length >> 1), mode)
            .andThen(() => r)
            .orElse(() => r)
        : r;
    },
    link: (a, b) => guard("link", b, () => inner.link(a, b)),
    rename: (a, b) => guard("rename", b, () => inner.rename(a, b)),
    unlink: (p) => guard("unlink", p, () => inner.unlink(p)),
    fsyncDir: (p) => guard("fsyncDir", p, () => inner.fsyncDir(p)),
    realpath: (p) => guard("realpath", p, () => inner.realpath(p)),
  };
  return fs;
}
