import { err, ok, safeTry, type ResultAsync } from "neverthrow";
import type { EvidenceFault } from "../fault.js";
import { canonicalJson } from "../record/canonical.js";
import { contentHash, keyToJson, recordKey, recordToJson } from "../record/hash.js";
import type { EvidenceRecord, PreviousAttempt } from "../record/schema.js";
import { validateRecord } from "../record/validate.js";
import { contentOf, type Envelope, type SavedRecord } from "../store/envelope.js";
import type { PendingStore } from "../store/store.js";
import { withKeyLock } from "./locking.js";

/** Links a new attempt to the immutable desired content of an existing (saved) attempt. */
export function previousAttempt(saved: SavedRecord): PreviousAttempt {
  return { key: recordKey(saved), content_sha256: saved.content_sha256, canonical_url: saved.canonical_url };
}

function proofJson(p: PreviousAttempt): string {
  return canonicalJson({ key: keyToJson(p.key), content_sha256: p.content_sha256, canonical_url: p.canonical_url });
}

/**
 * The earlier attempt named by `previous` must be saved in this store and its proof must equal
 * `previous` exactly; its content snapshot is (re)saved so the link always resolves locally.
 */
function retainPrevious(previous: PreviousAttempt, store: PendingStore): ResultAsync<void, EvidenceFault> {
  return safeTry(async function* () {
    const oldPath = store.pathFor(previous.key);
    const old = yield* store.load(oldPath);
    if (proofJson(previous) !== proofJson(previousAttempt(old.record))) {
      return err({ code: "previous-attempt-mismatch" as const, path: oldPath });
    }
    yield* store.snapshot(contentOf(old.record));
    return ok(undefined);
  });
}

/** What `prepare` needs: the pending store to save into. */
export interface PrepareOptions {
  readonly store: PendingStore;
}

/**
 * Saves `record` locally before any publication: an immutable snapshot of its content and a
 * pending envelope. Resolves to the envelope's path. The same content keeps its identity (and
 * status); changed content for the same attempt appends the old content hash to `history`.
 * Runs under the attempt's per-key lock, like `publish`.
 */
export function prepare(record: EvidenceRecord, opts: PrepareOptions): ResultAsync<string, EvidenceFault> {
  return validateRecord(recordToJson(record)).asyncAndThen((content) =>
    // Under the attempt's lock, so a publish of the same attempt cannot save over the new content.
    withKeyLock(opts.store, recordKey(content), () => saveLocally(content, opts.store)),
  );
}

function saveLocally(content: EvidenceRecord, store: PendingStore): ResultAsync<string, EvidenceFault> {
  return safeTry(async function* () {
    const path = store.pathFor(recordKey(content));
    const prior = (yield* store.exists(path)) ? yield* store.load(path) : null;
    if (content.previous_attempt !== null) yield* retainPrevious(content.previous_attempt, store);
    const digest = contentHash(content);
    // Before any early return: a snapshot deleted or damaged since the last prepare is restored.
    yield* store.snapshot(content);
    if (prior !== null && prior.record.content_sha256 === digest) return ok(path);
    const history = prior === null ? [] : [...prior.record.history, prior.record.content_sha256];
    const saved: SavedRecord = {
      ...content,
      content_sha256: digest,
      evidence_status: "evidence-pending",
      canonical_url: null,
      local_pending_path: path,
      history,
    };
    const envelope: Envelope = {
      record: saved,
      write_state: prior?.write_state ?? "never",
      comment_id: prior?.comment_id ?? null,
      reason: "not-published",
    };
    yield* store.save(envelope);
    return ok(path);
  });
}
