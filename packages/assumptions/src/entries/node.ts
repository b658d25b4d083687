// @decay/assumptions/node: the Node adapters (the TreeReader over the real filesystem). Named exports only.
export { nodeTree } from "../node/tree.js";
