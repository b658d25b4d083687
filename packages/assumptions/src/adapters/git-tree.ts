// A tree object's entries, parsed as isomorphic-git's readTree parses them: modes as written
// (`40000` spelled `040000`), an unknown mode or an unsafe name (a separator, `.git` in any of its
// Windows or HFS+ aliases, a name of only dots and spaces) failing the whole tree, names sorted
// by code point.
import type { TreeEntry } from "isomorphic-git";
import { bytesToHex } from "@noble/hashes/utils";
import { gitError } from "./git-store.js";

const TYPE_OF_MODE: Record<string, TreeEntry["type"]> = {
  "040000": "tree",
  "100644": "blob",
  "100755": "blob",
  "120000": "blob",
  "160000": "commit",
};

function withoutTrailingDotsAndSpaces(name: string): string {
  let end = name.length;
  while (end > 0 && (name.charCodeAt(end - 1) === 46 || name.charCodeAt(end - 1) === 32)) end--;
  return name.slice(0, end);
}

/** True for a name git (and isomorphic-git) refuses as a tree entry. */
export function unsafeName(name: string): boolean {
  const visible = name.replace(/[\u200C-\u200F\u202A-\u202E\u206A-\u206F\uFEFF]/g, "");
  const stream = visible.split(":")[0] ?? "";
  const bare = withoutTrailingDotsAndSpaces(stream.toLowerCase());
  return name.includes("\\") || name.includes("/") || (bare === "" && stream !== "") || bare === ".git" || /^\.?git~[1-9]$/.test(bare);
}

/** Code-point order (UTF-16 order differs above U+D7FF). */
function byCodePoint(a: TreeEntry, b: TreeEntry): number {
  const x = a.path;
  const y = b.path;
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    let p = x.charCodeAt(i);
    let q = y.charCodeAt(i);
    if (p === q) continue;
    if (p >= 0xd800 && q >= 0xd800) {
      p += p >= 0xe000 ? -0x800 : 0x2000;
      q += q >= 0xe000 ? -0x800 : 0x2000;
    }
    return p < q ? -1 : 1;
  }
  return x.length - y.length;
}

/** The entries of a tree object's content; throws an `InternalError` where isomorphic-git would. */
export function parseTree(content: Uint8Array): TreeEntry[] {
  const entries: TreeEntry[] = [];
  const text = new TextDecoder();
  for (let at = 0; at < content.length; ) {
    const space = content.indexOf(32, at);
    const nul = content.indexOf(0, at);
    if (space === -1 || nul === -1 || nul + 21 > content.length) {
      throw gitError("InternalError", `GitTree: Error parsing buffer at byte location ${at}`);
    }
    const written = text.decode(content.subarray(at, space));
    const mode = written === "40000" ? "040000" : written;
    const type = TYPE_OF_MODE[mode];
    if (type === undefined) throw gitError("InternalError", `Unexpected GitTree entry mode: ${mode}`);
    const path = text.decode(content.subarray(space + 1, nul));
    if (unsafeName(path)) throw gitError("UnsafeFilepathError", `The filepath "${path}" contains unsafe character sequences`);
    entries.push({ mode, path, oid: bytesToHex(content.subarray(nul + 1, nul + 21)), type });
    at = nul + 21;
  }
  return entries.sort(byCodePoint);
}
