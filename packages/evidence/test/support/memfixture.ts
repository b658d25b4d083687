// Test fixture for the publish properties: a checkout and HOME on a memfs volume (no git
// subprocess), so thousands of runs stay fast. Not exported by the package.
import { createFsFromVolume, Volume } from "memfs";
import { commentBody, keyHash, markerLine, recordKey } from "../../src/record/hash.js";
import type { EvidenceRecord } from "../../src/record/schema.js";
import { memfsStoreFs } from "../../src/store/fs-adapter.js";
import type { StoreFs } from "../../src/store/port.js";
import { processLockIdentity } from "../../src/node/lock-identity.js";
import type { SavedRecord } from "../../src/store/envelope.js";
import { nodePendingStore } from "../../src/node/store.js";
import type { ForgeComment } from "../../src/transport/port.js";
import type { MemoryForge } from "../../src/testing/memory-forge.js";

/** The checkout the memfs store belongs to, and its HOME. */
export const MEM_REPO = "/work/project";
/** HOME on the volume, outside the checkout. */
export const MEM_HOME = "/home/user";

/** A fresh volume holding a minimal checkout (`.git/HEAD`) and an empty HOME; its StoreFs. */
export function memVolumeFs(): StoreFs {
  const vol = Volume.fromJSON({ [`${MEM_REPO}/.git/HEAD`]: "ref: refs/heads/main\n", [`${MEM_HOME}/.keep`]: "" }, "/");
  return memfsStoreFs(createFsFromVolume(vol) as never);
}

/**
 * Opens the pending store for the memfs checkout over `fs`. `afterCrash`: this is a new process
 * after the earlier one died, so a lock that process left behind is stale.
 */
export function memStore(fs: StoreFs, afterCrash = false): ReturnType<typeof nodePendingStore> {
  const lockIdentity = afterCrash ? { ...processLockIdentity(), isAlive: () => false } : undefined;
  return nodePendingStore({ repo: MEM_REPO, home: MEM_HOME, fs, env: {}, lockIdentity });
}

/** The forge's comments carrying `record`'s key marker and written as its author. */
export function ownComments(forge: MemoryForge, record: EvidenceRecord): ForgeComment[] {
  const prefix = `${markerLine(keyHash(recordKey(record)))}\n`;
  return [...forge.comments.values()].filter((c) => c.author_id === record.author.id.value && c.body.startsWith(prefix));
}

/**
 * What "published" must mean on the forge: a comment at the saved canonical URL, written by the
 * record's author, holding exactly the record's comment body. True for a record not published.
 */
export function claimHolds(record: SavedRecord, forge: MemoryForge): boolean {
  if (record.evidence_status !== "published") return true;
  const comment = [...forge.comments.values()].find((c) => c.url === record.canonical_url);
  return comment !== undefined && comment.author_id === record.author.id.value && comment.body === commentBody(record);
}
