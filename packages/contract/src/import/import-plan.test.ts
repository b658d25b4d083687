import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { compileContract } from "../compile.js";
import { readPlan } from "../plan/read-plan.js";
import { selfCheck } from "../self-check/check.js";
import { importPlan } from "./import-plan.js";

const dir = fileURLToPath(new URL("../../../../fixtures/plans/", import.meta.url));
const fixture = (name: string) => readFileSync(join(dir, name), "utf8");

/** Import a fixture, compile the result, self-check it: the whole round trip. */
async function roundTrip(name: string) {
  const imported = importPlan(fixture(name))._unsafeUnwrap();
  const plan = readPlan(imported.text)._unsafeUnwrap();
  const contract = (await compileContract(plan, { planPath: "staged.plan.md", planText: imported.text }))._unsafeUnwrap();
  const findings = selfCheck(contract, { planText: imported.text });
  return { imported, contract, findings };
}

describe("importPlan round-trips each format into a contract that compiles", () => {
  test("a task plan: one stage per task, Run:/Expected: pairs as acceptance, red steps and multi-line commands listed", async () => {
    const { imported, contract, findings } = await roundTrip("import/task-plan.md");
    expect(imported.format).toBe("task-plan");
    expect(contract.stages.map((s) => [s.label, s.title])).toEqual([
      ["Stage 1", "CSV formatter"],
      ["Stage 2", "Export route"],
      ["Stage 3", "Download button"],
    ]);
    expect(contract.stages.map((s) => s.acceptance.map((r) => [r.run, r.expect.exit, r.expect.stdout_contains]))).toEqual([
      [["npx vitest run test/export/csv.test.ts", 0, []]],
      [
        ["node scripts/get.mjs /invoices.csv", 0, ["number,date,total"]],
        ["npx vitest run test/routes/invoices-csv.test.ts", 0, ["3 passed"]],
      ],
      [],
    ]);
    expect(imported.notConverted.map((n) => [n.line, n.reason.split(" ").slice(0, 3).join(" ")])).toEqual([
      [28, "Expected: FAIL with"],
      [83, "the command is"],
    ]);
    expect(imported.text).toMatch(/^<!-- decay: prose -->\n## Not converted\n\n- line 28: /m);
    // check names what is still missing: the task with no command to run.
    expect(findings.filter((f) => f.severity === "refuse").map((f) => [f.code, f.stage])).toEqual([["no-acceptance", "S3"]]);
  });

  test("instructions are the task's body verbatim, then the lines the import made", async () => {
    const { contract } = await roundTrip("import/task-plan.md");
    const source = fixture("import/task-plan.md");
    for (const s of contract.stages) expect(source).toContain(s.instructions.replace(/(?:\n\n(?:Exit|Acceptance): .*)+$/, ""));
    expect(contract.stages[1]?.instructions).toMatch(
      /`3 passed`\n\nAcceptance: `node scripts\/get\.mjs \/invoices\.csv` exits 0 and prints `number,date,total`\n\nAcceptance: /,
    );
    expect(contract.stages[0]?.instructions).toMatch(/^\n\*\*Files:\*\*\n/);
  });

  test("a spec-kit tasks.md: one stage per phase, keeping its label; a checkpoint becomes the exit criterion", async () => {
    const { imported, contract, findings } = await roundTrip("import/spec-kit-tasks.md");
    expect(imported.format).toBe("spec-kit");
    expect(contract.stages.map((s) => [s.label, s.exit_criterion])).toEqual([
      ["Phase 1", null],
      ["Phase 2", "a shared calendar is visible to the teammate and read-only"],
      ["Phase 3", "lint is clean"],
    ]);
    expect(contract.stages[1]?.instructions).toContain("- [ ] T005 [US1] `POST /shares` route in `src/routes/shares.ts`");
    expect(imported.notConverted).toMatchObject([{ line: 48, text: "Dependencies & Execution Order" }]);
    expect(findings.map((f) => [f.code, f.stage])).toEqual([
      ["no-acceptance", "S1"],
      ["no-acceptance", "S2"],
      ["no-acceptance", "S3"],
    ]);
  });

  test("an OpenSpec tasks.md: one stage per numbered group", async () => {
    const { imported, contract, findings } = await roundTrip("import/openspec-tasks.md");
    expect(imported.format).toBe("openspec");
    expect(contract.stages.map((s) => [s.label, s.title])).toEqual([
      ["Stage 1", "Schema"],
      ["Stage 2", "API"],
      ["Stage 3", "Client"],
    ]);
    expect(imported.notConverted).toEqual([]);
    expect(findings.every((f) => f.code === "no-acceptance")).toBe(true);
  });

  test("the task plan with an execution record imports; its record is kept as prose and listed", async () => {
    const { imported, contract, findings } = await roundTrip("task-plan-with-record.plan.md");
    expect(contract.stages).toHaveLength(4);
    expect(imported.notConverted).toMatchObject([{ text: "Execution record" }]);
    expect(findings.filter((f) => f.code === "no-acceptance")).toHaveLength(4);
  });

  test("acceptance criteria in the plan's header are kept as prose, so the result still compiles", () => {
    const text = ["# P", "", "**Acceptance criteria:**", "- clients see Retry-After", "", "## Task 1: Bucket", "", "Run: `pnpm test`", "Expected: PASS"].join(
      "\n",
    );
    const imported = importPlan(text)._unsafeUnwrap();
    expect(imported.text).toContain("<!-- decay: prose -->\n**Acceptance criteria:**");
    expect(
      readPlan(imported.text)
        ._unsafeUnwrap()
        .stages[0]?.acceptance.map((r) => r.run),
    ).toEqual(["pnpm test"]);
  });

  test("a heading in the header that names a rollout stays prose: the imported stages are read", () => {
    const text = ["# Rate limiter", "", "## Rollout notes", "", "Ship behind a flag.", "", "### Task 1: Bucket", "", "Run: `pnpm test`", "Expected: PASS"];
    const task2 = ["", "### Task 2: Middleware", "", "Run: `pnpm test mw`", "Expected: PASS"];
    const plan = readPlan(importPlan([...text, ...task2].join("\n"))._unsafeUnwrap().text)._unsafeUnwrap();
    expect(plan.stages.map((s) => [s.title, s.acceptance.map((r) => r.run)])).toEqual([
      ["Bucket", ["pnpm test"]],
      ["Middleware", ["pnpm test mw"]],
    ]);
  });

  test("a text that is none of the three formats is a fault", () => {
    expect(importPlan("# Notes\n\n## Ideas\n\n- one\n")._unsafeUnwrapErr()).toEqual({ code: "import-unrecognised", line: 1 });
  });
});

const pieces = fc.constantFrom(
  "# Plan",
  "## Task 1: a",
  "### Task 2: b",
  "## Phase 1: Setup",
  "## 1. Schema",
  "- [ ] T001 do it",
  "- [ ] 1.1 do it",
  "Run: `pnpm test`",
  "Run:",
  "```bash",
  "pnpm test",
  "```",
  "Expected: PASS",
  "Expected: FAIL with x",
  'Expected: "ok"',
  "**Checkpoint**: done",
  "Acceptance criteria:",
  "- prose",
  "---",
  "<!-- c -->",
  "",
  "text",
);

describe("importPlan properties", () => {
  test("never throws, and what it writes is read without a throw either", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof({ weight: 5, arbitrary: pieces }, { weight: 1, arbitrary: fc.string() }), { maxLength: 30 }), (lines) => {
        const imported = importPlan(lines.join("\n"));
        if (imported.isOk()) void readPlan(imported.value.text);
      }),
      { numRuns: 500 },
    );
  });
});
