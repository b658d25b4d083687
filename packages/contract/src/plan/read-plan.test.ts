import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { describeFault } from "../fault.js";
import { readPlan } from "./read-plan.js";

const plan = (...lines: string[]) => lines.join("\n");
const stagesOf = (text: string) => readPlan(text)._unsafeUnwrap().stages;

describe("readPlan: stage headings", () => {
  test.each([
    ["### Stage 2: Add refunds", "Stage 2", "Add refunds", false],
    ["### Stage 2 — Add refunds", "Stage 2", "Add refunds", false],
    ["### Stage 2 (optional): Add refunds", "Stage 2", "Add refunds", true],
    ["### S2: Add refunds", "S2", "Add refunds", false],
    ["### Phase 2", "Phase 2", "Phase 2", false],
    ["### Step 2 - Add refunds", "Step 2", "Add refunds", false],
  ])("%s reads as label %s, title %s", (heading, label, title, optional) => {
    const [stage] = stagesOf(plan("## Rollout", "", heading, "", "Do it.", "Acceptance: `node x.mjs` exits 0."));
    expect(stage).toMatchObject({ id: "S1", label, title, optional, line: 3 });
  });

  test("a closing run of # is not part of the title, a # inside a word is", () => {
    const stages = stagesOf(plan("## Stages ##", "### S1: Port to C# ###", "x"));
    expect(stages[0]?.title).toBe("Port to C#");
  });

  test("ids are renumbered in order whatever the plan's labels are", () => {
    const stages = stagesOf(plan("## Stages", "### Phase 3", "a", "### Phase 7", "b", "### Phase 9", "c"));
    expect(stages.map((s) => [s.id, s.label])).toEqual([
      ["S1", "Phase 3"],
      ["S2", "Phase 7"],
      ["S3", "Phase 9"],
    ]);
  });

  test("depends_on is the previous stage unless Depends on: names labels", () => {
    const stages = stagesOf(
      plan("## Stages", "### Phase 1", "a", "### Phase 2", "Depends on: none", "### Phase 3", "Depends on: Phase 1, Phase 2", "### Phase 4"),
    );
    expect(stages.map((s) => s.depends_on)).toEqual([[], [], ["S1", "S2"], ["S3"]]);
  });

  test("instructions are the body byte for byte, trailing blank lines trimmed; a sub-heading stays inside", () => {
    const body = "  indented line\n\n#### Detail\n\n```sh\n## not a heading\n```\nExit: done  ";
    const [stage] = stagesOf(`## Recommendation\n### Stage 1: t\n${body}\n\n\n### Stage 2: u\nx\n`);
    expect(stage?.instructions).toBe(body);
    expect(stage?.exit_criterion).toBe("done");
  });

  test("a CRLF plan keeps its bytes in instructions and drops CR from one-line fields", () => {
    const [stage] = stagesOf("## Stages\r\n### S1: t\r\nline one\r\nExit: ok\r\n");
    expect(stage?.instructions).toBe("line one\r\nExit: ok");
    expect(stage?.exit_criterion).toBe("ok");
    expect(stage?.title).toBe("t");
  });

  test("a stage with no Acceptance: line has zero rows; nothing is invented", () => {
    const [stage] = stagesOf(plan("## Stages", "### S1: t", "Exit: the suite passes."));
    expect(stage?.acceptance).toEqual([]);
  });
});

describe("readPlan: acceptance lines", () => {
  const rowOf = (line: string) => stagesOf(plan("## Stages", "### S1: t", line))[0]?.acceptance[0];

  test("a command alone expects exit 0 and nothing printed", () => {
    expect(rowOf("Acceptance: `make check`")).toEqual({
      id: "S1.1",
      run: "make check",
      expect: { exit: 0, stdout_contains: [], stdout_matches: [], count: [] },
    });
  });
  test("exits N, prints, matches and at least N combine", () => {
    expect(rowOf("Acceptance: `t` exits 3, prints `a b`, matches /^ok$/ and at least 5 matching /✓/")?.expect).toEqual({
      exit: 3,
      stdout_contains: ["a b"],
      stdout_matches: ["^ok$"],
      count: [{ pattern: "✓", min: 5 }],
    });
  });
  test("a command holding backticks is written with a longer code span and kept exactly", () => {
    expect(rowOf("Acceptance: ``echo `date` | wc -l`` prints `1`")?.run).toBe("echo `date` | wc -l");
  });
  test("expectations wrapped onto the next line stay with their row", () => {
    const [stage] = stagesOf(plan("## Stages", "### S1: t", "Acceptance: `pnpm vitest run` exits 0", "  and prints `Tests  50 passed`.", "Then more prose."));
    expect(stage?.acceptance[0]?.expect.stdout_contains).toEqual(["Tests  50 passed"]);
  });
  test("a sub-heading inside the prohibitions is not a guardrail", () => {
    const p = readPlan(plan("## Guardrails", "- one", "### Ordering", "- two before three", "## Stages", "### S1: t"));
    expect(p._unsafeUnwrap().prohibitions).toEqual(["one", "two before three"]);
  });
  test("a literal at-least pattern is escaped into a regex", () => {
    expect(rowOf("Acceptance: `t` prints at least 2 `a.b`")?.expect.count).toEqual([{ pattern: "a\\.b", min: 2 }]);
  });
  test.each([
    ["Acceptance: no command here", "no-command"],
    ["Acceptance: `t` exits 0 and is fast", "unrecognised"],
    ["Acceptance: `t` exits 0 and exits 1", "duplicate-exit"],
    ["Acceptance: `t` matches /(/", "bad-regex"],
    ["Acceptance: `t` exits 0 and at least 99999999999999999999 `y`", "count-too-large"],
  ])("%s is refused (%s) naming its line", (line, problem) => {
    expect(readPlan(plan("## Stages", "### S1: t", line))._unsafeUnwrapErr()).toMatchObject({
      code: "acceptance-invalid",
      line: 3,
      problem,
    });
  });
});

describe("readPlan: numbered lists and faults", () => {
  test("numbered items in a recommendation are stages; a margin paragraph after the list is not", () => {
    const stages = stagesOf(plan("## Recommendations", "", "1. **Add** the column.", "2. Backfill: rows in batches.", "", "Closing words."));
    expect(stages.map((s) => [s.label, s.title, s.instructions])).toEqual([
      ["1", "Add", "the column."],
      ["2", "Backfill", "rows in batches."],
    ]);
  });
  test("a recommendation that is one paragraph is refused with its heading line", () => {
    expect(readPlan(plan("# R", "", "## Recommendation", "", "Do it all, carefully."))._unsafeUnwrapErr()).toEqual({
      code: "recommendation-not-staged",
      line: 3,
      heading: "Recommendation",
    });
  });
  test("a heading that names two sections goes to the one it names alone elsewhere", () => {
    const p = readPlan(plan("## What not to do during rollout", "- Do not ship first.", "## Rollout", "### Phase 1", "x"));
    expect(p._unsafeUnwrap()).toMatchObject({ prohibitions: ["Do not ship first."], stages: [{ label: "Phase 1" }] });
  });
  test("a sub-numbered heading (6.1, 5.2, 7.3) is not section 6, 5 or 7", () => {
    const text = plan("# P", "", "## 5.2 Budget", "- Spend less.", "", "## 6.1 Costs", "", "1. Pay the bill.", "   Acceptance: `true`");
    expect(readPlan(text)._unsafeUnwrapErr()).toEqual({ code: "no-recommendation", line: 3, heading: "5.2 Budget" });
    const numbered = plan("## 5) Limits", "- Do not skip.", "## §6 Plan", "1. Pay.", "   Acceptance: `true`", "## 7: Else", "- If rates rise.");
    expect(readPlan(numbered)._unsafeUnwrap()).toMatchObject({ prohibitions: ["Do not skip."], falsifiers: ["If rates rise."], stages: [{ title: "Pay" }] });
  });
  test("an empty text has no recommendation", () => {
    expect(readPlan("")._unsafeUnwrapErr()).toEqual({ code: "no-recommendation", line: 1 });
  });
});

const vocabulary = fc.constantFrom(
  "## Recommendation",
  "## 6. Plan",
  "## Migration sequence",
  "## What not to do",
  "## Guardrails",
  "## 5. Limits",
  "## Falsifiers",
  "## 7. Else",
  "# Title",
  "### Stage 1: a",
  "### Stage 2 — b",
  "### S3: c",
  "### Phase 4",
  "### Step 5 (optional): d",
  "1. **T** body",
  "2. plain. body",
  "   Exit: nested",
  "Exit: x",
  "**Exit:** y",
  "Acceptance: `cmd` exits 0",
  "Acceptance: `a|b` prints `x` and at least 2 /y+/",
  "Acceptance: broken",
  "Depends on: Stage 1",
  "Depends on: none",
  "Depends on: S9",
  "- before and after",
  "* plain bullet",
  "```",
  "~~~",
  "",
  "  ",
  "text",
  "Optional.",
  "\t- nested",
);
const planText = fc
  .tuple(fc.array(fc.oneof({ weight: 5, arbitrary: vocabulary }, { weight: 1, arbitrary: fc.string() }), { maxLength: 30 }), fc.constantFrom("\n", "\r\n"))
  .map(([lines, eol]) => lines.join(eol));

describe("readPlan properties", () => {
  test("never throws on any string", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), planText), (text) => void readPlan(text)),
      { numRuns: 500 },
    );
  });
  test("every verbatim field is a substring of the plan text", () => {
    fc.assert(
      fc.property(planText, (text) => {
        const result = readPlan(text);
        if (result.isErr()) return;
        const { stages, prohibitions, falsifiers } = result.value;
        const fields = [
          ...prohibitions,
          ...falsifiers,
          ...stages.flatMap((s) => [s.label, s.title, s.instructions, s.exit_criterion ?? "", ...s.acceptance.map((r) => r.run)]),
        ];
        for (const f of fields) expect(text.includes(f), JSON.stringify(f)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});

describe("readPlan: NUL characters", () => {
  const text = plan("# Plan", "", "## Recommendation", "", "### Stage 1: a", "", "Acceptance: `a` exits 0", "");
  test("many of them (UTF-16 read as UTF-8) are an encoding fault; one stray NUL in UTF-8 is named as that, with its line", () => {
    const utf16 = Buffer.from(text, "utf16le").toString("latin1");
    expect(readPlan(utf16)._unsafeUnwrapErr()).toEqual({ code: "encoding", line: 1, encoding: "UTF-16 (it holds NUL bytes)" });
    // Russian saved as UTF-16LE with no BOM is valid UTF-8 after all: its high bytes are controls.
    const russian = Buffer.from(`# План\n\n${"Проверить отчёт о возвратах до выпуска. ".repeat(60)}\n`, "utf16le").toString("utf8");
    expect(readPlan(russian)._unsafeUnwrapErr()).toMatchObject({ code: "encoding", encoding: "UTF-16 (it holds NUL bytes)" });
    const stray = text.replace("Acceptance: `a`", "Acceptance: `a\u0000`");
    expect(readPlan(stray)._unsafeUnwrapErr()).toEqual({ code: "nul-character", line: 7 });
    expect(describeFault({ code: "nul-character", line: 7 })).toBe(
      "line 7: the plan holds a NUL character (U+0000), which no text holds: remove it and compile again",
    );
  });
});

describe("readPlan: U+2028 and U+2029 inside a line", () => {
  test("are text like any other: the stage heading and its rows are read", () => {
    const stages = stagesOf(
      plan("# Plan", "", "## Recommendation", "", "### Stage 1: a\u2028b", "", "Exit: done\u2029now", "", "Acceptance: `a` prints `x\u2028y`", ""),
    );
    expect(stages.map((s) => [s.title, s.exit_criterion, s.acceptance.length])).toEqual([["a\u2028b", "done\u2029now", 1]]);
  });
});
