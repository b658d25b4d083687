// Test helpers for the store tests: real checkouts in temp dirs and a sample record.
// Not exported by the package.
import { execFileSync } from "node:child_process";
import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createFsFromVolume, Volume } from "memfs";
import { tempDir } from "../../../../test-utils/tmp.js";
import { contentHash } from "../../src/record/hash.js";
import { jsonInt } from "../../src/record/number.js";
import type { EvidenceRecord } from "../../src/record/schema.js";
import type { Envelope } from "../../src/store/envelope.js";
import { memfsStoreFs } from "../../src/store/fs-adapter.js";
import type { StoreFs } from "../../src/store/port.js";
import type { PendingStore } from "../../src/store/store.js";

/** A checkout with one commit, a separate HOME beside it, and git bound to the checkout. */
export interface Checkout {
  readonly base: string;
  readonly repo: string;
  readonly home: string;
  git(...args: string[]): string;
}

/** The environment the tests run git in: no system or global configuration. */
export const GIT_ENV = { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" };

/** Runs git in `dir` with the test environment; returns trimmed stdout. */
export function gitIn(dir: string, ...args: string[]): string {
  return execFileSync("git", ["-C", dir, ...args], { env: GIT_ENV, encoding: "utf8" }).trim();
}

/** Makes `<tmp>/repo` (git, one commit of plan.md) and `<tmp>/home`. */
export async function checkout(): Promise<Checkout> {
  const base = realpathSync(await tempDir("decay-store-"));
  const repo = join(base, "repo");
  const home = join(base, "home");
  mkdirSync(repo);
  mkdirSync(home);
  const git = (...args: string[]): string => gitIn(repo, ...args);
  git("init", "-q");
  writeFileSync(join(repo, "plan.md"), "Completion in PR #23.\n");
  git("add", "plan.md");
  git("-c", "user.name=Fixture", "-c", "user.email=fixture@example.test", "commit", "-qm", "Fixture");
  return { base, repo, home, git };
}

/**
 * Makes `<tmp>/repo` holding only `.git/HEAD` (enough for the store, which reads git's files and
 * never runs git outside a legacy folder) and `<tmp>/home`: a real filesystem without a git run.
 */
export async function bareCheckout(): Promise<{ readonly repo: string; readonly home: string }> {
  const base = realpathSync(await tempDir("decay-store-"));
  mkdirSync(join(base, "repo", ".git"), { recursive: true });
  writeFileSync(join(base, "repo", ".git", "HEAD"), "ref: refs/heads/main\n");
  mkdirSync(join(base, "home"));
  return { repo: join(base, "repo"), home: join(base, "home") };
}

/** The seed's record: Task 9, attempt-1, PR 23, author 17/owner. */
export function sampleRecord(patch: Partial<EvidenceRecord> = {}): EvidenceRecord {
  return {
    schema: "evidence-record-v1",
    repo: "forge.test/owner/repo",
    pr: jsonInt(23),
    task: "Task 9",
    attempt: "attempt-1",
    merge_sha: "0123456789abcdef0123456789abcdef01234567",
    deployment: { id: "deployment-8", version: "build-19" },
    timestamp: jsonInt(100),
    checks: [{ command: "verify-deployment", result: "health checks passed" }],
    production_status: "succeeded",
    author: { id: jsonInt(17), login: "owner" },
    previous_attempt: null,
    ...patch,
  };
}

/** A fresh pending envelope for `record` in `store`, as prepare would first save it. */
export function pendingEnvelope(store: Pick<PendingStore, "pathFor">, record: EvidenceRecord): Envelope {
  return {
    record: {
      ...record,
      content_sha256: contentHash(record),
      evidence_status: "evidence-pending",
      canonical_url: null,
      local_pending_path: store.pathFor(record),
      history: [],
    },
    write_state: "never",
    comment_id: null,
    reason: "not-published",
  };
}

/** A memfs volume holding a checkout at `/repo` (just `.git/HEAD`) and an empty `/home`, and its StoreFs. */
export function memCheckout(): { vol: InstanceType<typeof Volume>; fs: StoreFs } {
  const vol = Volume.fromJSON({ "/repo/.git/HEAD": "ref: refs/heads/main\n", "/home/.keep": "" });
  return { vol, fs: memfsStoreFs(createFsFromVolume(vol)) };
}
