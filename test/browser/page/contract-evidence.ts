// The contract and evidence cores in a page: compile a staged plan into its acceptance contract,
// then build an evidence record, hash it, save it in a memfs store and publish it exactly once
// through an in-memory transport.
import { compileContract, describeFault, parseContract, readPlan, renderContract } from "@decay/contract";
import {
  contentHash,
  describeEvidenceFault,
  grantPublication,
  memfsStoreFs,
  openPendingStore,
  parseRecordJson,
  prepare,
  publish,
  type EvidenceFault,
} from "@decay/evidence";
import { memfs } from "memfs";
import { pageForge } from "./memory-transport.js";

/** The compiled contract (as JSON) and whether it round-trips through contract.md. */
export async function compileInPage(planPath: string, planText: string): Promise<{ contract: unknown; roundTrips: boolean }> {
  const plan = readPlan(planText);
  if (plan.isErr()) throw new Error(describeFault(plan.error));
  const contract = await compileContract(plan.value, { planPath, planText });
  if (contract.isErr()) throw new Error(describeFault(contract.error));
  const reparsed = parseContract(renderContract(contract.value));
  const roundTrips = reparsed.isOk() && JSON.stringify(reparsed.value) === JSON.stringify(contract.value);
  return { contract: JSON.parse(JSON.stringify(contract.value)), roundTrips };
}

/** What publishing one record in the page did. */
export interface Published {
  readonly contentHash: string;
  readonly status: string;
  /** Why the envelope is still pending, when it is. */
  readonly reason: string | null;
  readonly canonicalUrl: string | null;
  /** Every comment the forge holds. */
  readonly comments: readonly { readonly url: string; readonly body: string }[];
}

function fail(fault: EvidenceFault): never {
  throw new Error(describeEvidenceFault(fault));
}

/** Validates `recordJson`, saves it in a memfs store, publishes it through an in-memory forge, twice. */
export async function publishInPage(recordJson: string): Promise<Published> {
  const record = parseRecordJson(recordJson).match((r) => r, fail);
  const { fs } = memfs({ "/work/.git/HEAD": "ref: refs/heads/main\n", "/home/.keep": "" });
  const store = await openPendingStore({
    repo: "/work",
    home: "/home",
    fs: memfsStoreFs(fs),
    env: {},
    lockIdentity: { pid: 1, host: "browser", isAlive: () => true, now: () => Date.now() },
  }).match((s) => s, fail);
  const path = await prepare(record, { store }).match((p) => p, fail);
  const forge = pageForge({ id: record.author.id.value, login: record.author.login });
  // The host's own decision to publish exactly the saved content.
  const prepared = (await store.load(path).match((e) => e, fail)).record;
  const authority = grantPublication({
    repo: prepared.repo,
    pr: prepared.pr.value,
    task: prepared.task,
    attempt: prepared.attempt,
    authorId: prepared.author.id.value,
    authorLogin: prepared.author.login,
    contentSha256: prepared.content_sha256,
    allowPublish: true,
  });
  await publish(path, { store, transport: forge.transport, authority }).match((s) => s, fail);
  // Publishing again finds the comment it wrote, reads it back, and writes nothing new.
  const saved = await publish(path, { store, transport: forge.transport, authority }).match((s) => s, fail);
  const envelope = await store.load(path).match((e) => e, fail);
  return {
    contentHash: contentHash(record),
    status: saved.evidence_status,
    reason: envelope.reason,
    canonicalUrl: saved.canonical_url,
    comments: forge.comments.map((c) => ({ url: c.url, body: c.body })),
  };
}
