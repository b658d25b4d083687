import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { compileContract } from "./compile.js";
import { readPlan } from "./plan/read-plan.js";
import { renderContract } from "./render.js";
import { selfCheck } from "./self-check/check.js";

const read = (path: string) => readFileSync(fileURLToPath(new URL(`../../../${path}`, import.meta.url)), "utf8");
const fencedBlocks = (md: string, info: string) => [...md.matchAll(new RegExp(`^\`\`\`${info}\\n([\\s\\S]*?)^\`\`\`$`, "gm"))].map((m) => m[1] ?? "");

describe("the docs say what the code does", () => {
  test("the minimal plan in docs/plan-format.md compiles as the page says, and passes the self-check", async () => {
    const [example] = fencedBlocks(read("docs/plan-format.md"), "markdown");
    const plan = readPlan(example ?? "")._unsafeUnwrap();
    const c = (await compileContract(plan, { planPath: "plan.md", planText: example ?? "" }))._unsafeUnwrap();
    expect(c.stages.map((s) => [s.id, s.optional, s.depends_on, s.acceptance.map((r) => r.id)])).toEqual([
      ["S1", false, [], ["S1.1"]],
      ["S2", true, ["S1"], []],
    ]);
    expect([c.guardrails.length, c.falsifiers.length]).toEqual([1, 1]);
    expect(selfCheck(c, { planText: example ?? "" })).toEqual([]);
  });

  test("the refunds example in docs/contract-format.md is part of the rendered contract", async () => {
    const blocks = fencedBlocks(read("docs/contract-format.md"), "");
    const example = blocks.find((b) => b.startsWith("## S1: Let the ledger"));
    const text = read("fixtures/plans/refunds-report.plan.md");
    const plan = readPlan(text)._unsafeUnwrap();
    const c = (await compileContract(plan, { planPath: "fixtures/plans/refunds-report.plan.md", planText: text }))._unsafeUnwrap();
    expect(example).toBeDefined();
    expect(renderContract(c)).toContain(example);
  });
});
