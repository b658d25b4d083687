import { type ResultAsync, err, errAsync, ok, okAsync, safeTry, type Result } from "neverthrow";
import type { EvidenceFault } from "../fault.js";
import { commentBody, keyHash, recordKey } from "../record/hash.js";
import type { Envelope, SavedRecord } from "../store/envelope.js";
import type { StoreFault } from "../store/fault.js";
import type { PendingStore } from "../store/store.js";
import type { ForgeTarget, Transport, TransportError } from "../transport/port.js";
import type { PublicationAuthority } from "./authority.js";
import { checkAuthor, checkAuthority, checkReadback, ownMatches, type OwnMatch } from "./checks.js";
import type { PublishFault } from "./fault.js";
import { guarded } from "./guard.js";
import { withKeyLock } from "./locking.js";

/** The stop reasons that say the forge could not be reached or answered, nothing about the comment. */
const TRANSPORT_CODES: ReadonlySet<string> = new Set<TransportError["code"]>(["transport-unavailable", "transport-unknown-outcome", "transport-refused"]);

/** Why the state machine stopped early: a reason to stay pending, or the local store failing. */
type Stop = { readonly kind: "pending"; readonly fault: PublishFault } | { readonly kind: "store"; readonly fault: StoreFault };

/** One publication in progress: the envelope as last saved. */
interface Run {
  readonly store: PendingStore;
  readonly transport: Transport;
  env: Envelope;
}

/** Stay pending for `fault`. */
function pending(fault: PublishFault): Stop {
  return { kind: "pending", fault };
}

/** A transport call that never throws or rejects; its failure is a reason to stay pending. */
function call<T>(make: () => PromiseLike<Result<T, TransportError>>, fallback: TransportError["code"]): ResultAsync<T, Stop> {
  return guarded(make, fallback).mapErr(pending);
}

/** Saves the next envelope; it becomes the run's state once written. */
function put(run: Run, next: Envelope): ResultAsync<void, Stop> {
  return run.store
    .save(next)
    .map(() => {
      run.env = next;
    })
    .mapErr((fault): Stop => ({ kind: "store", fault }));
}

function targetOf(record: SavedRecord): Result<ForgeTarget, Stop> {
  const pr = Number(record.pr.value);
  if (!Number.isSafeInteger(pr)) return err(pending({ code: "unaddressable-pr", pr: record.pr.value.toString() }));
  return ok({ repo: record.repo, pr });
}

/** An own comment exists: update it only when its body differs and its content is a known revision. */
function reviseExisting(run: Run, target: ForgeTarget, own: OwnMatch, body: string): ResultAsync<number, Stop> {
  const known = run.env.comment_id;
  if (known !== null && known !== own.id) return errAsync(pending({ code: "comment-moved", expected: known, found: own.id }));
  if (own.body === body) return okAsync(own.id);
  if (!run.env.record.history.includes(own.contentSha256)) {
    return errAsync(pending({ code: "unrecognized-revision", commentId: own.id, contentSha256: own.contentSha256 }));
  }
  return put(run, { ...run.env, write_state: "uncertain", comment_id: own.id, reason: "write-in-flight" })
    .andThen(() => call(() => run.transport.update({ ...target, commentId: own.id, body }), "transport-unknown-outcome"))
    .andThen((returned) => (returned === own.id ? ok(own.id) : err(pending({ code: "write-identity-mismatch", expected: own.id, returned }))));
}

/** No own comment: create one only after confirmed absence and never when one was written before. */
function createFresh(run: Run, target: ForgeTarget, absenceConfirmed: boolean, body: string): ResultAsync<number, Stop> {
  const known = run.env.comment_id;
  if (known !== null) return errAsync(pending({ code: "known-comment-unavailable", commentId: known }));
  if (!absenceConfirmed) return errAsync(pending({ code: "absence-unconfirmed" }));
  const keyHashHex = keyHash(recordKey(run.env.record));
  return put(run, { ...run.env, write_state: "uncertain", reason: "write-in-flight" })
    .andThen(() => call(() => run.transport.create({ ...target, body, keyHash: keyHashHex }), "transport-unknown-outcome"))
    .andThen((id) =>
      typeof id === "number" && Number.isSafeInteger(id) && id > 0
        ? put(run, { ...run.env, comment_id: id }).map(() => id)
        : errAsync(pending({ code: "write-identity-mismatch", expected: null, returned: id })),
    );
}

/** The seed's state machine after the pending save: authority, author, lookup, write, readback. */
function machine(run: Run, authority: unknown): ResultAsync<void, Stop> {
  return safeTry(async function* () {
    const record = run.env.record;
    yield* checkAuthority(record, authority).mapErr(pending);
    const actor = yield* call(() => run.transport.currentAuthor(), "transport-unavailable");
    yield* checkAuthor(record, actor).mapErr(pending);
    const target = yield* targetOf(record);
    const keyHashHex = keyHash(recordKey(record));
    // A create an earlier run sent and never heard back from may still land: the forge's listing
    // may not show it yet, so absence is judged only after the transport's settle delay.
    const unsettled = run.env.write_state === "uncertain" && run.env.comment_id === null;
    const lookup = yield* call(() => run.transport.lookup({ ...target, keyHash: keyHashHex, ...(unsettled ? { unsettled } : {}) }), "transport-unavailable");
    const verdict = yield* ownMatches(lookup, record).mapErr(pending);
    const body = commentBody(record);
    const commentId =
      verdict.own === null ? yield* createFresh(run, target, verdict.absenceConfirmed, body) : yield* reviseExisting(run, target, verdict.own, body);
    const readback = yield* call(() => run.transport.read({ ...target, commentId }), "transport-unavailable");
    const url = yield* checkReadback(readback, record, commentId, body).mapErr(pending);
    const published: SavedRecord = { ...run.env.record, evidence_status: "published", canonical_url: url };
    yield* put(run, { record: published, write_state: "confirmed", comment_id: commentId, reason: null });
    return ok(undefined);
  });
}

/**
 * What one `publish` run ended with: the record as saved, and why the run stopped short of a
 * confirmed publication (`null` when it confirmed one). `stopped.code` is the `reason` saved in the
 * envelope; the fault's other members (an HTTP status in the transport's message, the author
 * expected and found) say what to do, through `describePublishFault`.
 */
export interface PublishOutcome {
  readonly record: SavedRecord;
  readonly stopped: PublishFault | null;
}

/** Loads the envelope afresh, saves it pending first, runs the machine, and records why it stopped. */
function underLock(path: string, opts: PublishOptions): ResultAsync<PublishOutcome, EvidenceFault> {
  return safeTry(async function* () {
    const loaded = yield* opts.store.load(path);
    // Pending while the run decides, with a reason should it never finish (a crash, a kill): a
    // published record's claim is withdrawn until this run proves it again, never left standing.
    const first: Envelope = {
      ...loaded,
      record: { ...loaded.record, evidence_status: "evidence-pending", canonical_url: null },
      reason: loaded.reason ?? "not-published",
    };
    yield* opts.store.save(first);
    const run: Run = { store: opts.store, transport: opts.transport, env: first };
    const outcome = await machine(run, opts.authority);
    let stopped: PublishFault | null = null;
    if (outcome.isErr()) {
      if (outcome.error.kind === "store") return err(outcome.error.fault);
      stopped = outcome.error.fault;
      const code = stopped.code;
      // A published record the forge could not be asked about (nothing written this run) keeps
      // its status and URL; only evidence against the claim takes it back to pending.
      const kept = loaded.record.evidence_status === "published" && run.env === first && TRANSPORT_CODES.has(code);
      const saved: Envelope = { ...(kept ? loaded : run.env), reason: code };
      yield* opts.store.save(saved);
      run.env = saved;
    }
    return ok({ record: run.env.record, stopped });
  });
}

/** What `publish` needs: the store, the transport, and the host's authority for this record. */
export interface PublishOptions {
  readonly store: PendingStore;
  readonly transport: Transport;
  readonly authority?: PublicationAuthority;
}

/**
 * Publishes the envelope at `path` as exactly one canonical comment, under the store's per-key
 * lock. Resolves to the record: `published` only after a matching readback, otherwise
 * `evidence-pending` with the reason saved in the envelope. A record already published that this
 * run could not check (the forge unreachable, nothing written) stays published with its URL, the
 * transport failure saved as its `reason`. Err only when the store fails.
 */
export function publish(path: string, opts: PublishOptions): ResultAsync<SavedRecord, EvidenceFault> {
  return publishOutcome(path, opts).map((outcome) => outcome.record);
}

/** `publish`, also giving the fault that stopped the run short of a confirmed publication (see `PublishOutcome`). */
export function publishOutcome(path: string, opts: PublishOptions): ResultAsync<PublishOutcome, EvidenceFault> {
  return opts.store.load(path).andThen((found) => withKeyLock(opts.store, recordKey(found.record), () => underLock(path, opts)));
}
