import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { compileContract } from "../compile.js";
import { describeFault } from "../fault.js";
import { lineModel } from "../plan/lines.js";
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
    // Every task's check is listed: written under RED:, GREEN: or Check:, none is a Run:/Expected: pair.
    expect(imported.notConverted.map((n) => [n.line, n.text.split(":")[0]])).toEqual([
      [12, "RED"],
      [13, "GREEN"],
      [21, "RED"],
      [22, "GREEN"],
      [29, "Check"],
      [36, "Check"],
      [38, "Execution record"],
    ]);
    expect(imported.notConverted[1]?.reason).toBe(
      "a command under GREEN: is not converted (the import reads Run: with Expected:); to run it as acceptance write Acceptance: `command` exits 0",
    );
    expect(imported.notConverted[0]?.reason).toMatch(/^a RED: step fails before the change/);
    const refused = findings.filter((f) => f.code === "no-acceptance");
    expect(refused).toHaveLength(4);
    // check names the line that gives each stage's command another way, GREEN: lines too.
    for (const f of refused) expect(f.message).toMatch(/its line "(GREEN|Check): `/);
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

describe("a fence or an HTML comment never closed is refused, naming its line: what it swallows never vanishes", () => {
  const plan = (...body: string[]) => ["# P", "", "### Task 1: A", "", ...body, "", "### Task 2: B", "", "Run: `npm run b`", "Expected: PASS", ""].join("\n");
  test("a fence that swallows the task's Run:/Expected: lines and the tasks after it", () => {
    const f = importPlan(plan("```bash", "npm test", "", "Run: `npm test`", "Expected: PASS"))._unsafeUnwrapErr();
    expect(f).toEqual({ code: "import-unclosed", line: 5, kind: "fence", text: "```bash", hides: { line: 8, text: "Run: `npm test`" } });
    expect(describeFault(f)).toBe(
      'line 5: "```bash" opens a code fence that is never closed: it runs to the end of the plan and hides line 8 ("Run: `npm test`"), and would hide what the import writes after it; close it with a line of at least as many of the same backticks or tildes',
    );
  });
  test("an HTML comment never closed, and a fence in a list item, are refused too", () => {
    expect(importPlan(plan("<!-- old steps", "Run: `npm test`"))._unsafeUnwrapErr()).toMatchObject({ code: "import-unclosed", line: 5, kind: "comment" });
    const listed = importPlan(["# P", "", "### Task 1: A", "", "- step:", "  ~~~", "  Run: `npm test`"].join("\n"))._unsafeUnwrapErr();
    expect(listed).toMatchObject({ code: "import-unclosed", line: 6, kind: "fence", hides: { line: 7 } });
  });
  test("a fence at the very end hides nothing of the source, and is refused all the same: the import's own lines would follow it", () => {
    const f = importPlan(["# P", "", "### Task 1: A", "", "Run: `npm test`", "Expected: PASS", "", "```"].join("\n"))._unsafeUnwrapErr();
    expect(f).toEqual({ code: "import-unclosed", line: 8, kind: "fence", text: "```" });
    expect(describeFault(f)).toMatch(
      /^line 8: "```" opens a code fence that is never closed: it runs to the end of the plan, and would hide what the import writes after it; close it/,
    );
  });
  test("a Run: step before the first task belongs to no stage: it is listed, with its line", () => {
    const imported = importPlan(
      ["# P", "", "Run: `pnpm install`", "Expected: PASS", "", "### Task 1: A", "", "Run: `npm test`", "Expected: PASS"].join("\n"),
    )._unsafeUnwrap();
    expect(imported.notConverted).toEqual([
      { line: 3, text: "Run: `pnpm install`", reason: "a step before the first task or phase belongs to no stage: kept as prose" },
    ]);
    expect(imported.text).toContain("- line 3: Run: `pnpm install` (a step before the first task or phase belongs to no stage: kept as prose)");
  });
  test("a closed fence is code, kept verbatim in its stage, as CommonMark reads it", () => {
    const imported = importPlan(plan("```bash", "Run: `npm test`", "```", "", "Run: `npm test`", "Expected: PASS"))._unsafeUnwrap();
    expect(imported.notConverted).toEqual([]);
    expect(
      readPlan(imported.text)
        ._unsafeUnwrap()
        .stages.map((s) => s.acceptance.map((r) => r.run)),
    ).toEqual([["npm test"], ["npm run b"]]);
    expect(imported.text).toContain("```bash\nRun: `npm test`\n```");
  });
});

describe("a task heading CommonMark reads as no heading is listed as not converted, with its line", () => {
  const plan = (...body: string[]) => ["# P", "", "### Task 1: A", "", ...body, "", "### Task 2: B", "", "Run: `npm run b`", "Expected: PASS", ""].join("\n");
  const CODE = "a task heading inside a code block, which Markdown never reads as a heading: no stage is made of it, and its steps are not converted";
  test("in a fence that closes: CommonMark's code, kept verbatim in its stage, and listed", () => {
    // The repro: `decay-contract import` made 2 stages of 3 tasks and said "0 items not converted".
    const imported = importPlan(plan("```sh", "npm test", "", "### Task 3: Deploy", "", "Run: `npm run deploy`", "Expected: PASS", "```"))._unsafeUnwrap();
    expect(imported.stages).toBe(2);
    expect(imported.notConverted).toEqual([{ line: 8, text: "### Task 3: Deploy", reason: CODE }]);
    expect(imported.text).toContain(`\n- line 8: ### Task 3: Deploy (${CODE})`);
    expect(imported.text).toContain("```sh\nnpm test\n\n### Task 3: Deploy\n");
    expect(readPlan(imported.text)._unsafeUnwrap().stages).toHaveLength(2);
  });
  test("in an indented code block, a fence in a quote or a list item: listed", () => {
    const lines = (...body: string[]) =>
      importPlan(plan(...body))
        ._unsafeUnwrap()
        .notConverted.map((n) => [n.line, n.reason === CODE]);
    expect(lines("Some text.", "", "    ### Task 3: Deploy")).toEqual([[7, true]]);
    expect(lines("> ~~~", "> ### Task 3: Deploy", "> ~~~")).toEqual([[6, true]]);
    expect(lines("- step:", "  ```", "  ### Task 3: Deploy", "  ```")).toEqual([[7, true]]);
  });
  test("in an HTML comment, with the steps it hides (the comment is trimmed from the output, so the list is all that is left of it)", () => {
    const imported = importPlan(
      plan("<!--", "### Task 3: Deploy", "Run: `npm run deploy`", "Expected: PASS", "-->", "<!-- Checkpoint: deployed -->"),
    )._unsafeUnwrap();
    expect(imported.notConverted.map((n) => [n.line, n.text, n.reason.split(",")[0]])).toEqual([
      [6, "### Task 3: Deploy", "a task heading inside an HTML comment"],
      [7, "Run: `npm run deploy`", "a step inside an HTML comment is not converted"],
      [10, "<!-- Checkpoint: deployed -->", "a step inside an HTML comment is not converted"],
    ]);
  });
  test("inside a list item or a block quote: listed, its lines kept as text in the task above", () => {
    const imported = importPlan(plan("- ### Task 3: Deploy", "", "> ### Task 4: Tidy"))._unsafeUnwrap();
    expect(imported.notConverted.map((n) => [n.line, n.text, n.reason.split(":")[0]])).toEqual([
      [5, "- ### Task 3: Deploy", "a task heading inside a list item or a block quote is no heading of its own"],
      [7, "> ### Task 4: Tidy", "a task heading inside a list item or a block quote is no heading of its own"],
    ]);
    expect(imported.text).toContain("### Stage 1: A\n\n- ### Task 3: Deploy\n\n> ### Task 4: Tidy\n");
  });
  test("the steps under a task heading in a list item never become the acceptance of the task above: each is listed", () => {
    // The task above kept its own step; the nested task's step (and its checkpoint) went nowhere in silence before.
    const source = plan(
      "Run: `npm test`",
      "Expected: PASS",
      "",
      "- ### Task 3: Deploy",
      "  Run: `npm run deploy`",
      "  Expected: PASS",
      "",
      "Checkpoint: deployed",
    );
    const imported = importPlan(source)._unsafeUnwrap();
    const stages = readPlan(imported.text)._unsafeUnwrap().stages;
    expect(stages.map((s) => [s.title, s.acceptance.map((r) => r.run), s.exit_criterion])).toEqual([
      ["A", ["npm test"], null],
      ["B", ["npm run b"], null],
    ]);
    const under =
      "a step under `- ### Task 3: Deploy` (line 8), a heading Markdown reads as none: not converted, never made the acceptance of the stage above it";
    expect(imported.notConverted.filter((n) => n.line !== 8)).toEqual([
      { line: 9, text: "Run: `npm run deploy`", reason: under },
      { line: 12, text: "Checkpoint: deployed", reason: under },
    ]);
    expect(imported.text).toContain(`- line 9: Run: \`npm run deploy\` (${under})`);
  });
  test("a Run: step above a nested task heading whose Expected: line is under it is listed, not converted", () => {
    const imported = importPlan(plan("Run: `npm test`", "- ### Task 3: Deploy", "Expected: PASS"))._unsafeUnwrap();
    expect(readPlan(imported.text)._unsafeUnwrap().stages[0]?.acceptance).toEqual([]);
    expect(imported.notConverted.map((n) => [n.line, n.reason.split(":")[0]])).toEqual([
      [5, "no Expected"],
      [6, "a task heading inside a list item or a block quote is no heading of its own"],
    ]);
  });
  test("a task heading under millions of quote markers, in code or a comment, is read in one pass and listed, never a crash", () => {
    const deep = `${">".repeat(5_000_000)} ### Task 3: C`;
    for (const [open, close] of [
      ["```", "```"],
      ["<!--", "-->"],
    ]) {
      expect(
        importPlan(plan(open ?? "", deep, close ?? ""))
          ._unsafeUnwrap()
          .notConverted.map((n) => [n.line, n.text.length]),
      ).toEqual([[6, deep.length]]);
    }
  });
  test("a step in code is an example, and a shell comment in an OpenSpec plan's code is no group: neither is listed", () => {
    expect(importPlan(plan("```yaml", "- run: npm test", "Run: `npm test`", "```"))._unsafeUnwrap().notConverted).toEqual([]);
    const openspec = [
      "# Tasks",
      "",
      "## 1. Setup",
      "",
      "- [ ] 1.1 Install",
      "",
      "```sh",
      "# 2. then build",
      "npm ci",
      "```",
      "",
      "## 2. Build",
      "",
      "- [ ] 2.1 Build",
    ];
    expect(importPlan(openspec.join("\n"))._unsafeUnwrap()).toMatchObject({ format: "openspec", stages: 2, notConverted: [] });
  });
});

// A task plan with fence lines (and a comment opener) dropped anywhere: headings, steps, prose.
const taskLines = (k: number) =>
  fc.array(fc.constantFrom(`Run: \`cmd ${k}\``, "Expected: PASS", "Expected: FAIL with x", 'Expected: "ok"', "text", "", "- item", "  more"), { maxLength: 6 });
const fences = fc.constantFrom("```", "```bash", "~~~", "````", "  ```", "- ```", "> ```", "<!-- c", "-->", "- ### Task 8: in an item", "> ### Task 9: quoted");
const fencedTaskPlan = fc
  .array(taskLines(0), { minLength: 1, maxLength: 4 })
  .map((tasks) => [
    "# Plan",
    "",
    ...tasks.flatMap((body, k) => [`### Task ${k + 1}: t${k + 1}`, "", ...body.map((l) => l.replace("cmd 0", `cmd ${k + 1}`)), ""]),
  ])
  .chain((lines) =>
    fc.array(fc.tuple(fc.nat({ max: lines.length }), fences), { minLength: 1, maxLength: 3 }).map((inserts) => {
      const out = [...lines];
      for (const [at, fence] of [...inserts].sort((a, b) => b[0] - a[0])) out.splice(at, 0, fence);
      return out.join("\n");
    }),
  );

describe("importPlan with fences placed anywhere: nothing a task said disappears in silence", () => {
  test("a comment that closed a fence's list item stays when trimming it would leave the fence open (found by the property below)", () => {
    const imported = importPlan("# Plan\n\n### Task 1: t1\n- ```\n\n<!-- c\n  more\n-->\n")._unsafeUnwrap();
    expect(lineModel(imported.text).open).toBeNull();
    expect(imported.text).toContain("- ```\n\n<!-- c\n  more\n-->");
    expect(importPlan("# Plan\n\n### Task 1: t1\n\nDo it.\n\n<!-- a note -->\n")._unsafeUnwrap().text).not.toContain("a note");
  });
  test("an open block is refused at its line; else every source line is in the output, every Run: read as text is converted or listed, and the output closes every block", () => {
    fc.assert(
      fc.property(fencedTaskPlan, (source) => {
        const model = lineModel(source);
        const imported = importPlan(source);
        if (model.open !== null) {
          expect(imported._unsafeUnwrapErr()).toMatchObject({ code: "import-unclosed", line: model.open.line + 1 });
          return;
        }
        const tasks = model.headings.filter((h) => /^Task \d+/.test(h.text));
        if (tasks.length === 0) {
          expect(imported._unsafeUnwrapErr()).toMatchObject({ code: "import-unrecognised" });
          return;
        }
        const { text, notConverted, stages } = imported._unsafeUnwrap();
        expect(stages).toBe(tasks.length);
        const out = lineModel(text);
        expect(out.open).toBeNull();
        // Every line of the source is in the output (a task heading as its stage heading); only an
        // HTML comment or a thematic break that ends a section may be trimmed, as the reader trims them.
        const outLines = new Set(text.split("\n"));
        for (const [i, line] of model.lines.entries()) {
          if (!line.comment && !line.rule && !tasks.some((h) => h.index === i)) expect(outLines.has(line.text), line.text).toBe(true);
        }
        // Every Run: step that is plan text is an acceptance row, or listed with its line.
        const rows = readPlan(text)
          ._unsafeUnwrap()
          .stages.flatMap((s) => s.acceptance.map((r) => r.run));
        const listed = new Set(notConverted.map((n) => n.line));
        for (const line of model.lines) {
          const cmd = /^Run: `(.*)`$/.exec(line.text)?.[1];
          if (cmd !== undefined && !line.hidden) expect(rows.includes(cmd) || listed.has(line.no), line.text).toBe(true);
        }
        // Every Run: after a task heading in a list item or a quote, up to the next task heading, is listed.
        let underNested = false;
        for (const [i, line] of model.lines.entries()) {
          if (tasks.some((h) => h.index === i)) underNested = false;
          else if (model.nested.some((h) => h.index === i && /^Task \d+/.test(h.text))) underNested = true;
          else if (underNested && !line.hidden && /^Run: `/.test(line.text)) expect(listed.has(line.no), line.text).toBe(true);
        }
        // Every task heading CommonMark reads as none (in code, a comment, a list item or a quote), and every Run: in a comment, is listed.
        for (const [i, line] of model.lines.entries()) {
          const hiddenTask = line.hidden && /^[\s>-]*(?:<!--\s*)?### Task \d+/.test(line.text);
          const unread = hiddenTask || model.nested.some((h) => h.index === i) || (line.comment && /^Run: `/.test(line.text));
          if (unread) expect(listed.has(line.no), line.text).toBe(true);
        }
        // What is listed is what the Not converted section holds, read as text, item for item.
        const items = out.lines.filter((l) => !l.hidden && /^- line \d+: /.test(l.text));
        expect(items.map((l) => Number(/\d+/.exec(l.text)?.[0]))).toEqual(notConverted.map((n) => n.line));
      }),
      { numRuns: 1000 },
    );
  });
});
