// @decay/assumptions/node: the Node adapters (the TreeReader over the real filesystem, the
// node:crypto hashes and node:zlib inflater a gitTree takes in Node). Named exports only.
export { nodeTree } from "../node/tree.js";
export { nodeSha1Hex, nodeSha256Hex } from "../node/hashes.js";
export { nodeInflate } from "../node/inflate.js";
