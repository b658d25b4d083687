// Issue 17, 1.9: every stage and every acceptance line written is in the contract or named in the fault.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { planArb } from "../testing/plan-arbitrary.js";
import { readPlan } from "./read-plan.js";

describe("readPlan never drops structure in silence", () => {
  test("over 10,000 generated plans: all of it read, or a fault naming a line of the plan", () => {
    fc.assert(
      fc.property(planArb, (p) => {
        const result = readPlan(p.text);
        if (result.isErr()) {
          // A plan built only from pieces that are read must compile.
          expect(p.bad).toBe(true);
          // The fault names the line of a piece that was written and could not be read.
          expect(p.badLines).toContain(result.error.line);
          return;
        }
        const { stages, prohibitions } = result.value;
        expect(p.bad).toBe(false);
        expect(stages.map((s) => [s.label, s.title])).toEqual(p.stages.map((s) => [s.label, s.title]));
        expect(stages.map((s) => s.acceptance.map((r) => r.run))).toEqual(p.stages.map((s) => s.runs));
        expect(prohibitions).toEqual(p.guardrails);
      }),
      { numRuns: 10_000 },
    );
  });
});
