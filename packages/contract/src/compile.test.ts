import { createHash } from "node:crypto";
import { describe, expect, test } from "vitest";
import { compileContract, planSha256 } from "./compile.js";
import type { AcceptanceRow, Stage } from "./model.js";
import { readPlan } from "./plan/read-plan.js";
import { selfCheck } from "./self-check/check.js";

const text = ["## Stages", "### S1: Spelled", "Acceptance: `node a.mjs` prints `ok`", "### S2: Unspelled", "Exit: it works."].join("\n");
const plan = readPlan(text)._unsafeUnwrap();
const row = (id: string, run = "node b.mjs"): AcceptanceRow => ({
  id,
  run,
  expect: { exit: 0, stdout_contains: ["fine"], stdout_matches: [], count: [] },
});

describe("compileContract", () => {
  test("plan_sha256 is the SHA-256 of the exact bytes, for a string and for bytes alike", async () => {
    const bytes = new TextEncoder().encode(text);
    const expected = createHash("sha256").update(Buffer.from(bytes)).digest("hex");
    expect(planSha256(bytes)).toBe(expected);
    const c = (await compileContract(plan, { planPath: "p.md", planText: text }))._unsafeUnwrap();
    expect(c).toMatchObject({ plan: "p.md", plan_sha256: expected, fresh_state: "head", commit_per_stage: true });
  });

  test("a stage without spelled commands compiles with zero rows, and the self-check refuses it", async () => {
    const c = (await compileContract(plan, { planPath: "p.md", planText: text }))._unsafeUnwrap();
    expect(c.stages[1]?.acceptance).toEqual([]);
    expect(selfCheck(c, { planText: text }).map((f) => [f.code, f.stage])).toEqual([["no-acceptance", "S2"]]);
  });

  test("a row writer is asked only for stages with no rows, one at a time, and its rows are kept", async () => {
    const asked: string[] = [];
    const rowWriter = async (stage: Stage) => {
      asked.push(stage.id);
      return [row(`${stage.id}.1`)];
    };
    const c = (await compileContract(plan, { planPath: "p.md", planText: text, rowWriter }))._unsafeUnwrap();
    expect(asked).toEqual(["S2"]);
    expect(c.stages[1]?.acceptance).toEqual([row("S2.1")]);
    expect(c.stages[0]?.acceptance[0]?.run).toBe("node a.mjs");
  });

  test.each([
    ["a wrong id", [row("S9.1")], /id must be S2\.1/],
    ["an empty command", [row("S2.1", "")], /run/],
    ["a regex that does not compile", [{ ...row("S2.1"), expect: { ...row("S2.1").expect, stdout_matches: ["("] } }], /does not compile/],
    ["not a list", "rows" as unknown as AcceptanceRow[], /not return a list/],
  ])("a writer's row with %s is refused naming the stage's line", async (_what, rows, issue) => {
    const c = await compileContract(plan, { planPath: "p.md", planText: text, rowWriter: async () => rows });
    const fault = c._unsafeUnwrapErr();
    expect(fault).toMatchObject({ code: "row-invalid", stage: "S2", line: 4 });
    expect(fault.code === "row-invalid" ? fault.issue : "").toMatch(issue);
  });

  test("a writer that throws, even synchronously, is a fault, not an exception", async () => {
    const rowWriter = (): Promise<AcceptanceRow[]> => {
      throw new Error("agent offline");
    };
    const c = await compileContract(plan, { planPath: "p.md", planText: text, rowWriter });
    expect(c._unsafeUnwrapErr()).toEqual({ code: "row-writer-failed", line: 4, stage: "S2", reason: "agent offline" });
  });
});
