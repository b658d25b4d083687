// The parts of git's index file (`<gitdir>/index`) isomorphic-git does not tell: the version, each
// entry's mode and flag bits (assume-unchanged, skip-worktree, intent-to-add) and the extensions.
// Read by the adapter itself so that what isomorphic-git would get wrong is refused first.
// Runtime-neutral.
import { thrownCode } from "@decay/portable";
import type { Repo } from "./objects.js";

/** One entry of the index (stage 0 and conflict stages alike). */
export interface IndexEntry {
  readonly path: string;
  /** The mode as git writes it in a tree: `100644`, `100755`, `120000`, `160000`. */
  readonly mode: string;
  readonly assumeUnchanged: boolean;
  readonly skipWorktree: boolean;
  readonly intentToAdd: boolean;
}

/** What the adapter needs of the index; an absent index is version 2 with no entries. */
export interface IndexFile {
  readonly version: number;
  readonly entries: readonly IndexEntry[];
  /** The four-letter signatures of its extensions (`link`: a split index; `sdir`: a sparse index). */
  readonly extensions: readonly string[];
}

const utf8 = new TextDecoder();
const ascii = (b: Uint8Array) => String.fromCharCode(...b);

/** Parses an index of version 2 or 3; of version 4 (prefix-compressed names) only the header is read. */
export function parseIndex(bytes: Uint8Array): IndexFile {
  if (bytes.length === 0) return { version: 2, entries: [], extensions: [] };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 12 || ascii(bytes.subarray(0, 4)) !== "DIRC") throw new Error("the index is not a git index (no DIRC signature)");
  const version = view.getUint32(4);
  const count = view.getUint32(8);
  if (version === 4) return { version, entries: [], extensions: [] };
  if (version !== 2 && version !== 3) throw new Error(`the index has version ${version}, which is not read`);
  const entries: IndexEntry[] = [];
  let at = 12;
  for (let n = 0; n < count; n += 1) {
    const mode = view.getUint32(at + 24);
    const flags = view.getUint16(at + 60);
    const extended = (flags & 0x4000) !== 0 ? view.getUint16(at + 62) : 0;
    const nameAt = at + 62 + ((flags & 0x4000) !== 0 ? 2 : 0);
    const end = bytes.indexOf(0, nameAt);
    if (end < 0) throw new Error("the index ends inside an entry");
    entries.push({
      path: utf8.decode(bytes.subarray(nameAt, end)),
      mode: mode.toString(8).padStart(6, "0"),
      assumeUnchanged: (flags & 0x8000) !== 0,
      skipWorktree: (extended & 0x4000) !== 0,
      intentToAdd: (extended & 0x2000) !== 0,
    });
    // 1 to 8 NULs end the name, so that the entry's length is a multiple of 8.
    at += ((end - at + 8) >> 3) << 3;
  }
  const extensions: string[] = [];
  // Extensions up to the trailing checksum (20 bytes; 32 in a SHA-256 repository, too short for one more).
  while (at + 8 <= bytes.length - 20) {
    extensions.push(ascii(bytes.subarray(at, at + 4)));
    at += 8 + view.getUint32(at + 4);
  }
  return { version, entries, extensions };
}

/** The index of `r`, parsed. */
export async function readIndex(r: Repo): Promise<IndexFile> {
  const { gitdir } = r;
  const data = await r.fs.promises.readFile(`${gitdir}/index`).catch((e: unknown) => {
    if (thrownCode(e) === "ENOENT") return new Uint8Array();
    throw e;
  });
  return parseIndex(typeof data === "string" ? new TextEncoder().encode(data) : data);
}
