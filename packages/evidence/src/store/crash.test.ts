import { describe, expect, test } from "vitest";
import { contentHash } from "../record/hash.js";
import type { EvidenceRecord } from "../record/schema.js";
import type { Envelope } from "./envelope.js";
import { faultyStoreFs } from "../testing/faulty-store-fs.js";
import type { StoreFs } from "./port.js";
import { nodePendingStore } from "../node/store.js";
import { memCheckout, pendingEnvelope, sampleRecord } from "../../test/support/testkit.js";

const OLD = sampleRecord();
const NEW = sampleRecord({ checks: [{ command: "verify-deployment", result: "health and smoke checks passed" }] });

/** The old state, then the new one: the same attempt with changed content and the old hash in history. */
function states(path: string): [Envelope, Envelope] {
  const store = { pathFor: () => path };
  const old = pendingEnvelope(store, OLD);
  const fresh = pendingEnvelope(store, NEW);
  return [old, { ...fresh, record: { ...fresh.record, history: [contentHash(OLD)] }, write_state: "uncertain", comment_id: 4, reason: "write-in-flight" }];
}

/** Opens the store and writes `record`'s snapshot and `envelope`; Err on the first failure. */
async function write(fs: StoreFs, record: EvidenceRecord, envelope: (path: string) => Envelope) {
  const store = await nodePendingStore({ repo: "/repo", home: "/home", fs, env: {} });
  if (store.isErr()) return store;
  const snap = await store.value.snapshot(record);
  if (snap.isErr()) return snap;
  return store.value.save(envelope(store.value.pathFor(record)));
}

describe("crash safety of the store (issue §4.1, store half)", () => {
  test("a crash at any operation of open+snapshot+save leaves the old or the new envelope, never a torn one", async () => {
    const probe = memCheckout();
    (await write(probe.fs, OLD, (p) => states(p)[0]))._unsafeUnwrap();
    const counter = faultyStoreFs(probe.fs, {});
    (await write(counter, NEW, (p) => states(p)[1]))._unsafeUnwrap();
    const total = counter.count;
    expect(total).toBeGreaterThan(10);
    for (let k = 1; k <= total + 1; k++) {
      const { vol, fs } = memCheckout();
      (await write(fs, OLD, (p) => states(p)[0]))._unsafeUnwrap();
      const crashing = faultyStoreFs(fs, { crashAt: k });
      const outcome = await write(crashing, NEW, (p) => states(p)[1]);
      expect(outcome.isOk()).toBe(k > total);
      if (outcome.isErr()) expect(outcome.error).toMatchObject({ code: "store-fs", errno: "ECRASH" });
      const fresh = (await nodePendingStore({ repo: "/repo", home: "/home", fs, env: {} }))._unsafeUnwrap();
      const path = fresh.pathFor(NEW);
      const [old, next] = states(path);
      const loaded = (await fresh.load(path))._unsafeUnwrap();
      expect([old, next]).toContainEqual(loaded);
      const snapshot = `${fresh.root}/snapshot-${contentHash(NEW)}.json`;
      if (loaded.record.content_sha256 === contentHash(NEW)) expect(vol.existsSync(snapshot)).toBe(true);
      if (vol.existsSync(snapshot)) expect(vol.readFileSync(snapshot, "utf8")).toMatch(/^\{.*\}\n$/);
      const stray = (vol.readdirSync(fresh.root) as string[]).filter((n) => !n.startsWith(".pending-") && !n.endsWith(".json"));
      expect(stray).toEqual([]);
      (await write(fs, NEW, (p) => states(p)[1]))._unsafeUnwrap();
      expect((await fresh.load(path))._unsafeUnwrap()).toEqual(next);
    }
  });

  test("a crash during the very first write leaves no envelope or the whole one", async () => {
    for (let k = 1; k <= 40; k++) {
      const { fs } = memCheckout();
      const outcome = await write(faultyStoreFs(fs, { crashAt: k }), OLD, (p) => states(p)[0]);
      const fresh = (await nodePendingStore({ repo: "/repo", home: "/home", fs, env: {} }))._unsafeUnwrap();
      const path = fresh.pathFor(OLD);
      const present = (await fresh.exists(path))._unsafeUnwrap();
      expect(present || outcome.isErr()).toBe(true);
      if (present) expect((await fresh.load(path))._unsafeUnwrap()).toEqual(states(path)[0]);
      expect((await fresh.list())._unsafeUnwrap()).toHaveLength(present ? 1 : 0);
    }
  });
});
