import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { jsonInt } from "../record/number.js";
import type { EvidenceRecord } from "../record/schema.js";
import type { SavedRecord } from "../store/envelope.js";
import type { PendingStore } from "../store/store.js";
import { memoryForge, type MemoryForge, type MemoryForgeFaults } from "../testing/memory-forge.js";
import { sampleRecord } from "../../test/support/testkit.js";
import { grantFor } from "../../test/support/fixture.js";
import { memStore, memVolumeFs, ownComments, claimHolds } from "../../test/support/memfixture.js";
import { prepare } from "./prepare.js";
import { publish } from "./publish.js";

/** One step of a schedule: the forge's faults during one `publish`, what appears on the forge first, and whether the content changed. */
interface Step {
  readonly faults: MemoryForgeFaults;
  readonly plant: "none" | "foreign" | "duplicate-own" | "fillers";
  readonly newContent: boolean;
}

const step: fc.Arbitrary<Step> = fc.record({
  faults: fc.record({
    unavailable: fc.boolean(),
    unknownWrite: fc.boolean(),
    hidden: fc.boolean(),
    mismatch: fc.boolean(),
    lostPage: fc.boolean(),
  }),
  plant: fc.constantFrom("none", "none", "foreign", "duplicate-own", "fillers"),
  newContent: fc.boolean(),
});

const OUTSIDER = { id: 99n, login: "outsider" };

/** Puts what the step plants on the forge; returns the ids of planted own duplicates. */
function plant(forge: MemoryForge, record: EvidenceRecord, what: Step["plant"]): number[] {
  const target = { repo: record.repo, pr: Number(record.pr.value) };
  const own = ownComments(forge, record)[0];
  if (what === "foreign") forge.plant({ ...target, body: own?.body ?? "a remark", author: OUTSIDER });
  if (what === "fillers") for (let i = 0; i < 4; i += 1) forge.plant({ ...target, body: `filler ${i}`, author: OUTSIDER });
  if (what === "duplicate-own" && own !== undefined) return [forge.plant({ ...target, body: own.body, author: forge.author })];
  return [];
}

async function publishOnce(store: PendingStore, path: string, forge: MemoryForge, record: EvidenceRecord): Promise<SavedRecord> {
  const result = await publish(path, { store, transport: forge.transport, authority: grantFor(record) });
  return result._unsafeUnwrap();
}

/** Runs one schedule and checks the invariants after every call, then the recovery. */
async function runSchedule(store: PendingStore, task: string, steps: readonly Step[]): Promise<void> {
  const forge = memoryForge({ pageSize: 3 });
  let record = sampleRecord({ task });
  let path = (await prepare(record, { store }))._unsafeUnwrap();
  const duplicates: number[] = [];
  let previous: SavedRecord | undefined;
  for (const [i, s] of steps.entries()) {
    duplicates.push(...plant(forge, record, s.plant));
    if (s.newContent) {
      record = { ...record, timestamp: jsonInt(200 + i) };
      path = (await prepare(record, { store }))._unsafeUnwrap();
    }
    Object.assign(forge.faults, s.faults);
    const result = await publishOnce(store, path, forge, record);
    // A published record the forge could not be asked about stays published, its URL kept.
    const kept = s.faults.unavailable && !s.newContent && previous?.evidence_status === "published";
    if (kept) expect(result).toEqual(previous);
    // Otherwise never published unless the readback matched what was written.
    else if (s.faults.mismatch || s.faults.unavailable) expect(result.evidence_status).toBe("evidence-pending");
    previous = result;
    expect(claimHolds(result, forge)).toBe(true);
    // Never a second own comment, except the ones the forge was given.
    expect(forge.writes.filter((w) => w === "create").length).toBeLessThanOrEqual(1);
    expect(ownComments(forge, record).length).toBeLessThanOrEqual(1 + duplicates.length);
  }
  Object.assign(forge.faults, { unavailable: false, unknownWrite: false, hidden: false, mismatch: false, lostPage: false });
  for (const id of duplicates) forge.comments.delete(id);
  const final = await publishOnce(store, path, forge, record);
  expect(final.evidence_status).toBe("published");
  expect(ownComments(forge, record)).toHaveLength(1);
  expect(claimHolds(final, forge)).toBe(true);
  expect((await store.load(path))._unsafeUnwrap()).toMatchObject({ record: final, write_state: "confirmed", reason: null });
}

describe("transport fault schedules (issue §4.2)", () => {
  test("no duplicate, no unproven published, and publication once the faults stop", async () => {
    // One store for every schedule (each schedule publishes its own task), so runs stay cheap.
    const store = (await memStore(memVolumeFs()))._unsafeUnwrap();
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 3 }), (steps) => {
        runs += 1;
        return runSchedule(store, `Task ${runs}`, steps);
      }),
      { numRuns: 1000 },
    );
    // A thousand schedules of real store work (each publish loads, validates and fsyncs on memfs).
  }, 600_000);
});
