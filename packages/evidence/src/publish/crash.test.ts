import { describe, expect, test } from "vitest";
import { describeEvidenceFault } from "../fault.js";
import { jsonInt } from "../record/number.js";
import type { EvidenceRecord } from "../record/schema.js";
import { faultyStoreFs } from "../testing/faulty-store-fs.js";
import type { StoreFs } from "../store/port.js";
import { memoryForge, type MemoryForge } from "../testing/memory-forge.js";
import { sampleRecord } from "../../test/support/testkit.js";
import { grantFor } from "../../test/support/fixture.js";
import { memStore, memVolumeFs, ownComments, claimHolds } from "../../test/support/memfixture.js";
import { prepare } from "./prepare.js";
import { publish } from "./publish.js";

const first = sampleRecord();
const second: EvidenceRecord = { ...first, timestamp: jsonInt(101) };

/**
 * The run under test: open the store, prepare, publish (twice), then prepare changed content and
 * publish the update (twice). Stops at the first error (a crash surfaces as one); returns it, if any.
 */
async function run(fs: StoreFs, forge: MemoryForge, afterCrash = false): Promise<string | null> {
  const opened = await memStore(fs, afterCrash);
  if (opened.isErr()) return opened.error.code;
  const store = opened.value;
  for (const record of [first, second]) {
    const path = await prepare(record, { store });
    if (path.isErr()) return path.error.code;
    // Twice: the second run re-checks a published record (a retried job), and may crash too.
    for (let again = 0; again < 2; again += 1) {
      const done = await publish(path.value, { store, transport: forge.transport, authority: grantFor(record) });
      if (done.isErr()) return done.error.code;
    }
  }
  return null;
}

/** Wraps a StoreFs so every envelope state that lands by rename is remembered (by its bytes). */
function recording(inner: StoreFs, states: Set<string>): StoreFs {
  const text = (b: Uint8Array): string => new TextDecoder().decode(b);
  return {
    ...inner,
    uid: () => inner.uid(),
    rename: (from, to) =>
      inner
        .rename(from, to)
        .andThen(() => inner.readFile(to, 1 << 30))
        .map((b) => {
          states.add(text(b));
        }),
  };
}

describe("crash safety (issue §4.1)", () => {
  test("a crash at every operation leaves a loadable old-or-new envelope, never an unproven published claim", async () => {
    const states = new Set<string>();
    const cleanForge = memoryForge();
    const counter = faultyStoreFs(recording(memVolumeFs(), states), {});
    expect(await run(counter, cleanForge)).toBeNull();
    const total = counter.count;
    expect(total).toBeGreaterThan(20);
    const fresh = (await memStore(memVolumeFs()))._unsafeUnwrap();
    const path = fresh.pathFor(first);

    for (let k = 1; k <= total; k += 1) {
      const fs = memVolumeFs();
      const forge = memoryForge();
      const crashed = faultyStoreFs(fs, { crashAt: k });
      const stopped = await run(crashed, forge);
      expect(stopped, `crash at ${k}`).toBe("store-fs");
      expect(crashed.crashed).toBe(true);

      const reopened = await memStore(fs, true);
      if (reopened.isErr()) {
        expect(describeEvidenceFault(reopened.error).length, `crash at ${k}`).toBeGreaterThan(0);
        continue;
      }
      const store = reopened.value;
      const exists = (await store.exists(path))._unsafeUnwrap();
      if (exists) {
        const bytes = new TextDecoder().decode((await fs.readFile(path, 1 << 30))._unsafeUnwrap());
        expect(states.has(bytes), `crash at ${k}: envelope is one saved state`).toBe(true);
        const env = (await store.load(path))._unsafeUnwrap();
        expect(claimHolds(env.record, forge), `crash at ${k}: published only with its comment`).toBe(true);
        if (env.record.evidence_status === "published") expect(env.write_state).toBe("confirmed");
        // A pending record always says why: never the `null` only a published one carries.
        else expect(env.reason, `crash at ${k}: a pending record has a reason`).not.toBeNull();
      }
      expect(ownComments(forge, first).length, `crash at ${k}`).toBeLessThanOrEqual(1);

      // Recovery: running the whole thing again on the survivor publishes exactly one comment.
      expect(await run(fs, forge, true), `recovery after crash at ${k}`).toBeNull();
      const recovered = (await store.load(path))._unsafeUnwrap().record;
      expect(recovered.evidence_status).toBe("published");
      expect(claimHolds(recovered, forge)).toBe(true);
      expect(forge.comments.size, `crash at ${k}`).toBe(1);
    }
  });
});
