import { resolve } from "node:path";
import type { ResultAsync } from "neverthrow";
import type { StoreFault } from "../store/fault.js";
import { openPendingStore, type OpenPendingStoreOptions, type PendingStore } from "../store/store.js";
import { runGit } from "./git.js";
import { processLockIdentity } from "./lock-identity.js";
import { nodeStoreFs } from "./store-fs.js";

/** Options of `nodePendingStore`: those of `openPendingStore`, every port optional. */
export type NodePendingStoreOptions = Omit<OpenPendingStoreOptions, "fs" | "env" | "lockIdentity"> &
  Partial<Pick<OpenPendingStoreOptions, "fs" | "env" | "lockIdentity">>;

/**
 * `openPendingStore` with Node's ports filled in where not given: `nodeStoreFs()`, `process.env`,
 * this process as the lock's identity, system git; a relative `repo` is taken from the working
 * directory.
 */
export function nodePendingStore(opts: NodePendingStoreOptions): ResultAsync<PendingStore, StoreFault> {
  return openPendingStore({
    ...opts,
    repo: resolve(opts.repo),
    fs: opts.fs ?? nodeStoreFs(),
    env: opts.env ?? process.env,
    lockIdentity: opts.lockIdentity ?? processLockIdentity(),
    git: opts.git ?? runGit,
  });
}
