// report.json is printed only when it is a run report: JSON that run-report.schema.json accepts,
// with no field the schema does not name. Anything else is refused with what is wrong, never thrown.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { REPORT } from "../../test/run-report-fixture.js";
import { RunReport } from "../schema.js";
import { checkRunReport } from "./report.js";

describe("checkRunReport", () => {
  test("a run's report is kept byte for byte", () => {
    const text = `${JSON.stringify(REPORT, null, 2)}\n`;
    expect(RunReport.safeParse(REPORT).success).toBe(true);
    expect(checkRunReport(text)._unsafeUnwrap()).toBe(text);
  });

  test.each([
    ['{"status":"gre', /^not JSON \(/],
    ["\0".repeat(64), /^not JSON \(/],
    ["", /^not JSON \(/],
    ['{"status":"green"}', /^field version: .*\(run-report\.schema\.json\)$/],
    [`{"status":"green",${JSON.stringify(REPORT).slice(1)}`, /^the key "status" is repeated \(at character \d+\): a run writes each once$/],
    [JSON.stringify({ ...REPORT, status: "done" }), /^field status: /],
    [JSON.stringify({ ...REPORT, verdict: "green" }), /^field verdict is not in run-report\.schema\.json$/],
    [JSON.stringify({ ...REPORT, stages: [{ ...REPORT.stages[0], extra: 1 }] }), /^field stages\[0\]\.extra is not in run-report\.schema\.json$/],
    [JSON.stringify({ ...REPORT, cost: { ...REPORT.cost, tokens: { ...REPORT.cost.tokens, review: 3 } } }), /^field cost\.tokens\.review is not in/],
    ['{"__proto__":{"status":"green"},' + JSON.stringify(REPORT).slice(1), /^field __proto__ is not in/],
    [
      JSON.stringify({ ...REPORT, status: "green", stages: [{ ...REPORT.stages[0], optional: false, final: "red", state: "parked" }] }),
      /^status green, but stage S1 is not \(final red, state parked\): a run is green only when every required stage is$/,
    ],
    [
      JSON.stringify({ ...REPORT, stages: [], end: { ...REPORT.end, green: [] } }),
      /^status green, but no stage is green in the final verification: a run that verified nothing is never green$/,
    ],
    [
      JSON.stringify({ ...REPORT, stages: [{ ...REPORT.stages[0], optional: true, final: "not-run" }], end: { ...REPORT.end, green: [] } }),
      /^status green, but no stage is green in the final verification/,
    ],
    [
      JSON.stringify({ ...REPORT, end: { ...REPORT.end, green: ["S1", "S9"] } }),
      /^status green, but end\.green \(S1, S9\) is not the stages green in the final verification \(S1\)$/,
    ],
  ])("refuses %j", (text, reason) => {
    expect(checkRunReport(text)._unsafeUnwrapErr()).toMatch(reason);
  });

  test("never throws; what it keeps, the schema accepts, and a field it does not name is refused", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.json(),
          fc.jsonValue().map((v) => JSON.stringify({ ...REPORT, stages: [v] })),
        ),
        (text) => {
          const out = checkRunReport(text);
          if (out.isOk()) expect(RunReport.safeParse(JSON.parse(text)).success).toBe(true);
        },
      ),
    );
    // A green status is kept exactly when no stage holds the run back from green, some stage is
    // green in the final verification, and end.green names those stages.
    const stage = fc.record({
      optional: fc.boolean(),
      final: fc.constantFrom("green", "red", "not-run"),
      state: fc.constantFrom("green", "escalated", "parked"),
    });
    fc.assert(
      fc.property(fc.array(stage, { maxLength: 4 }), fc.boolean(), (over, honest) => {
        const stages = over.map((o, k) => ({ ...REPORT.stages[0], ...o, id: `S${k + 1}` }));
        const green = stages.filter((s) => s.final === "green").map((s) => s.id);
        const said = honest ? green : [...green, "S9"];
        const out = checkRunReport(JSON.stringify({ ...REPORT, status: "green", stages, end: { ...REPORT.end, green: said } }));
        const holds = stages.every((s) => (s.optional || s.final === "green") && s.state !== "escalated");
        expect(out.isOk()).toBe(holds && green.length > 0 && honest);
      }),
    );
    const names = fc.string({ minLength: 1 }).filter((k) => !Object.hasOwn(REPORT, k));
    fc.assert(
      fc.property(names, fc.jsonValue(), (key, value) => {
        expect(checkRunReport(JSON.stringify({ ...REPORT, [key]: value }))._unsafeUnwrapErr()).toMatch(/is not in run-report\.schema\.json$/);
      }),
    );
  });
});
