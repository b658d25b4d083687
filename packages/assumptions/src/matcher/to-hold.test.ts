import { describe, expect, test } from "vitest";
import { reportOf } from "../core/check.js";
import type { Report } from "../core/model.js";
import { toHold } from "../entries/vitest.js";

expect.extend({ toHold });

const held: Report = reportOf("fixtures/gate/plan-holds", [
  { line: 1, kind: "exists", path: "src/payments.ts", status: "hold", detail: "exists" },
  { line: 2, kind: "absent", path: "src/refunds.ts", status: "hold", detail: "absent" },
]);

const decayed: Report = reportOf("fixtures/gate/plan-decayed", [
  { line: 1, kind: "exists", path: "src/payments.ts", status: "hold", detail: "exists" },
  { line: 4, kind: "absent", path: "src/refunds.ts", status: "diverge", detail: "exists as src/Refunds.ts", spelled: "src/Refunds.ts" },
  { line: 7, kind: "lacks", path: "src/payments.ts", status: "diverge", detail: "the literal is present" },
]);

describe("expect(report).toHold()", () => {
  test("passes on a report whose every row held, and typechecks as an assertion", () => {
    expect(held).toHold();
    expect({ report: held }).toEqual({ report: expect.toHold() });
  });

  test("fails on a diverged report, listing each diverged row and no held one", () => {
    expect(() => expect(decayed).toHold()).toThrow(/^expected the plan to hold against fixtures\/gate\/plan-decayed/);
    const message = toHold(decayed).message();
    expect(message).toContain("expected the plan to hold against fixtures/gate/plan-decayed, but 2 of 3 assumption(s) diverged:");
    expect(message).toContain("line 4: absent src/refunds.ts - exists as src/Refunds.ts");
    expect(message).toContain("line 7: lacks src/payments.ts - the literal is present");
    expect(message).not.toContain("line 1:");
  });

  test(".not passes on a diverged report and fails on one that held", () => {
    expect(decayed).not.toHold();
    expect(() => expect(held).not.toHold()).toThrow(/not to hold against fixtures\/gate\/plan-holds, but all 2/);
  });

  test("a report that checked nothing never holds", () => {
    const empty: Report = { verdict: "holds", root: "r", checked: 0, held: 0, diverged: 0, rows: [] };
    expect(() => expect(empty).toHold()).toThrow(/checked no assumptions/);
  });

  test("a value that is not a Report fails with a clear message, even under .not", () => {
    for (const bad of [undefined, null, 42, "holds", [], { verdict: "holds" }]) {
      expect(() => expect(bad).toHold()).toThrow(/toHold\(\) expects a Report from checkTree\(\)/);
      expect(() => expect(bad).not.toHold()).toThrow(/toHold\(\) expects a Report/);
    }
  });

  test("a Report whose counts contradict its rows is refused, never trusted", () => {
    const lying = { ...decayed, verdict: "holds" as const };
    expect(() => expect(lying).toHold()).toThrow(/verdict and counts disagree/);
    expect(() => expect({ ...held, held: 1 }).toHold()).toThrow(/verdict and counts disagree/);
  });
});
