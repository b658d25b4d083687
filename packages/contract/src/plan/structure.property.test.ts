// Issue 17, 1.9: every stage and every acceptance line written is in the contract or named in the fault.
import fc from "fast-check";
import { describe, test } from "vitest";
import type { GeneratedPlan } from "../../test/support/plan-arbitrary.js";
import { planArb } from "../../test/support/plan-arbitrary.js";
import { readPlan } from "./read-plan.js";

/** What a reader must give for a generated plan: every stage, every row, every guardrail; or a fault at a piece it cannot read. */
function expected(p: GeneratedPlan) {
  return {
    stages: p.stages.map((s) => [s.label, s.title, s.runs]),
    guardrails: p.guardrails,
  };
}

describe("readPlan never drops structure in silence", () => {
  test("over 10,000 generated plans: all of it read, or a fault naming the line of a piece that cannot be read", () => {
    fc.assert(
      fc.property(planArb, (p) => {
        const result = readPlan(p.text);
        if (result.isErr()) {
          // Only a piece nobody can read may fail a plan, and the fault names its line.
          return p.badLines.includes(result.error.line);
        }
        const got = {
          stages: result.value.stages.map((s) => [s.label, s.title, s.acceptance.map((r) => r.run)]),
          guardrails: result.value.prohibitions,
        };
        // Plain comparisons keep 10,000 runs fast; a failure is shrunk and shown by fast-check.
        return !p.bad && JSON.stringify(got) === JSON.stringify(expected(p));
      }),
      { numRuns: 10_000 },
    );
  });
});
