import { describe, expect, test } from "vitest";
import { junitCases, sarifProblems } from "../../../../test-utils/formats.js";
import { reportOf } from "../core/check.js";
import { githubAnnotations, junitReport, repoPath, sarifReport } from "./formats.js";
import type { Report } from "./gate.js";
import { REPO_ROOT } from "../../test/support/memory-io.js";

const diverged: Report = reportOf("fixtures/gate/plan-decayed", [
  { line: 4, kind: "exists", path: "src/payments.ts", status: "hold", detail: "present" },
  { line: 6, kind: "absent", path: "src/refunds.ts", status: "diverge", detail: "the tree holds src/Refunds.ts", spelled: "src/Refunds.ts" },
  { line: 8, kind: "lacks", path: "src/a:b,c.ts", status: "diverge", detail: "the literal appears: 50%, a:b" },
]);

describe("--format github", () => {
  test("one ::error per diverged row: the file as given, the row's line, a title of kind and path, all escaped", () => {
    expect(githubAnnotations(diverged, "plans/a,b.tsv")).toBe(
      "::error file=plans/a%2Cb.tsv,line=6,title=absent src/refunds.ts::the tree holds src/Refunds.ts\n" +
        "::error file=plans/a%2Cb.tsv,line=8,title=lacks src/a%3Ab%2Cc.ts::the literal appears: 50%25, a:b\n",
    );
  });

  test("standard input has no file to name", () => {
    expect(githubAnnotations(diverged, undefined).split("\n")[0]).toBe("::error line=6,title=absent src/refunds.ts::the tree holds src/Refunds.ts");
  });
});

describe("--format sarif", () => {
  test("a valid SARIF 2.1.0 log with one error result per diverged row, at its line of the assumptions file", () => {
    const out = sarifReport(diverged, "plans/batch.tsv");
    expect(sarifProblems(out)).toEqual([]);
    const run = JSON.parse(out).runs[0];
    expect(run.tool.driver).toMatchObject({ name: "plan-decay", version: expect.any(String), informationUri: expect.stringMatching(/^https:/) });
    expect(run.tool.driver.rules.map((r: { id: string }) => r.id)).toEqual(["exists", "absent", "contains", "lacks", "unchanged"]);
    expect(run.results.map((r: { ruleId: string; level: string }) => [r.ruleId, r.level])).toEqual([
      ["absent", "error"],
      ["lacks", "error"],
    ]);
    expect(run.results[0].locations[0].physicalLocation).toEqual({
      artifactLocation: { uri: "plans/batch.tsv", uriBaseId: "%SRCROOT%" },
      region: { startLine: 6 },
    });
    expect(run.results[0].message.text).toBe("absent src/refunds.ts: the tree holds src/Refunds.ts");
  });

  test("a report that holds has no results", () => {
    const holds: Report = { ...diverged, verdict: "holds", checked: 1, held: 1, diverged: 0, rows: diverged.rows.slice(0, 1) };
    expect(JSON.parse(sarifReport(holds, "p.tsv")).runs[0].results).toEqual([]);
  });

  test("the file is named from the root of its repository; standard input has no name", () => {
    expect(repoPath(`${REPO_ROOT}fixtures`, "gate/batch-plan.assumptions.tsv")).toBe("fixtures/gate/batch-plan.assumptions.tsv");
    expect(repoPath("/", `${REPO_ROOT}fixtures/./gate/x.tsv`)).toBe("fixtures/gate/x.tsv");
    expect(repoPath(REPO_ROOT, "-")).toBeUndefined();
  });
});

describe("--format junit", () => {
  test("a test case per row, a failure per diverged row, counts that add up", () => {
    const cases = junitCases(junitReport(diverged, "plans/batch.tsv"));
    expect(cases.map((c) => [c.attributes.classname, c.attributes.name, c.children.map((f) => f.name)])).toEqual([
      ["plans/batch.tsv", "line 4: exists src/payments.ts", []],
      ["plans/batch.tsv", "line 6: absent src/refunds.ts", ["failure"]],
      ["plans/batch.tsv", "line 8: lacks src/a:b,c.ts", ["failure"]],
    ]);
    expect(cases[1]?.children[0]?.attributes).toEqual({ type: "absent", message: "absent src/refunds.ts: the tree holds src/Refunds.ts" });
  });

  test("a path with control characters from the tree still makes well-formed XML", () => {
    const row = { line: 2, kind: "absent" as const, path: "x\u0001<y>", status: "diverge" as const, detail: "tree has x\u001B&" };
    const cases = junitCases(junitReport({ ...diverged, checked: 1, held: 0, diverged: 1, rows: [row] }, undefined));
    expect(cases[0]?.attributes.name).toBe("line 2: absent x\\u{1}<y>");
  });
});
