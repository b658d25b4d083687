import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { HeldLock, LockIdentity } from "./lock.js";
import type { PendingStore } from "./store.js";
import { nodePendingStore } from "../node/store.js";
import { memCheckout, sampleRecord } from "../../test/support/testkit.js";

const KEY = sampleRecord();
const STALE_MS = 1_000;
const PEOPLE = 3;

type Step =
  | { readonly kind: "lock"; readonly who: readonly number[] }
  | { readonly kind: "release"; readonly who: number }
  | { readonly kind: "restart"; readonly who: number }
  | { readonly kind: "tick"; readonly ms: number };

const person = fc.integer({ min: 0, max: PEOPLE - 1 });
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant("lock" as const), who: fc.uniqueArray(person, { minLength: 1, maxLength: PEOPLE }) }),
  fc.record({ kind: fc.constant("release" as const), who: person }),
  fc.record({ kind: fc.constant("restart" as const), who: person }),
  fc.record({ kind: fc.constant("tick" as const), ms: fc.integer({ min: 0, max: 2 * STALE_MS }) }),
);

/** The world the lock sees: one shared clock, live pids, and each person's current pid. */
interface World {
  clock: number;
  nextPid: number;
  readonly alive: Set<number>;
  readonly pids: number[];
}

function identity(world: World, who: number): LockIdentity {
  return {
    get pid() {
      return world.pids[who] ?? -1;
    },
    host: "here",
    isAlive: (pid) => world.alive.has(pid),
    now: () => world.clock,
  };
}

describe("the lock agrees with a small model", () => {
  test("at most one holder; a free or stale lock goes to exactly one racer; release frees only one's own", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 25 }), async (steps) => {
        const { fs } = memCheckout();
        const world: World = { clock: 0, nextPid: 103, alive: new Set([100, 101, 102]), pids: [100, 101, 102] };
        const stores: PendingStore[] = [];
        for (let who = 0; who < PEOPLE; who++) {
          const opened = await nodePendingStore({ repo: "/repo", home: "/home", fs, env: {}, lockIdentity: identity(world, who) });
          stores.push(opened._unsafeUnwrap());
        }
        let owner: { who: number; pid: number; time: number } | null = null;
        const held = new Map<number, HeldLock>();
        for (const s of steps) {
          if (s.kind === "tick") world.clock += s.ms;
          if (s.kind === "restart") {
            world.alive.delete(world.pids[s.who] ?? -1);
            world.pids[s.who] = world.nextPid++;
            world.alive.add(world.pids[s.who] ?? -1);
            held.delete(s.who);
          }
          if (s.kind === "release") {
            const h = held.get(s.who);
            if (h === undefined) continue;
            (await h.release())._unsafeUnwrap();
            held.delete(s.who);
            if (owner?.who === s.who && owner.pid === world.pids[s.who]) owner = null;
          }
          if (s.kind === "lock") {
            const free = owner === null || !world.alive.has(owner.pid) || world.clock - owner.time > STALE_MS;
            const results = await Promise.all(s.who.map((who) => stores[who]!.lock(KEY, { staleMs: STALE_MS })));
            const winners: number[] = s.who.filter((_, i) => results[i]!.isOk());
            expect(winners).toHaveLength(free ? 1 : 0);
            for (const r of results) if (r.isErr()) expect(r.error.code).toBe("lock-held");
            const winner: number | undefined = winners[0];
            if (winner !== undefined) {
              held.set(winner, results[s.who.indexOf(winner)]!._unsafeUnwrap());
              owner = { who: winner, pid: world.pids[winner] ?? -1, time: world.clock };
            }
          }
        }
      }),
      { numRuns: 100 },
    );
  });
});
