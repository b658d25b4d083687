// @decay/evidence/node: the Node adapters (the store on node:fs, system git, this process as the
// lock's identity) and `nodePendingStore`, which fills them in. Named exports only.
export { nodeStoreFs } from "../node/store-fs.js";
export { runGit } from "../node/git.js";
export { processLockIdentity } from "../node/lock-identity.js";
export { nodePendingStore } from "../node/store.js";
export type { NodePendingStoreOptions } from "../node/store.js";
