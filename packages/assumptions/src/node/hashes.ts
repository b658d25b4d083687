import * as crypto from "node:crypto";
import type { Sha1Hex } from "../adapters/git-natives.js";

// The one-shot `crypto.hash` (Node 20.12 on) skips a Hash object per file; older Node 20 has only `createHash`.
const oneShot: typeof crypto.hash | undefined = crypto.hash;

/** SHA-256 in lowercase hex by node:crypto: a `TreeReader`'s `sha256Hex` face in Node. */
export const nodeSha256Hex: (bytes: Uint8Array) => string =
  typeof oneShot === "function" ? (bytes) => oneShot("sha256", bytes, "hex") : (bytes) => crypto.createHash("sha256").update(bytes).digest("hex");

/** SHA-1 of the parts in lowercase hex by node:crypto: `gitTree`'s `sha1Hex` option in Node. */
export const nodeSha1Hex: Sha1Hex = (parts) => {
  const hash = crypto.createHash("sha1");
  for (const part of parts) hash.update(part);
  return hash.digest("hex");
};
