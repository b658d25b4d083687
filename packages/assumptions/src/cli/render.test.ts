import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { reportOf } from "../core/check.js";
import type { Report } from "./gate.js";
import { annotation, escapeData, escapeProperty, renderAnnotations, renderHuman, visible } from "./render.js";

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

describe("GitHub workflow commands", () => {
  test("data escapes %, CR and LF; properties also escape : and ,", () => {
    expect(escapeData("100% a\r\nb:c,d")).toBe("100%25 a%0D%0Ab:c,d");
    expect(escapeProperty("dir,x/a:b%.tsv")).toBe("dir%2Cx/a%3Ab%25.tsv");
  });

  test("one ::error per diverged row, naming the assumptions file as given and the row's line", () => {
    expect(renderAnnotations(diverged, "plans/a,b.tsv")).toBe(
      "::error file=plans/a%2Cb.tsv,line=6::the tree holds src/Refunds.ts\n" +
        "::error file=plans/a%2Cb.tsv,line=8::the literal appears: 50%25, a:b\n",
    );
  });

  test("standard input has no file to name, so only the line is given", () => {
    expect(renderAnnotations(diverged, undefined).split("\n")[0]).toBe("::error line=6::the tree holds src/Refunds.ts");
    expect(annotation({}, "x")).toBe("::error::x\n");
  });

  test("an escaped message never holds a raw line break and unescapes to the original", () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const e = escapeData(s);
        expect(e).not.toMatch(/[\r\n]/);
        expect(e.replaceAll("%0A", "\n").replaceAll("%0D", "\r").replaceAll("%25", "%")).toBe(s);
      }),
    );
  });
});
