// Content snapshots: `snapshot-<content hash>.json`, the canonical bytes of one record content.
// The name is the hash of the content and the bytes are a function of it, so a file there that
// holds other bytes can only be damage: `prepare` restores it, `status` reports it.
import { err, ok, type ResultAsync } from "neverthrow";
import { canonicalJson } from "../record/canonical.js";
import { contentHash, recordToJson } from "../record/hash.js";
import type { EvidenceRecord } from "../record/schema.js";
import type { StoreFault } from "./fault.js";
import type { StoreFs } from "./port.js";
import { atomicWrite, sameBytes } from "./write.js";

/** What a record's snapshot file is found to be. */
export type SnapshotState = "ok" | "missing" | "corrupt";

/** The snapshot's path in `root` and the exact bytes it must hold. */
export function snapshotFile(root: string, record: EvidenceRecord): { path: string; bytes: Uint8Array } {
  return {
    path: `${root}/snapshot-${contentHash(record)}.json`,
    bytes: new TextEncoder().encode(`${canonicalJson(recordToJson(record))}\n`),
  };
}

/**
 * Writes the snapshot when it is missing, and writes it again over one holding other bytes (a
 * damaged snapshot is restored from the record, whose content still hashes to its name). An
 * existing one is compared by reading at most one byte more than `bytes`, whatever its size.
 */
export function ensureSnapshot(fs: StoreFs, root: string, path: string, bytes: Uint8Array): ResultAsync<void, StoreFault> {
  return atomicWrite(fs, root, path, bytes, true).orElse((e) => (e.code === "immutable-changed" ? atomicWrite(fs, root, path, bytes, false) : err(e)));
}

/**
 * Reads the snapshot back: `ok` when it holds exactly the record's bytes, else `missing` or
 * `corrupt`. At most one byte more than `bytes` is read, whatever the file's size, so a longer
 * file is `corrupt` (which it is) and never read whole.
 */
export function snapshotState(fs: StoreFs, path: string, bytes: Uint8Array): ResultAsync<SnapshotState, StoreFault> {
  return fs
    .readFile(path, bytes.length + 1)
    .map((found): SnapshotState => (sameBytes(found, bytes) ? "ok" : "corrupt"))
    .orElse((e) => (e.code === "store-fs" && e.errno === "ENOENT" ? ok<SnapshotState, StoreFault>("missing") : err(e)));
}
