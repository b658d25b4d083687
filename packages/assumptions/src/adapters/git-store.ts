// The trees and blobs of one tree, read straight from the object store rather than through an
// isomorphic-git call per object (which wraps the fs, rediscovers the gitdir, rereads the pack
// directory and hashes on the web-crypto queue each time). A loose object is read through the
// guarded fs, its header's size checked against the limit, and inflated once (never past its
// declared size), with nothing after its zlib stream;
// a packed one is vetted by the pack guard, then rebuilt through its delta chain, with the bases
// it met kept up to a byte budget.
// Every object's SHA-1 is checked against its id.
import { thrownCode } from "@decay/portable";
import { type GitLimits, objectFiles, refusal } from "./git-guard.js";
import { inflateBounded } from "./git-inflate.js";
import { type Inflate, inflatedBy, portableSha1Hex, type Sha1Hex, type StoreNatives } from "./git-natives.js";
import { deltaSize, entryBuilds, MAX_CHAIN_LINKS, packEntry, packVetter } from "./git-pack-guard.js";
import { type ObjectDir, objectDir, type PackedAt, type PackIndex, WHOLE_PACK_BYTES } from "./git-packs.js";
import type { GitFs } from "./git-repo.js";
import { inflatePeek } from "./git-peek.js";
import { joinTree } from "./tree-error.js";

/** The four object types, by pack type number (1 to 4). */
const TYPES = ["", "commit", "tree", "blob", "tag"] as const;
export type ObjectType = "commit" | "tree" | "blob" | "tag";

/** An object's type and content (without the `TYPE SIZE\0` header). */
export interface GitObject {
  readonly type: ObjectType;
  readonly content: Uint8Array;
}

/** Reads objects by id; failures reject with a refusal, a `NotFoundError` or an `InternalError`. */
export type ObjectReader = (oid: string) => Promise<GitObject>;

/** Above this many compressed bytes the native (streaming) inflater is cheaper than the small one. */
const NATIVE_FROM = 8 * 1024;
/** Bytes of delta bases kept for one tree. */
const BASE_BUDGET = 32 * 1024 * 1024;
const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

const HEADER = /^(blob|tree|commit|tag) (0|[1-9][0-9]{0,15})$/;
const MAX_HEADER = 32;
/** Inflated bytes enough to hold any loose object's header and its NUL. */
const LOOSE_HEADER_BYTES = MAX_HEADER + 1;

/** A loose object's `TYPE SIZE\0` header, from its first inflated bytes (`length` counts the NUL); `undefined` when there is none. */
function looseHeader(bytes: Uint8Array): { type: ObjectType; size: number; length: number } | undefined {
  const nul = bytes.indexOf(0);
  if (nul === -1 || nul > MAX_HEADER) return undefined;
  const m = HEADER.exec(new TextDecoder().decode(bytes.subarray(0, nul)));
  return m?.[1] === undefined || m[2] === undefined ? undefined : { type: m[1] as ObjectType, size: Number(m[2]), length: nul + 1 };
}

/** An isomorphic-git-shaped error, so that the adapter words it as it words theirs. */
export function gitError(code: "NotFoundError" | "InternalError" | "UnsafeFilepathError", message: string): Error {
  return Object.assign(new Error(message), { code, data: { message } });
}

/**
 * Inflates a packed entry's `compressed` bytes, which must come to exactly `size` bytes; `past` when
 * they would go beyond. Bytes after the stream are not looked at: an entry's end is where the next
 * begins, and git does not look there either.
 */
async function inflateExactly(compressed: Uint8Array, size: number, inflate?: Inflate): Promise<Uint8Array | "past" | { corrupt: string }> {
  const fast = inflatedBy(inflate, compressed, size);
  if (fast !== undefined) return fast.bytes;
  if (compressed.length > NATIVE_FROM) {
    const got = await inflateBounded(compressed, size);
    return got.kind === "past" ? "past" : got.kind === "corrupt" ? { corrupt: got.reason } : got.bytes;
  }
  const got = inflatePeek(compressed, size);
  return got.kind === "corrupt" ? { corrupt: got.reason } : got.complete ? got.bytes : "past";
}

/** Throws unless `type SIZE\0content` hashes to `oid`. */
function checkSum(oid: string, type: ObjectType, content: Uint8Array, sha1Hex: Sha1Hex): void {
  const head = new TextEncoder().encode(`${type} ${content.length}\0`);
  const got = sha1Hex([head, content]);
  if (got !== oid) throw gitError("InternalError", `SHA check failed! Expected ${oid}, computed ${got}`);
}

function varint(delta: Uint8Array, at: { p: number }): number {
  const size = deltaSize(delta, at);
  if (size === undefined) throw gitError("InternalError", "a delta's size header is cut short");
  return size;
}

/** Applies a git delta to `base`; every copy must lie inside the base and the delta, and the result must be its declared size. */
export function applyDelta(delta: Uint8Array, base: Uint8Array): Uint8Array {
  const at = { p: 0 };
  if (varint(delta, at) !== base.length) throw gitError("InternalError", "a delta's base size does not match its base");
  const out = new Uint8Array(varint(delta, at));
  let n = 0;
  while (at.p < delta.length) {
    const op = delta[at.p++] ?? 0;
    if (op & 0x80) {
      let offset = 0;
      let size = 0;
      for (let k = 0; k < 4; k++) if (op & (1 << k)) offset += (delta[at.p++] ?? 0) * 2 ** (8 * k);
      for (let k = 0; k < 3; k++) if (op & (16 << k)) size += (delta[at.p++] ?? 0) << (8 * k);
      if (size === 0) size = 0x10000;
      if (offset + size > base.length || n + size > out.length) throw gitError("InternalError", "a delta copies past its base or its result");
      out.set(base.subarray(offset, offset + size), n);
      n += size;
    } else {
      if (op === 0 || n + op > out.length || at.p + op > delta.length) throw gitError("InternalError", "a delta inserts past its result");
      out.set(delta.subarray(at.p, at.p + op), n);
      n += op;
      at.p += op;
    }
  }
  if (at.p > delta.length) throw gitError("InternalError", "a delta's last copy runs past its end");
  if (n !== out.length) throw gitError("InternalError", `a delta builds ${n} of the ${out.length} bytes it declares`);
  return out;
}

interface StoreParts {
  readonly dir: ObjectDir;
  /** The guarded fs's readFile (see git-guard.ts). */
  readonly readFile: (path: string) => Promise<Uint8Array | string>;
  /** The largest object read, by the size its header declares. */
  readonly maxObjectBytes: number;
  readonly vet: (oid: string, found: PackedAt) => Promise<void>;
  readonly sha1Hex: Sha1Hex;
  readonly inflate?: Inflate;
}

async function readLoose(parts: StoreParts, oid: string): Promise<GitObject> {
  const path = joinTree(parts.dir.path, `${oid.slice(0, 2)}/${oid.slice(2)}`);
  const raw = await parts.readFile(path).catch((e: unknown) => {
    const code = thrownCode(e);
    throw code === "ENOENT" || code === "ENOTDIR" ? gitError("NotFoundError", `Could not find ${oid}.`) : e;
  });
  const compressed = typeof raw === "string" ? new TextEncoder().encode(raw) : raw;
  const refused = (why: string) => refusal(`the git object ${oid} (${path}) is refused: ${why}`);
  // The header first, inflating only its bytes: its size is checked before the object is inflated.
  const peek = inflatePeek(compressed, LOOSE_HEADER_BYTES);
  if (peek.kind === "corrupt") throw refused(`it is not a valid zlib stream (${peek.reason})`);
  const head = looseHeader(peek.bytes);
  if (head === undefined) throw refused("its header is not TYPE SIZE");
  const { size, length } = head;
  if (size > parts.maxObjectBytes) throw refused(`its header declares a ${head.type} of ${size} bytes, over the limit of ${parts.maxObjectBytes}`);
  // A given inflater first, bounded by the declared size (what it cannot answer, or answers with
  // another size or bytes after the stream, the small one words); then the small inflater: it
  // knows where the stream ends, and DecompressionStream passes over bytes after it on Node 20.
  const fast = inflatedBy(parts.inflate, compressed, length + size);
  if (fast !== undefined && fast.trailing === 0 && fast.bytes.length === length + size) {
    const object = { type: head.type, content: fast.bytes.subarray(length) };
    checkSum(oid, object.type, object.content, parts.sha1Hex);
    return object;
  }
  const whole = inflatePeek(compressed, length + size);
  if (whole.kind === "corrupt") throw gitError("InternalError", `the loose object ${path} is not a valid zlib stream (${whole.reason})`);
  if (!whole.complete) throw refused(`it inflates past the ${size} bytes its header declares`);
  if (whole.bytes.length !== length + size) throw refused(`it is truncated: ${whole.bytes.length - length} of ${size} bytes`);
  // git's own reader (unpack_loose_rest) and fsck: "garbage at end of loose object".
  if (whole.trailing > 0) throw gitError("InternalError", `garbage at end of loose object ${path}: ${whole.trailing} bytes after its zlib stream`);
  const object = { type: head.type, content: whole.bytes.subarray(length) };
  checkSum(oid, object.type, object.content, parts.sha1Hex);
  return object;
}

/**
 * The object reader of one tree: loose objects first (as isomorphic-git reads them; a loose file
 * is tried only where its fan-out directory exists), then packs.
 * Packed entries are vetted (sizes, bounded inflation, chain length) before they are rebuilt.
 */
export function objectReader(parts: StoreParts): ObjectReader {
  const bases = new Map<string, Promise<GitObject>>();
  let kept = 0;
  // `links`: delta links above this entry. The vetter checked the chain as it read it; a large pack
  // is read again here by ranges, so what is read is held to the same bounds once more.
  const entry = async (ix: PackIndex, at: number, links: number): Promise<GitObject> => {
    if (links > MAX_CHAIN_LINKS) throw refusal(`the entry at offset ${at} of ${ix.pack} is refused: its delta chain is longer than ${MAX_CHAIN_LINKS} links`);
    const limit = parts.maxObjectBytes;
    const got = await packEntry(await parts.dir.pack(ix), ix, at, limit);
    if (typeof got === "string") throw gitError("InternalError", `${got} in ${ix.pack}`);
    const { head, compressed } = got;
    const sized = entryBuilds(at, head, compressed, limit);
    if ("problem" in sized) throw refusal(`${sized.problem} in ${ix.pack}`);
    const body = await inflateExactly(compressed, head.size, parts.inflate);
    if (!(body instanceof Uint8Array)) throw gitError("InternalError", `the entry at offset ${at} of ${ix.pack} does not inflate to its size`);
    if (body.length !== head.size)
      throw gitError("InternalError", `the entry at offset ${at} of ${ix.pack} inflates to ${body.length} of the ${head.size} bytes it declares`);
    if (head.base === undefined) return { type: TYPES[head.type] as ObjectType, content: body };
    const base = typeof head.base === "number" ? await baseAt(ix, head.base, links + 1) : await read(head.base);
    return { type: base.type, content: applyDelta(body, base.content) };
  };
  const baseAt = (ix: PackIndex, at: number, links: number): Promise<GitObject> => {
    const key = `${ix.pack}\0${at}`;
    const known = bases.get(key);
    if (known !== undefined) return known;
    const got = entry(ix, at, links);
    // Shared while it is rebuilt; kept once rebuilt only while the budget lasts. Every level of a
    // chain is asked for before any is rebuilt, so the budget is charged as each one settles.
    bases.set(key, got);
    got.then(
      (o) => {
        if (kept + o.content.length <= BASE_BUDGET) kept += o.content.length;
        else bases.delete(key);
      },
      () => bases.delete(key),
    );
    return got;
  };
  const read = async (oid: string): Promise<GitObject> => {
    // git knows the empty tree without storing it.
    if (oid === EMPTY_TREE) return { type: "tree", content: new Uint8Array(0) };
    if (await parts.dir.mayBeLoose(oid)) {
      const loose = await readLoose(parts, oid).catch((e: unknown) => {
        if (thrownCode(e) === "NotFoundError") return undefined;
        throw e;
      });
      if (loose !== undefined) return loose;
    }
    const found = await parts.dir.locate(oid);
    if (found === undefined) throw gitError("NotFoundError", `Could not find ${oid}.`);
    await parts.vet(oid, found);
    const object = await entry(found.ix, found.at, 0);
    checkSum(oid, object.type, object.content, parts.sha1Hex);
    return object;
  };
  return read;
}

/** The default limits of a store: objects up to 64 MiB (the gate's bound on one file), files up to 2 GiB - 1 (the most isomorphic-git reads whole). */
export const DEFAULT_LIMITS: GitLimits = { maxObjectBytes: 64 * 1024 * 1024, maxFileBytes: 2 ** 31 - 1 };

/**
 * The object reader of the object directory `objects`, its files read through `fs` under the guard
 * of `limits`, with the runtime's faster hashing and inflating where given.
 */
export function openStore(fs: GitFs, objects: string, limits: GitLimits, natives: StoreNatives = {}): ObjectReader {
  const files = objectFiles(fs, limits);
  // A pack over maxFileBytes is read by ranges where the fs can, not refused.
  const dir = objectDir(files, objects, Math.min(WHOLE_PACK_BYTES, limits.maxFileBytes));
  return objectReader({
    dir,
    readFile: files.readFile,
    maxObjectBytes: limits.maxObjectBytes,
    vet: packVetter(dir, limits.maxObjectBytes).vetPacked,
    sha1Hex: natives.sha1Hex ?? portableSha1Hex,
    ...(natives.inflate && { inflate: natives.inflate }),
  });
}
