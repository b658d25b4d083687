// The blobs a gitTree reader keeps for paths that name a blob it has read before.

/** The most bytes of blobs a reader keeps for paths that name a blob already read. */
const BLOB_BUDGET = 32 * 1024 * 1024;

/** Blobs read, by id; the bytes of those read twice, within BLOB_BUDGET. */
export interface BlobMemo {
  readonly seen: Set<string>;
  readonly bytes: Map<string, Uint8Array>;
  kept: number;
}

/**
 * Copies of one file (vendored packages, a committed node_modules) are one blob under many
 * paths: from its second read a blob is kept (a copy), so later paths skip inflating and checking
 * it. Each read hands out its own copy: a caller may write into what it was given.
 */
export function keepBlob(memo: BlobMemo, oid: string, bytes: Uint8Array): Uint8Array {
  if (!memo.seen.has(oid)) memo.seen.add(oid);
  else if (memo.kept + bytes.length <= BLOB_BUDGET) {
    memo.bytes.set(oid, new Uint8Array(bytes));
    memo.kept += bytes.length;
  }
  return bytes;
}

/** An empty memo, one per reader. */
export function blobMemo(): BlobMemo {
  return { seen: new Set(), bytes: new Map(), kept: 0 };
}
