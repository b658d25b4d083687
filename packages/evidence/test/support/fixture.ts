// Test fixture for the publish tests: a real checkout in a temp dir, a store in a separate HOME,
// the in-memory forge whose write hook inspects the store. Not exported by the package.
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { contentHash } from "../../src/record/hash.js";
import type { EvidenceRecord } from "../../src/record/schema.js";
import type { Envelope, SavedRecord } from "../../src/store/envelope.js";
import { nodeStoreFs } from "../../src/node/store-fs.js";
import type { PendingStore } from "../../src/store/store.js";
import { nodePendingStore } from "../../src/node/store.js";
import { checkout, sampleRecord, type Checkout } from "./testkit.js";
import { memoryForge, type MemoryForge } from "../../src/testing/memory-forge.js";
import { grantPublication, type PublicationAuthority } from "../../src/publish/authority.js";
import { prepare } from "../../src/publish/prepare.js";
import { publish } from "../../src/publish/publish.js";

/** What the forge's write hook saw in the store just before a create or update was applied. */
export interface WriteObservation {
  readonly op: "create" | "update";
  readonly writeState: Envelope["write_state"] | "unreadable";
  readonly status: SavedRecord["evidence_status"] | "unreadable";
  readonly snapshotExists: boolean;
}

/** One publishing scenario: checkout, store, the current envelope path, forge and observations. */
export interface Scenario {
  readonly repo: string;
  readonly store: PendingStore;
  readonly forge: MemoryForge;
  readonly observed: WriteObservation[];
  record: EvidenceRecord;
  path: string;
  git(...args: string[]): string;
  /** prepare(record) and make its envelope the current path. */
  prepareCurrent(): Promise<string>;
  /** The authority the host would grant for the current envelope. */
  authority(): Promise<PublicationAuthority>;
  /** publish(current path) with the given authority (default: `authority()`), unwrapped. */
  publishNow(authority?: unknown): Promise<SavedRecord>;
  load(): Promise<Envelope>;
}

/** The reference's checkout: plan.md and spec.md committed, HOME beside it. */
async function seedCheckout(): Promise<Checkout> {
  const c = await checkout();
  writeFileSync(join(c.repo, "spec.md"), "Approved spec.\n");
  c.git("add", "spec.md");
  c.git("-c", "user.name=Fixture", "-c", "user.email=fixture@example.test", "commit", "-qm", "Fixture squash result");
  return c;
}

/** Builds the seed's setUp: checkout, store, prepared record, forge whose writes are observed. */
export async function scenario(): Promise<Scenario> {
  const { repo, home, git } = await seedCheckout();
  const store = (await nodePendingStore({ repo, home, fs: nodeStoreFs(), env: {} }))._unsafeUnwrap();
  const observed: WriteObservation[] = [];
  const s: Scenario = {
    repo,
    store,
    observed,
    record: sampleRecord({ merge_sha: git("rev-parse", "HEAD") }),
    path: "",
    git,
    forge: memoryForge({
      beforeWrite: async ({ op }) => {
        const env = await store.load(s.path);
        const saved = env.isOk() ? env.value.record : null;
        observed.push({
          op,
          writeState: env.isOk() ? env.value.write_state : "unreadable",
          status: saved?.evidence_status ?? "unreadable",
          snapshotExists: saved !== null && existsSync(join(store.root, `snapshot-${saved.content_sha256}.json`)),
        });
      },
    }),
    prepareCurrent: async () => {
      s.path = (await prepare(s.record, { store }))._unsafeUnwrap();
      return s.path;
    },
    authority: async () => grantFor((await s.load()).record),
    publishNow: async (authority) => {
      const granted = authority === undefined ? await s.authority() : authority;
      const opts = { store, transport: s.forge.transport, authority: granted as PublicationAuthority };
      return (await publish(s.path, opts))._unsafeUnwrap();
    },
    load: async () => (await store.load(s.path))._unsafeUnwrap(),
  };
  await s.prepareCurrent();
  return s;
}

/** The authority a host grants for exactly this record's content (a saved record or a prepared one). */
export function grantFor(r: EvidenceRecord): PublicationAuthority {
  return grantPublication({
    repo: r.repo,
    pr: r.pr.value,
    task: r.task,
    attempt: r.attempt,
    authorId: r.author.id.value,
    authorLogin: r.author.login,
    contentSha256: contentHash(r),
    allowPublish: true,
  });
}
