import { posixBasename, posixResolve } from "@decay/portable";
import { sha256Hex } from "./hash.js";

const MAX_NAME_BYTES = 64;

/**
 * The store folder name for a project path, as the reference computes it: the resolved path's
 * last component (`root` for `/`) cut to at most 64 UTF-8 bytes by whole characters, a dash,
 * and the first 12 hex digits of the SHA-256 of the resolved path's UTF-8 bytes. The path is
 * absolute (`.`, `..` and repeated slashes are resolved; a relative path is taken from `/`, as
 * the root has no working directory: resolve it against yours first).
 */
export function slug(path: string): string {
  const resolved = posixResolve(path);
  const digest = sha256Hex(resolved).slice(0, 12);
  const encoder = new TextEncoder();
  let name = "";
  let size = 0;
  for (const char of posixBasename(resolved) || "root") {
    size += encoder.encode(char).length;
    if (size > MAX_NAME_BYTES) break;
    name += char;
  }
  return `${name}-${digest}`;
}
