// An orchestrator that publishes post-merge evidence through its own forge: a JSON file.
// It saves the evidence locally, publishes, "crashes" after the forge applied the write but before
// the answer arrived, then restarts and publishes again: the retry finds the comment it already
// wrote, reads it back and claims `published`, without writing a second comment.
import {
  describeEvidenceFault,
  grantPublication,
  parseRecordJson,
  prepare,
  publish,
  type EvidenceFault,
  type ForgeAuthor,
  type PendingStore,
  type SavedRecord,
  type Transport,
} from "@decay/evidence";
import { nodePendingStore } from "@decay/evidence/node";
import { jsonFileForge } from "./json-file-forge.js";

/** Where the orchestrator works: the checkout the evidence belongs to, HOME for the store, the forge file. */
export interface OrchestratorOptions {
  readonly projectDir: string;
  readonly homeDir: string;
  readonly forgeFile: string;
  /** The evidence record as JSON text (`evidence-record-v1`). */
  readonly recordJson: string;
}

/** What happened on each run of the orchestrator. */
export interface OrchestratorReport {
  /** The first run: the forge applied the create, then the process died. */
  readonly crashed: { readonly status: SavedRecord["evidence_status"]; readonly reason: string | null };
  /** The run after the restart. */
  readonly recovered: { readonly status: SavedRecord["evidence_status"]; readonly canonicalUrl: string | null };
  /** The envelope's path in the local store. */
  readonly path: string;
}

/** A fault the orchestrator cannot go on from (its store failing): stop with the one sentence. */
function fail(fault: EvidenceFault): never {
  throw new Error(describeEvidenceFault(fault));
}

function openStore(opts: OrchestratorOptions): Promise<PendingStore> {
  return nodePendingStore({ repo: opts.projectDir, home: opts.homeDir, env: {} }).match((s) => s, fail);
}

/** One process's work: open the store, publish the envelope at `path` through `transport`. */
async function publishOnce(opts: OrchestratorOptions, path: string, transport: Transport): Promise<{ store: PendingStore; saved: SavedRecord }> {
  const store = await openStore(opts);
  const { record } = await store.load(path).match((e) => e, fail);
  // The host's own decision to publish exactly this content, made now (never read from a file).
  const authority = grantPublication({
    repo: record.repo,
    pr: record.pr.value,
    task: record.task,
    attempt: record.attempt,
    authorId: record.author.id.value,
    authorLogin: record.author.login,
    contentSha256: record.content_sha256,
    allowPublish: true,
  });
  const saved = await publish(path, { store, transport, authority }).match((r) => r, fail);
  return { store, saved };
}

/** Runs the whole story: prepare, publish into a crash, restart, publish again. */
export async function runOrchestrator(opts: OrchestratorOptions): Promise<OrchestratorReport> {
  const record = parseRecordJson(opts.recordJson).match((r) => r, fail);
  const author: ForgeAuthor = { id: record.author.id.value, login: record.author.login };
  const store = await openStore(opts);
  const path = await prepare(record, { store }).match((p) => p, fail);

  const first = await publishOnce(opts, path, jsonFileForge({ file: opts.forgeFile, author, crashAfterWrite: true }));
  const envelope = await first.store.load(path).match((e) => e, fail);

  const second = await publishOnce(opts, path, jsonFileForge({ file: opts.forgeFile, author }));
  return {
    crashed: { status: first.saved.evidence_status, reason: envelope.reason },
    recovered: { status: second.saved.evidence_status, canonicalUrl: second.saved.canonical_url },
    path,
  };
}
