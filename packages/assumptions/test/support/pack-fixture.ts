// Test-only: rewrites a repository's objects into one pack written here byte by byte, so a test can
// make chosen entries lie (a declared size, a zlib bomb, a stream that is not zlib) in ways git
// itself never writes. Never exported from an entry.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import { join } from "node:path";
import { deflateSync } from "node:zlib";

const TYPE_CODES: Record<string, number> = { commit: 1, tree: 2, blob: 3, tag: 4 };

/**
 * One pack entry as written: the size its header declares and the bytes that follow it; `type`,
 * the pack type number, when it is not the object's own (6: an offset delta, 7: a ref delta, whose
 * base offset or id then leads `data`).
 */
export interface Entry {
  readonly size: number;
  readonly data: Buffer;
  readonly type?: number;
}

/** Writes one object's entry from its real content (the default: the true size, deflated). */
export type EntryWriter = (content: Buffer) => Entry;

/** An entry that declares `size` and holds the real content, deflated. */
export const declaring =
  (size: number): EntryWriter =>
  (content) => ({ size, data: deflateSync(content) });

/** A zlib bomb: declares the real size, but its stream goes on with `extra` zero bytes. */
export const bomb =
  (extra: number): EntryWriter =>
  (content) => ({ size: content.length, data: deflateSync(Buffer.concat([content, Buffer.alloc(extra)])) });

/** An entry whose bytes are not a zlib stream at all. */
export const garbage: EntryWriter = (content) => ({ size: content.length, data: Buffer.alloc(64, 0xa5) });

function entryHeader(type: number, size: number): Buffer {
  const out = [((size > 15 ? 0x80 : 0) | (type << 4) | (size & 15)) & 0xff];
  for (let rest = Math.floor(size / 16); rest > 0; rest = Math.floor(rest / 128)) out.push((rest > 127 ? 0x80 : 0) | (rest & 0x7f));
  return Buffer.from(out);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = (CRC_TABLE[(c ^ b) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
}

const sha1 = (b: Uint8Array): Buffer => createHash("sha1").update(b).digest();

/** A version-2 index of `entries` (oid, offset, crc) for the pack whose checksum is `packSum`. */
function indexOf(entries: { oid: string; offset: number; crc: number }[], packSum: Buffer): Buffer {
  const sorted = [...entries].sort((a, b) => (a.oid < b.oid ? -1 : 1));
  const fanout = Array.from({ length: 256 }, (_, i) => u32(sorted.filter((e) => Number.parseInt(e.oid.slice(0, 2), 16) <= i).length));
  const body = Buffer.concat([
    Buffer.from([0xff, 0x74, 0x4f, 0x63, 0, 0, 0, 2]),
    ...fanout,
    ...sorted.map((e) => Buffer.from(e.oid, "hex")),
    ...sorted.map((e) => u32(e.crc)),
    ...sorted.map((e) => u32(e.offset)),
    packSum,
  ]);
  return Buffer.concat([body, sha1(body)]);
}

/** One object of a repository: its id, type and content. */
export interface StoredObject {
  readonly oid: string;
  readonly type: string;
  readonly content: Buffer;
}

/** Every object of the repository at `dir` (loose or packed), read with one `git cat-file --batch`. */
export function objectsIn(dir: string): StoredObject[] {
  const listed = execFileSync("git", ["-C", dir, "cat-file", "--batch-all-objects", "--batch-check=%(objectname)"], { encoding: "utf8" });
  const batch = execFileSync("git", ["-C", dir, "cat-file", "--batch"], { input: listed, maxBuffer: 1 << 30 });
  const out: StoredObject[] = [];
  for (let at = 0; at < batch.length; ) {
    const eol = batch.indexOf(10, at);
    const [oid = "", type = "", size = "0"] = batch.subarray(at, eol).toString().split(" ");
    out.push({ oid, type, content: batch.subarray(eol + 1, eol + 1 + Number(size)) });
    at = eol + 1 + Number(size) + 1;
  }
  return out;
}

/**
 * Replaces every object of the repository at `dir` (loose or packed) by one pack written here;
 * `lies` writes the entries of the objects it names. Answers the new pack's path. `objects`
 * (default: the repository's own, read now) lets a test write many packs from one reading.
 */
export function repackByHand(dir: string, lies: Record<string, EntryWriter> = {}, objects: readonly StoredObject[] = objectsIn(dir)): string {
  const parts: Buffer[] = [Buffer.from("PACK"), u32(2), u32(0)];
  let offset = 12;
  const entries: { oid: string; offset: number; crc: number }[] = [];
  for (const { oid, type, content } of objects) {
    const written = (lies[oid] ?? declaring(content.length))(content);
    const raw = Buffer.concat([entryHeader(written.type ?? TYPE_CODES[type] ?? 0, written.size), written.data]);
    entries.push({ oid, offset, crc: crc32(raw) });
    parts.push(raw);
    offset += raw.length;
  }
  parts[2] = u32(entries.length);
  const body = Buffer.concat(parts);
  const packSum = sha1(body);
  const objectsDir = join(dir, ".git", "objects");
  for (const name of fs.readdirSync(objectsDir))
    if (/^[0-9a-f]{2}$/.test(name) || name === "pack") fs.rmSync(join(objectsDir, name), { recursive: true, force: true });
  fs.mkdirSync(join(objectsDir, "pack"));
  const base = join(objectsDir, "pack", `pack-${packSum.toString("hex")}`);
  fs.writeFileSync(`${base}.pack`, Buffer.concat([body, packSum]));
  fs.writeFileSync(`${base}.idx`, indexOf(entries, packSum));
  return `${base}.pack`;
}
