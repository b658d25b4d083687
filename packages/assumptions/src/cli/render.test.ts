import { describe, expect, test } from "vitest";
import { reportOf } from "../core/check.js";
import type { Report } from "./gate.js";
import { rendered, renderHuman, visible } from "./render.js";

const diverged: Report = reportOf("fixtures/gate/plan-decayed", [
  { line: 4, kind: "exists", path: "src/payments.ts", status: "hold", detail: "present" },
  { line: 6, kind: "absent", path: "src/refunds.ts", status: "diverge", detail: "the tree holds src/Refunds.ts", spelled: "src/Refunds.ts" },
  { line: 8, kind: "lacks", path: "src/payments.ts", status: "diverge", detail: "the literal appears: 50%, a:b" },
]);

describe("renderHuman", () => {
  test("one padded line per row, then CHECKED with the root as given, then HALT", () => {
    expect(renderHuman(diverged).split("\n")).toEqual([
      "HOLD    line 4: exists src/payments.ts",
      "DIVERGE line 6: absent src/refunds.ts - the tree holds src/Refunds.ts",
      "DIVERGE line 8: lacks src/payments.ts - the literal appears: 50%, a:b",
      "CHECKED 3 assumption(s) against fixtures/gate/plan-decayed - 1 held, 2 diverged",
      expect.stringMatching(/^HALT: the plan no longer describes this tree\. /),
      "",
    ]);
  });

  test("a report that holds ends with PLAN HOLDS", () => {
    const holds: Report = { ...diverged, verdict: "holds", checked: 1, held: 1, diverged: 0, rows: diverged.rows.slice(0, 1) };
    const lines = renderHuman(holds).trimEnd().split("\n");
    expect(lines[1]).toBe("CHECKED 1 assumption(s) against fixtures/gate/plan-decayed - 1 held, 0 diverged");
    expect(lines[2]).toMatch(/^PLAN HOLDS: /);
  });

  test("control and invisible characters from the tree are shown, never written raw", () => {
    expect(visible("a\nb\u202Ec\u0007")).toBe("a\\u{A}b\\u{202E}c\\u{7}");
    const row = { line: 2, kind: "absent" as const, path: "x", status: "diverge" as const, detail: "tree has x\r\nHOLD" };
    const text = renderHuman({ ...diverged, checked: 1, held: 0, diverged: 1, rows: [row] });
    expect(text.split("\n")[0]).toBe("DIVERGE line 2: absent x - tree has x\\u{D}\\u{A}HOLD");
  });
});

describe("rendered", () => {
  test("a text past the engine's longest string is a report-too-large fault naming the rows, not a crash", () => {
    // `repeat` past the engine's string limit throws the same RangeError a huge report's join does.
    const got = rendered(diverged, () => "x".repeat(2 ** 30));
    expect(got._unsafeUnwrapErr()).toMatchObject({ code: "report-too-large", rows: 3, reason: expect.stringMatching(/string length/) });
    expect(rendered(diverged, () => renderHuman(diverged))._unsafeUnwrap()).toBe(renderHuman(diverged));
  });

  test("any other exception, a stack overflow included, is not a fault of the report's size, and is thrown on", () => {
    expect(() =>
      rendered(diverged, () => {
        throw new TypeError("a bug");
      }),
    ).toThrow(TypeError);
    const deep = (n: number): number => (n === 0 ? 0 : 1 + deep(n - 1));
    expect(() => rendered(diverged, () => deep(1e7))).toThrow(/call stack/);
  });
});
