// A tree object's entries, parsed as isomorphic-git's readTree parses them: modes as written
// (`40000` spelled `040000`; `100664`, which git reads as a regular file, as `100644`), an
// unknown mode or an unsafe name (a separator, `.git` in any of its Windows or HFS+ aliases, a
// name of only dots and spaces) failing the whole tree, names sorted by code point. What git
// itself refuses to read (an empty name, entries out of its order or twice, where its lookups
// would answer otherwise than a sorted list) fails the tree too.
import type { TreeEntry } from "isomorphic-git";
import { bytesToHex } from "@noble/hashes/utils";
import { refusal } from "./git-guard.js";
import { gitError } from "./git-store.js";
import { decodeName, joinTree, quotedBytes } from "./tree-error.js";

const TYPE_OF_MODE: Record<string, TreeEntry["type"]> = {
  "040000": "tree",
  "100644": "blob",
  "100755": "blob",
  "120000": "blob",
  "160000": "commit",
};

/**
 * Modes as git reads them: `40000` is spelled `040000`, and `100664` (group-writable, written by
 * early git, which kept more permission bits) is a regular non-executable file, listed `100644` as
 * git's ls-tree lists it; plain `git fsck` passes it. Any other mode git's fsck warns about
 * (`100600`, `100775`, a zero-padded `0100644`, …) is left unknown.
 */
const CANONICAL_MODE: Record<string, string> = { "40000": "040000", "100664": "100644" };

function withoutTrailingDotsAndSpaces(name: string): string {
  let end = name.length;
  while (end > 0 && (name.charCodeAt(end - 1) === 46 || name.charCodeAt(end - 1) === 32)) end--;
  return name.slice(0, end);
}

/**
 * True for a name git refuses as a tree entry: a `/`, or a spelling of `.git`. A backslash is a
 * name's own character, as git reads it on POSIX (`notes\\old.txt` checks out and passes fsck), where
 * isomorphic-git refuses it for Windows' sake and with it every listing of the tree.
 */
export function unsafeName(name: string): boolean {
  const visible = name.replace(/[\u200C-\u200F\u202A-\u202E\u206A-\u206F\uFEFF]/g, "");
  const stream = visible.split(":")[0] ?? "";
  const bare = withoutTrailingDotsAndSpaces(stream.toLowerCase());
  return name.includes("/") || (bare === "" && stream !== "") || bare === ".git" || /^\.?git~[1-9]$/.test(bare);
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

/**
 * Git's order of two entries (base_name_compare): by bytes, a tree's name as if it ended in `/`;
 * 0 when the names are the same.
 */
function gitOrder(a: Uint8Array, aTree: boolean, b: Uint8Array, bTree: boolean): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return (a[i] ?? 0) - (b[i] ?? 0);
  if (a.length === b.length) return 0;
  return (a[n] ?? (aTree ? 47 : 0)) - (b[n] ?? (bTree ? 47 : 0));
}

/**
 * The entries of the tree object `oid` (found at the tree-relative path `dir`), listed in
 * code-point order, modes as git reads them (`100664` as `100644`). A tree git would not read
 * (an unknown mode, named with the entry's path; an empty name; entries out of git's order or
 * twice) is an `InternalError`; an unsafe name an `UnsafeFilepathError`, as isomorphic-git's
 * readTree; a name that is not UTF-8 a refusal (gitTree cannot spell it).
 */
export function parseTree(content: Uint8Array, oid: string, dir = ""): TreeEntry[] {
  const entries: TreeEntry[] = [];
  const seen = new Set<string>();
  let previous: { name: Uint8Array; tree: boolean } | undefined;
  for (let at = 0; at < content.length; ) {
    const space = content.indexOf(32, at);
    const nul = content.indexOf(0, at);
    if (space === -1 || nul === -1 || space > nul || nul + 21 > content.length) {
      throw gitError("InternalError", `GitTree: Error parsing buffer at byte location ${at}`);
    }
    const written = new TextDecoder().decode(content.subarray(at, space));
    const mode = Object.hasOwn(CANONICAL_MODE, written) ? (CANONICAL_MODE[written] ?? written) : written;
    const type = Object.hasOwn(TYPE_OF_MODE, mode) ? TYPE_OF_MODE[mode] : undefined;
    const name = content.subarray(space + 1, nul);
    if (type === undefined) {
      throw gitError(
        "InternalError",
        `Unexpected GitTree entry mode: ${quotedBytes(content.subarray(at, space))} of "${joinTree(dir, decodeName(name) ?? quotedBytes(name))}"`,
      );
    }
    const path = decodeName(name);
    if (path === undefined) throw refusal(`the git tree ${oid} holds the name "${quotedBytes(name)}", which is not UTF-8`);
    if (path === "") throw gitError("InternalError", `an empty name at byte ${at}`);
    if (unsafeName(path)) throw gitError("UnsafeFilepathError", `The filepath "${path}" contains unsafe character sequences`);
    const order = previous === undefined ? -1 : gitOrder(previous.name, previous.tree, name, type === "tree");
    if (order === 0 || seen.has(path)) throw gitError("InternalError", `the entry "${path}" is there twice`);
    if (order > 0) throw gitError("InternalError", `the entry "${path}" is out of git's order`);
    seen.add(path);
    previous = { name, tree: type === "tree" };
    entries.push({ mode, path, oid: bytesToHex(content.subarray(nul + 1, nul + 21)), type });
    at = nul + 21;
  }
  return entries.sort(byCodePoint);
}
