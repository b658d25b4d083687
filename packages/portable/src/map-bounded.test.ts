import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { mapBounded } from "./map-bounded.js";

describe("mapBounded", () => {
  test("property: answers in the items' order, never more than the limit in flight, each item once", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat({ max: 3 }), { maxLength: 40 }), fc.integer({ min: 1, max: 8 }), async (delays, limit) => {
        let running = 0;
        let most = 0;
        const seen: number[] = [];
        const answers = await mapBounded(delays, limit, async (d) => {
          running += 1;
          most = Math.max(most, running);
          for (let k = 0; k < d; k += 1) await Promise.resolve();
          seen.push(d);
          running -= 1;
          return d * 2;
        });
        expect(answers).toEqual(delays.map((d) => d * 2));
        expect(seen.length).toBe(delays.length);
        expect(most).toBeLessThanOrEqual(limit);
      }),
    );
  });
});
