import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { checkInterfaces, readTaskPlan } from "./plan.js";

const sample = readFileSync(new URL("../../../../fixtures/plans/task-plan-with-record.plan.md", import.meta.url), "utf8");

describe("readTaskPlan", () => {
  it("reads the sample's header and each task's fields", () => {
    const plan = readTaskPlan(sample)._unsafeUnwrap();
    expect(plan).toMatchObject({
      spec: "docs/specs/export-rate-limit.md",
      goal: "the export endpoint answers 429 after 10 requests a minute per API key.",
      constraints: "no new runtime dependency; keep the public response shape.",
      execution: "subagents",
    });
    expect(plan.tasks.map((t) => [t.n, t.title, t.line])).toEqual([
      [1, "token bucket", 8],
      [2, "middleware", 16],
      [3, "wire the export route", 25],
      [4, "announce the limit", 32],
    ]);
    expect(plan.tasks[0]).toMatchObject({
      files: ["src/limit/bucket.ts", "test/limit/bucket.test.ts"],
      produces: "`takeToken(key, now)` returning `{ ok, retryAfterMs }`",
      consumes: null,
      green: "`pnpm vitest run test/limit/bucket.test.ts` -> 5 passed",
      check: null,
    });
    expect(plan.tasks[2]?.check).toBe("`pnpm vitest run test/routes/export.test.ts` -> 7 passed");
    expect(plan.tasks[3]?.outward).toBe("post the change note to the public changelog site");
  });

  it("takes Execution unset when absent, Spec none as no spec, and ignores fields inside fenced code", () => {
    const plan = readTaskPlan("# P\n\nSpec: none\n\n## Task 1: a\n\n```md\nFiles: fake.ts\n```\nFiles: `a.ts`, b.ts\n")._unsafeUnwrap();
    expect(plan).toMatchObject({ spec: null, execution: "unset" });
    expect(plan.tasks[0]?.files).toEqual(["a.ts", "b.ts"]);
  });

  it("refuses an Execution mode it does not know, naming the line", () => {
    expect(readTaskPlan("# P\nExecution: parallel\n\n## Task 1: a\n")._unsafeUnwrapErr()).toMatchObject({ code: "plan-invalid", line: 2 });
  });

  it("refuses a plan without tasks, a task number given twice, and a field given twice", () => {
    expect(readTaskPlan("# P\n\nGoal: x\n")._unsafeUnwrapErr()).toMatchObject({ code: "plan-invalid", line: 1 });
    expect(readTaskPlan("## Task 1: a\n## Task 1: b\n")._unsafeUnwrapErr()).toMatchObject({ code: "plan-invalid", line: 2 });
    expect(readTaskPlan("## Task 1: a\nFiles: a\nFiles: b\n")._unsafeUnwrapErr()).toMatchObject({ code: "plan-invalid", line: 3 });
  });
});

describe("checkInterfaces", () => {
  it("agrees when each Consumes is produced by an earlier task", () => {
    expect(checkInterfaces(readTaskPlan(sample)._unsafeUnwrap())).toEqual([]);
  });

  it("names a Consumes nothing earlier produces, one naming a later task, and one naming no task of the plan", () => {
    const md = [
      "## Task 1: a",
      "Produces: `parse(x)`",
      "Consumes: `render(y)` from Task 2",
      "## Task 2: b",
      "Produces: `render(y)`",
      "Consumes: `parse(z)` from Task 1",
      "## Task 3: c",
      "Consumes: `lint()` from Task 7",
    ].join("\n");
    expect(checkInterfaces(readTaskPlan(md)._unsafeUnwrap())).toEqual([
      { task: 1, consumes: "`render(y)` from Task 2", issue: "not-earlier", from: 2 },
      { task: 1, consumes: "render(y)", issue: "not-produced", from: 2 },
      { task: 2, consumes: "parse(z)", issue: "not-produced", from: 1 },
      { task: 3, consumes: "`lint()` from Task 7", issue: "unknown-task", from: 7 },
      { task: 3, consumes: "lint()", issue: "not-produced", from: 7 },
    ]);
  });
});
