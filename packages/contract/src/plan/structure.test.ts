// Issue 17, section 1: structure is read, or the compile is a fault that names it.
import { describe, expect, test } from "vitest";
import { compileContract } from "../compile.js";
import { describeFault } from "../fault.js";
import { renderContract } from "../render.js";
import { selfCheck } from "../self-check/check.js";
import { planProhibitions, readPlan } from "./read-plan.js";

const plan = (...lines: string[]) => lines.join("\n");
const read = (...lines: string[]) => readPlan(plan(...lines))._unsafeUnwrap();
const fault = (...lines: string[]) => readPlan(plan(...lines))._unsafeUnwrapErr();

describe("1.1 a section ends at the next heading of the same or a higher level", () => {
  test("a prohibitions section does not run on through the stage headings after it", () => {
    const p = read("## What not to do", "- Do not X before Y.", "## Stage 1: A", "Body line.", "Acceptance: `true`");
    expect(p.prohibitions).toEqual(["Do not X before Y."]);
    expect(p.stages).toMatchObject([{ label: "Stage 1", title: "A", instructions: "Body line.\nAcceptance: `true`" }]);
    expect(p.stages[0]?.acceptance.map((r) => r.run)).toEqual(["true"]);
  });
  test("setext headings are headings: they end sections and open stages", () => {
    const p = read("What not to do", "--------------", "", "- Do not X.", "", "Stage 1: A", "----------", "Body.", "", "Acceptance: `true`");
    expect(p.prohibitions).toEqual(["Do not X."]);
    expect(p.stages).toMatchObject([{ label: "Stage 1", title: "A", line: 6, instructions: "Body.\n\nAcceptance: `true`" }]);
  });
  test("a --- under a list item is a thematic break, not a setext heading", () => {
    const p = read("## Guardrails", "- Do not X.", "---", "## Stages", "### S1: t", "Acceptance: `true`");
    expect(p.prohibitions).toEqual(["Do not X."]);
  });
});

describe("1.2 every prohibitions section is read, in order", () => {
  const text = plan("## Guardrails", "- Do not A before B.", "## Stages", "### Stage 1: t", "Acceptance: `true`", "## What not to do", "- Do not B before C.");
  test("both sections' items become guardrails", () => {
    expect(readPlan(text)._unsafeUnwrap().prohibitions).toEqual(["Do not A before B.", "Do not B before C."]);
    expect(planProhibitions(text)).toEqual(["Do not A before B.", "Do not B before C."]);
  });
  test("the ordering self-check sees the second section's constraint", async () => {
    const p = readPlan(text)._unsafeUnwrap();
    const contract = (await compileContract(p, { planPath: "p.md", planText: text }))._unsafeUnwrap();
    const missing = { ...contract, guardrails: ["Do not A before B."] };
    expect(selfCheck(missing, { planText: text }).map((f) => f.code)).toContain("ordering-missing");
    expect(selfCheck(contract, { planText: text }).map((f) => f.code)).not.toContain("ordering-missing");
  });
});

describe("1.3 thematic breaks and HTML comments are skipped", () => {
  test.each([["---"], ["***"], ["___"], ["- - -"]])("%s after the last bullet is no guardrail", (rule) => {
    expect(read("## Guardrails", "- one", "", rule, "", "## Stages", "### S1: t", "Acceptance: `true`").prohibitions).toEqual(["one"]);
  });
  test("a commented-out stage is no stage, and a comment is no guardrail", () => {
    const p = read(
      "## Guardrails",
      "- one",
      "<!-- - two (dropped) -->",
      "## Stages",
      "### Stage 1: a",
      "Acceptance: `true`",
      "<!--",
      "### Stage 2: b",
      "Acceptance: `false`",
      "-->",
    );
    expect(p.prohibitions).toEqual(["one"]);
    expect(p.stages.map((s) => [s.label, s.acceptance.map((r) => r.run)])).toEqual([["Stage 1", ["true"]]]);
  });
  test("a --- between stages is not part of the stage before it", () => {
    const p = read("## Stages", "### Stage 1: a", "Acceptance: `true`", "", "---", "", "### Stage 2: b", "Acceptance: `true`");
    expect(p.stages[0]?.instructions).toBe("Acceptance: `true`");
  });
});

describe("1.4 letter labels and stage headings in emphasis", () => {
  test("letter stages beside a numbered one are all stages, each keeping its label", () => {
    const p = read("## Stages", "### Stage 1: one", "x", "### Stage A: a", "y", "### Phase B: b", "z");
    expect(p.stages.map((s) => [s.label, s.title])).toEqual([
      ["Stage 1", "one"],
      ["Stage A", "a"],
      ["Phase B", "b"],
    ]);
  });
  test("letter stages alone are a staged plan", () => {
    expect(read("## Rollout", "### Phase A", "x", "### Phase B", "y").stages.map((s) => s.label)).toEqual(["Phase A", "Phase B"]);
  });
  test.each([["### **Stage 1: A**"], ["### **Stage 1:** A"], ["### __Stage 1__: A"], ["### *Stage 1: A*"]])("%s reads as Stage 1, A", (heading) => {
    expect(read("## Stages", heading, "x").stages).toMatchObject([{ label: "Stage 1", title: "A" }]);
  });
  test("Milestone N opens a stage", () => {
    expect(read("## Plan", "### Milestone 2 — ship", "x").stages).toMatchObject([{ label: "Milestone 2", title: "ship" }]);
  });
});

describe("1.5 Exit criterion / Exit criteria read like Exit:", () => {
  test.each([["Exit criterion: it works."], ["Exit criteria: it works."], ["**Exit criteria:** it works."], ["- Exit criterion: it works."]])("%s", (line) => {
    expect(read("## Stages", "### S1: t", line).stages[0]?.exit_criterion).toBe("it works.");
  });
});

describe("1.6 near-miss acceptance lines are read", () => {
  const rows = (...lines: string[]) => read("## Stages", "### S1: t", ...lines).stages[0]?.acceptance.map((r) => [r.run, r.expect.exit]);
  test("a checkbox item", () =>
    expect(rows("- [ ] Acceptance: `make check`", "- [x] Acceptance: `make lint` exits 1")).toEqual([
      ["make check", 0],
      ["make lint", 1],
    ]));
  test("quotes, list items and checkboxes nested in any order", () =>
    expect(rows("- > Acceptance: `a` exits 0", "- [x] > **Acceptance:** `b`", "> - [x] Acceptance: `c` exits 2", "1. > - Acceptance: `d`")).toEqual([
      ["a", 0],
      ["b", 0],
      ["c", 2],
      ["d", 0],
    ]));
  test("a blockquote, wrapped expectations included", () => {
    const p = read("## Stages", "### S1: t", "> Acceptance: `node t.mjs` exits 0", "> and prints `ok`");
    expect(p.stages[0]?.acceptance[0]).toMatchObject({ run: "node t.mjs", expect: { stdout_contains: ["ok"] } });
  });
  test("an **Acceptance criteria:** label over a list of backticked commands", () => {
    expect(rows("**Acceptance criteria:**", "", "- `pnpm test` exits 0", "- [ ] `node check.mjs` exits 2", "", "More prose.")).toEqual([
      ["pnpm test", 0],
      ["node check.mjs", 2],
    ]);
  });
  test("an Acceptance criteria heading over a numbered list", () => {
    expect(rows("#### Acceptance criteria", "1. `a`", "2. `b` exits 3")).toEqual([
      ["a", 0],
      ["b", 3],
    ]);
  });
  test("a list item under Acceptance: that is no command is refused with its line", () => {
    expect(fault("## Stages", "### S1: t", "Acceptance:", "- the page loads fast")).toMatchObject({
      code: "acceptance-invalid",
      line: 4,
      problem: "list-item-not-command",
    });
  });
});

describe("1.7 duplicate stage labels", () => {
  test("are a fault naming both lines", () => {
    expect(fault("## Stages", "### Stage 1: a", "x", "### Stage 1: b", "y")).toEqual({ code: "duplicate-label", line: 4, first: 2, label: "Stage 1" });
  });
});

describe("1.8 a stage heading with no title", () => {
  test("keeps its label as its title, and renders no empty title", async () => {
    const text = plan("## Stages", "## Stage 1", "Acceptance: `true`");
    const p = readPlan(text)._unsafeUnwrap();
    expect(p.stages[0]?.title).toBe("Stage 1");
    const contract = (await compileContract(p, { planPath: "p.md", planText: text }))._unsafeUnwrap();
    expect(renderContract(contract)).toContain("## S1: Stage 1\n");
    expect(renderContract(contract)).not.toContain('## S1: ""');
  });
});

describe("1.9 what looks like structure is read, or named in a fault", () => {
  test.each([
    ["a stage heading outside the recommendation", ["## Background", "### Phase 2a: old", "## Stages", "### S1: t", "Acceptance: `true`"], 2, "stage-heading"],
    ["a stage heading at a deeper level inside a stage", ["## Stages", "## Stage 1: a", "x", "### Stage 2: b", "Acceptance: `true`"], 4, "stage-heading"],
    ["an acceptance line outside any stage", ["## Notes", "Acceptance: `true`", "## Stages", "### S1: t"], 2, "acceptance"],
    ["an acceptance line in a spelling not read", ["## Stages", "### S1: t", "Acceptance gate: `true`"], 3, "acceptance"],
    ["an exit line in a spelling not read", ["## Stages", "### S1: t", "Exit test: `make e2e` passes"], 3, "exit"],
    ["an acceptance line swallowed by a guardrail", ["## Guardrails", "- Acceptance: `true` must pass", "## Stages", "### S1: t"], 2, "acceptance"],
    ["a quoted acceptance line in a list item outside any stage", ["## Notes", "- > Acceptance: `b` exits 0", "## Stages", "### S1: t"], 2, "acceptance"],
  ])("%s", (_what, lines, line, kind) => {
    expect(fault(...lines)).toMatchObject({ code: "structure-unread", line, kind });
  });
  test("a sub-step of another kind inside a stage stays in its instructions", () => {
    const p = read("## Stages", "### Phase 1: a", "#### Step 1: write it", "x", "Acceptance: `true`");
    expect(p.stages.map((s) => s.label)).toEqual(["Phase 1"]);
    expect(p.stages[0]?.instructions).toContain("#### Step 1: write it");
  });
  test("<!-- decay: prose --> keeps a line, or a heading's whole section, as prose", () => {
    const p = read(
      "<!-- decay: prose -->",
      "## Background: Phase 1 of last year",
      "### Phase 1: done",
      "Acceptance: `old`",
      "## Stages",
      "### S1: t",
      "<!-- decay: prose -->",
      "Acceptance tests: `make e2e` are run by hand.",
      "",
      "Acceptance: `true`",
    );
    expect(p.stages.map((s) => s.acceptance.map((r) => r.run))).toEqual([["true"]]);
  });
});

describe("more of the forms plans are written in", () => {
  test.each([
    ["### Phase II — Rollout", "Phase II", "Rollout"],
    ["### Phase 1 Discovery", "Phase 1", "Discovery"],
    ["### Step 2.1: Split the table", "Step 2.1", "Split the table"],
    ["### Phase 2a: Hotfix", "Phase 2a", "Hotfix"],
  ])("%s reads as %s, %s", (heading, label, title) => {
    expect(read("## Stages", heading, "x").stages).toMatchObject([{ label, title }]);
  });
  test("an S label needs a separator: `S3 bucket policy` is no stage", () => {
    expect(read("## Stages", "### S1: t", "x", "#### S3 bucket policy", "y").stages.map((s) => s.label)).toEqual(["S1"]);
  });
  test("`passes` and `succeeds` mean exit 0", () => {
    const p = read("## Stages", "### S1: t", "Acceptance: `make check` passes", "Acceptance: `make lint` succeeds and prints `clean`");
    expect(p.stages[0]?.acceptance.map((r) => [r.expect.exit, r.expect.stdout_contains])).toEqual([
      [0, []],
      [0, ["clean"]],
    ]);
  });
  test("an Exit criteria label over a list: the list is the exit criterion, verbatim", () => {
    for (const head of ["Exit criteria:", "**Exit criteria**", "#### Exit criteria"]) {
      const p = read("## Stages", "### Phase 1: canary", head, "", "- error rate under 0.1%", "- p99 unchanged", "", "Then widen.");
      expect(p.stages[0]?.exit_criterion).toBe("- error rate under 0.1%\n- p99 unchanged");
    }
  });
  test("an **Acceptance** label alone over a list of commands", () => {
    const p = read("## Stages", "### S1: t", "**Acceptance**", "- `pnpm test` passes");
    expect(p.stages[0]?.acceptance.map((r) => r.run)).toEqual(["pnpm test"]);
  });
  test("human acceptance criteria marked as prose are not read, and not refused", () => {
    const p = read("## Stages", "### S1: t", "<!-- decay: prose -->", "**Acceptance criteria:**", "- the page loads", "", "Acceptance: `true`");
    expect(p.stages[0]?.acceptance.map((r) => r.run)).toEqual(["true"]);
    expect(fault("## Stages", "### S1: t", "**Acceptance criteria:**", "- the page loads")).toMatchObject({ code: "acceptance-invalid", line: 4 });
  });
  test("YAML front matter is not plan text", () => {
    expect(read("---", "title: Exit: none", "---", "## Stages", "### S1: t", "x").stages).toHaveLength(1);
  });
});

describe("non-goals and commands under other labels", () => {
  test("a Non-goals section is read as prohibitions", () => {
    expect(read("## Non-goals", "- Do not change the API.", "## Stages", "### S1: t", "x").prohibitions).toEqual(["Do not change the API."]);
  });
  test("a stage with no acceptance but a command under Check: is refused with a hint naming that line", async () => {
    const text = plan("## Milestones", "### Milestone 1: schema", "**Check:** `pnpm test` passes.");
    const contract = (await compileContract(readPlan(text)._unsafeUnwrap(), { planPath: "p.md", planText: text }))._unsafeUnwrap();
    const [f] = selfCheck(contract, { planText: text });
    expect(f).toMatchObject({ code: "no-acceptance", stage: "S1" });
    expect(f?.message).toContain("stage Milestone 1 (line 2, S1) is not optional");
    expect(f?.message).toContain('its line "**Check:** `pnpm test` passes." gives a command another way');
  });
});

describe("sub-stages", () => {
  test("a deeper Phase 1.1 inside Phase 1 is a sub-step, kept in its instructions", () => {
    const p = read("## Rollout", "## Phase 1: a", "### Phase 1.1: first half", "Acceptance: `true`", "## Phase 2: b", "x");
    expect(p.stages.map((s) => [s.label, s.acceptance.length])).toEqual([
      ["Phase 1", 1],
      ["Phase 2", 0],
    ]);
  });
});

describe("what real plans put around their stages", () => {
  test("an Out of Scope section is read as prohibitions", () => {
    expect(read("## Stages", "### S1: t", "x", "## Out of Scope", "- Do not touch API keys.").prohibitions).toEqual(["Do not touch API keys."]);
  });
  test("a Verification: label over a fenced block is named in the no-acceptance refusal", async () => {
    const text = plan("## Stages", "### Phase 1: a", "**Verification:**", "```bash", "pnpm test", "```");
    const contract = (await compileContract(readPlan(text)._unsafeUnwrap(), { planPath: "p.md", planText: text }))._unsafeUnwrap();
    expect(selfCheck(contract, { planText: text })[0]?.message).toContain('its line "**Verification:**" gives a command another way');
  });
});

describe("bold lines written as stage headings", () => {
  test("outside a stage, or as a same-kind stage inside one, they are named in a fault", () => {
    expect(fault("## Stages", "### Phase 1: a", "x", "", "**Phase 2: b**", "", "Acceptance: `true`")).toMatchObject({
      code: "structure-unread",
      line: 5,
      kind: "stage-heading",
      text: "**Phase 2: b**",
    });
  });
  test("a bold sub-step of another kind inside a stage is part of its instructions", () => {
    expect(read("## Stages", "### Stage 1: a", "**Step 1: write the test**", "Acceptance: `true`").stages).toHaveLength(1);
  });
});

describe("a list under a label stops at a line read as something else", () => {
  test("an acceptance checkbox after an Exit criteria list is a row, not part of the exit text", () => {
    const p = read("## Stages", "### Stage 1: t", "#### Exit criteria", "", "- it works", "", "- [ ] Acceptance: `make check`");
    expect(p.stages[0]?.exit_criterion).toBe("- it works");
    expect(p.stages[0]?.acceptance.map((r) => r.run)).toEqual(["make check"]);
  });
});

describe("a report's section numbers before the stage word", () => {
  test("`### 6.1 Stage 1 — Schema` reads as Stage 1, Schema", () => {
    expect(read("## 6. Recommendation", "### 6.1 Stage 1 — Schema", "x", "### 6.2 Stage 2 — Backfill", "y").stages).toMatchObject([
      { label: "Stage 1", title: "Schema" },
      { label: "Stage 2", title: "Backfill" },
    ]);
  });
});

describe("acceptance label spellings", () => {
  test.each([["Acceptance tests: `make e2e`"], ["Acceptance check: `make e2e`"], ["**Acceptance command:** `make e2e`"]])("%s is read", (line) => {
    expect(read("## Stages", "### S1: t", line).stages[0]?.acceptance.map((r) => r.run)).toEqual(["make e2e"]);
  });
});

describe("gates and verify steps", () => {
  test("a Gate: or Verify: line with a command in backticks is an acceptance row; without one it is prose", () => {
    const p = read(
      "## Milestones",
      "### Milestone 1: a",
      "**Gate:** `pnpm test -- schema` passes.",
      "Verify: `node check.mjs` prints `ok`",
      "Gate: PM sign-off",
    );
    expect(p.stages[0]?.acceptance.map((r) => [r.run, r.expect.stdout_contains])).toEqual([
      ["pnpm test -- schema", []],
      ["node check.mjs", ["ok"]],
    ]);
  });
});

describe("front matter", () => {
  test("a first-line thematic break with headings after it is no front matter", () => {
    expect(read("---", "## Stages", "### S1: t", "Acceptance: `true`", "", "---").stages[0]?.acceptance).toHaveLength(1);
  });
});

describe("a rule right under an acceptance line", () => {
  test("makes it a setext heading; the fault names the underline", () => {
    expect(fault("## Stages", "### S1: t", "Acceptance: `true`", "---")).toMatchObject({ code: "structure-unread", line: 3, kind: "acceptance", underline: 4 });
  });
});

// Found by a review on 2026-12-03: each of these lost a stage or a row in silence, or changed a verdict.
describe("a task list item is no stage marker", () => {
  test("`- Optional: …` among a stage's tasks leaves the stage required, so its acceptance runs", () => {
    const p = read("## Stages", "### Stage 1: Migrate", "- Copy every row.", "- Optional: log progress.", "", "Acceptance: `test -f MIGRATED` exits 0");
    expect(p.stages).toMatchObject([{ label: "Stage 1", optional: false }]);
  });
  test.each([
    ["Optional."],
    ["**Optional.** Only if time allows."],
    ["**Optional:**"],
    ["Optional stage: refunds can wait."],
    ["> Optional."],
    ["Optional (if time allows)."],
    ["*Optional.* Raise the TTL once the purge hook is live."],
    ["**(Optional)**"],
    ["Optional: yes"],
    ["This stage is optional."],
    ["This stage is optional: the cache works without it."],
  ])("a paragraph %j marks the stage optional", (mark) => {
    expect(read("## Stages", "### Stage 1: Extras", "", mark, "", "Acceptance: `true` exits 0").stages).toMatchObject([{ optional: true }]);
  });
  // Found on 2026-12-04: `Optional: also add a printer` under a required stage made the whole stage
  // optional, so its acceptance would never have run.
  test.each([
    ["Optional: also add a pretty-printer in `src/print.ts`."],
    ["**Optional:** only if time allows."],
    ["> **Optional:** skip it."],
    ["Optional — a progress bar."],
    ["Optional step: add a pretty-printer."],
    ["Optional (if time allows): add a pretty-printer."],
    ["(Optional) Add a pretty-printer."],
    ["This stage is optional for the pilot but required for GA."],
  ])("a paragraph %j may name one step: refused with its line, the stage never made optional in silence", (said) => {
    expect(fault("## Stages", "### Stage 1: Parser", "", "Write `src/parse.ts`.", "", said, "", "Acceptance: `true` exits 0")).toEqual({
      code: "optional-unclear",
      line: 6,
      text: said,
    });
  });
  test("`Optional:` over a list or a wrapped line introduces them: refused too", () => {
    expect(fault("## Stages", "### Stage 1: Parser", "", "Optional:", "", "- add a printer.", "", "Acceptance: `true` exits 0")).toMatchObject({
      code: "optional-unclear",
      line: 4,
    });
    expect(fault("## Stages", "### Stage 1: Parser", "", "**Optional:**", "add a printer.", "", "Acceptance: `true` exits 0")).toMatchObject({
      code: "optional-unclear",
      line: 4,
    });
  });
  test.each([
    ["**Optional**", "- Add a pretty-printer."],
    ["Optional", "also add a pretty-printer."],
    ["Optional:", "", "Add a pretty-printer."],
    ["Optional:", "```sh", "npm run print", "```"],
  ])("%j over what it goes on to (a list, a wrapped line, a paragraph, code): refused", (...said) => {
    expect(fault("## Stages", "### Stage 1: Parser", "", ...said, "", "Acceptance: `true` exits 0")).toMatchObject({ code: "optional-unclear", line: 4 });
  });
  test("`Optional step: …` marks a stage its heading calls a step, and `**Optional:**` over only a label marks any", () => {
    expect(read("## Steps", "### Step 1: Printer", "", "Optional step: the printer can wait.", "", "Acceptance: `true` exits 0").stages).toMatchObject([
      { optional: true },
    ]);
    expect(read("## Stages", "### Stage 1: Printer", "", "**Optional:**", "", "Exit: it prints.").stages).toMatchObject([{ optional: true }]);
  });
  test("in a stage its heading already makes optional, or under a prose marker, `Optional: …` is read as it stands", () => {
    const marked = read("## Stages", "### Stage 1 (optional): Extras", "", "Optional: also add a printer.", "", "Acceptance: `true` exits 0");
    expect(marked.stages).toMatchObject([{ optional: true }]);
    const prose = read("## Stages", "### Stage 1: Parser", "", "<!-- decay: prose -->", "Optional: also add a printer.", "", "Acceptance: `true` exits 0");
    expect(prose.stages).toMatchObject([{ optional: false }]);
  });
  test.each([
    ["Optional staged rollout is in the runbook; the flag is required."],
    ["Optional stages are skipped by the nightly run; this one is not."],
    ["Optional stage gates need a PM."],
    ["This step is optional."],
    ["Optional: no"],
    ["Optional stage gates need a PM."],
    ["**Optional:** No."],
  ])("%j says nothing of the stage: it stays required", (said) => {
    expect(read("## Stages", "### Stage 1: Rollout", "", said, "", "Acceptance: `true` exits 0").stages).toMatchObject([{ optional: false }]);
  });
  test("a sentence that merely starts with the word is no mark", () => {
    expect(read("## Stages", "### Stage 1: Extras", "", "Optionally the cache warms itself.", "", "Acceptance: `true` exits 0").stages).toMatchObject([
      { optional: false },
    ]);
  });
});

describe("acceptance in a spelling not read is refused, never dropped", () => {
  test.each([
    ["Acceptance (perf): `node bench.mjs` exits 0"],
    ["Acceptance 2: `node b.mjs` exits 0"],
    ["Acceptance test 2: `node b.mjs` exits 0"],
    ["Acceptance criteria (CI): `node b.mjs` exits 0"],
    ["Acceptance - `node b.mjs` exits 0"],
    ["Acceptance — `node b.mjs` exits 0"],
    ["Also acceptance: `node b.mjs` exits 0"],
    ["Acceptance\uff1a `node b.mjs` exits 0"],
    ["| Acceptance | `node b.mjs` | exits 0 |"],
    ["**Acceptance (perf):** `node b.mjs` exits 0"],
  ])("%s", (line) => {
    expect(fault("## Stages", "### Stage 1: Cache", "", "Acceptance: `true` exits 0", line)).toMatchObject({
      code: "structure-unread",
      line: 5,
      kind: "acceptance",
    });
  });
  test.each([["Acceptance tests live in `test/`."], ["Acceptance of this plan depends on the team: yes."], ["The acceptance suite is slow."]])(
    "prose that mentions acceptance stays prose: %s",
    (line) => {
      expect(read("## Stages", "### Stage 1: Cache", "", line, "", "Acceptance: `true` exits 0").stages[0]?.acceptance).toHaveLength(1);
    },
  );
});

describe("numbered stages", () => {
  test("an item numbered next after a paragraph resumes the list: three stages, none dropped", () => {
    const p = read(
      "## Recommendation",
      "",
      "We recommend:",
      "",
      "1. **Add the store** behind a flag.",
      "2. **Backfill** the rows.",
      "",
      "Then, later:",
      "",
      "3. **Drop the flag** once done.",
    );
    expect(p.stages.map((s) => [s.label, s.title])).toEqual([
      ["1", "Add the store"],
      ["2", "Backfill"],
      ["3", "Drop the flag"],
    ]);
  });
  test("a list numbered from 1 again after a paragraph is not the stages", () => {
    const p = read("## Recommendation", "1. **Add** x.", "2. **Backfill** y.", "", "Risks:", "", "1. Slow backfill.");
    expect(p.stages.map((s) => s.title)).toEqual(["Add", "Backfill"]);
  });
  test("an item indented one space is the next item; one indented under the text is nested in it", () => {
    const p = read(
      "## Recommendation",
      "1. **Add** x.",
      "   1. a sub-step",
      "   Acceptance: `true` exits 0",
      "2. **Backfill** y.",
      "   Acceptance: `true` exits 0",
      " 3. **Drop** z.",
      "   Acceptance: `true` exits 0",
    );
    expect(p.stages.map((s) => [s.title, s.acceptance.length])).toEqual([
      ["Add", 1],
      ["Backfill", 1],
      ["Drop", 1],
    ]);
    expect(p.stages[0]?.instructions).toContain("1. a sub-step");
  });
});

describe("a stage heading in a form not read is refused with its body", () => {
  test.each([["### Stage Two: Backfill"], ["### Stage-2: Backfill"], ["### Phase Two — Backfill"], ["### Step #2: Backfill"], ["### step two: backfill"]])(
    "%s",
    (heading) => {
      expect(
        fault("## Recommendation", "### Stage 1: Store", "Do it.", "", "Acceptance: `true` exits 0", "", heading, "", "Backfill every row."),
      ).toMatchObject({
        code: "structure-unread",
        line: 7,
        kind: "stage-heading",
      });
    },
  );
});

describe("an Exit: line right under an acceptance line", () => {
  test("is the stage's exit criterion, not a wrapped part of the acceptance line", () => {
    const p = read("## Stages", "### Stage 1: Cache", "Acceptance: `pnpm vitest run` exits 0 and prints `Tests  12 passed`.", "Exit: the suite passes.");
    expect(p.stages).toMatchObject([{ exit_criterion: "the suite passes." }]);
    expect(p.stages[0]?.acceptance.map((r) => r.run)).toEqual(["pnpm vitest run"]);
  });
});

describe("of several headings that may be the recommendation, the one holding stages", () => {
  test("`## Rollout notes` above `## Recommendation`: the stages are read, the notes stay prose", () => {
    const p = read("# Plan", "## Rollout notes", "Ship behind a flag.", "## Recommendation", "### Stage 1: a", "Acceptance: `true` exits 0");
    expect(p.stages.map((s) => s.title)).toEqual(["a"]);
  });
  test("when none holds stages, the first is refused as not staged", () => {
    expect(fault("# Plan", "## Rollout notes", "Ship it.", "## Recommendation", "- do a", "- do b")).toMatchObject({
      code: "recommendation-not-staged",
      line: 2,
    });
  });
  test("an acceptance line in the notes is still refused, never dropped", () => {
    expect(
      fault("# Plan", "## Rollout notes", "Acceptance: `true` exits 0", "## Recommendation", "### Stage 1: a", "Acceptance: `true` exits 0"),
    ).toMatchObject({
      code: "structure-unread",
      line: 3,
    });
  });
});

// Found on 2026-12-04 by real plans: each lost a stage or a guardrail in silence, or put a row where
// no row belongs.
describe("the next stage in the short form one level too deep", () => {
  test.each([["### S1: Parser"], ["### Stage 1: Parser"]])("`#### S2:` under %j is refused, never read into the stage above", (first) => {
    const f = fault("## Stages", first, "Acceptance: `true` exits 0", "", "#### S2: Wire the CLI", "Acceptance: `npm run cli` exits 0");
    expect(f).toEqual({ code: "structure-unread", line: 5, kind: "stage-too-deep", text: "S2: Wire the CLI", write: "### S2: Wire the CLI" });
  });
  test("any other short-form sub-heading stays the stage's own: `S1.2`, `S3: what we have`", () => {
    const p = read("## Stages", "### Stage 1: Storage", "#### S1.2: Buckets", "#### S3: what we have", "Acceptance: `true` exits 0");
    expect(p.stages).toMatchObject([{ label: "Stage 1", acceptance: [{ run: "true" }] }]);
  });
  test("under a prose marker it is the stage's text", () => {
    const p = read("## Stages", "### S1: Parser", "<!-- decay: prose -->", "#### S2: an example heading", "Acceptance: `true` exits 0");
    expect(p.stages.map((s) => s.label)).toEqual(["S1"]);
  });
});

describe("a prohibitions section inside a stage", () => {
  test("keeps its items; the stage's acceptance line under it is the stage's row, never a guardrail", () => {
    const p = read(
      "## Stages",
      "### Stage 1: Parser",
      "Write `src/parse.ts`.",
      "#### Out of scope",
      "- The pretty-printer.",
      "",
      "Acceptance: `npm test` exits 0",
      "Exit: the parser parses.",
      "### Stage 2: CLI",
      "Acceptance: `true` exits 0",
    );
    expect(p.prohibitions).toEqual(["The pretty-printer."]);
    expect(p.stages[0]).toMatchObject({ acceptance: [{ run: "npm test" }], exit_criterion: "the parser parses." });
    expect(planProhibitions(plan("## Stages", "### Stage 1: a", "#### Non-goals", "- No cache.", "", "Acceptance: `true` exits 0"))).toEqual(["No cache."]);
  });
});

describe("a bold label alone on its line opens a section, as a heading does", () => {
  const stages = ["## Stages", "### Stage 1: a", "Acceptance: `true` exits 0"];
  test("`**What not to do**` over a list: its items are the guardrails", () => {
    const p = read("# Plan", "", "**What not to do**", "", "- Do not touch `src/legacy.ts`.", "- Do not publish.", "", ...stages);
    expect(p.prohibitions).toEqual(["Do not touch `src/legacy.ts`.", "Do not publish."]);
  });
  test("`__Non-goals:__` over a paragraph, `**Falsifiers**` over a list", () => {
    const p = read("# Plan", "__Non-goals:__", "Multi-tenant billing.", "", "**Falsifiers**", "- If the ledger moves out.", "", ...stages);
    expect(p).toMatchObject({ prohibitions: ["Multi-tenant billing."], falsifiers: ["If the ledger moves out."] });
  });
  test("only the block right under it: the paragraph after the list stays the stage's text", () => {
    const p = read("## Stages", "### Stage 1: a", "**Out of scope**", "- The printer.", "", "Now write the tests.", "", "Acceptance: `true` exits 0");
    expect(p.prohibitions).toEqual(["The printer."]);
  });
  test("a bold sentence is no label, and a label inside a section a heading opened is read once", () => {
    expect(read("# Plan", "**Do not deploy on Fridays.**", "", "- Ship on Monday.", "", ...stages).prohibitions).toEqual([]);
    // Read once: the label leads its item (`Publish.` alone would be an instruction to publish).
    const once = read("## What not to do", "**Do not**", "- Publish.", ...stages);
    expect(once.prohibitions).toEqual(["**Do not**\nPublish."]);
  });
});

describe("`Depends on:` with any blank or a hyphen between its words", () => {
  test.each([["Depends\u00a0on: Stage 1"], ["Depends-on: Stage 1"], ["Depends upon: Stage 1"], ["**Depends  on:** Stage 1"]])(
    "%j is read: the stage depends on Stage 1, not on the stage before it",
    (line) => {
      const p = read(
        "## Stages",
        "### Stage 1: a",
        "Acceptance: `a` exits 0",
        "### Stage 2: b",
        "Acceptance: `b` exits 0",
        "### Stage 3: c",
        line,
        "",
        "Acceptance: `c` exits 0",
      );
      expect(p.stages.map((s) => s.depends_on)).toEqual([[], ["S1"], ["S1"]]);
    },
  );
});

// Found by a review on 2026-12-04 of the rules above: each still lost structure, or refused a plain plan.
describe("a section opened inside a stage, or by a bold label, holds only the block right under it", () => {
  test("a list of another kind after it is the stage's tasks, never guardrails", () => {
    const p = read(
      "## Stages",
      "### Stage 1: Parser",
      "**Out of scope**",
      "- The pretty-printer.",
      "",
      "1. Write `src/parse.ts`.",
      "2. Add tests.",
      "",
      "Acceptance: `npm test` exits 0",
    );
    expect(p.prohibitions).toEqual(["The pretty-printer."]);
  });
  test("in numbered stages, a label in one stage's item never takes the next stage's item", () => {
    const p = read(
      "## Recommendation",
      "1. **Parser** Write it.",
      "   **Out of scope**",
      "   - The printer.",
      "2. **CLI** Wire it.",
      "   Acceptance: `npm run cli` exits 0",
    );
    expect(p.prohibitions).toEqual(["The printer."]);
    expect(p.stages.map((s) => s.title)).toEqual(["Parser", "CLI"]);
  });
  test("a label right over the stages takes none of them", () => {
    const p = read(
      "## Recommendation",
      "**Out of scope**",
      "",
      "1. **Parser** Write it.",
      "   Acceptance: `npm test` exits 0",
      "2. **CLI** Wire it.",
      "   Acceptance: `true` exits 0",
    );
    expect(p).toMatchObject({ prohibitions: [], stages: [{ title: "Parser" }, { title: "CLI" }] });
  });
  test("a stage's own `#### Out of scope` runs to the next heading, as Markdown shows it; the stage's Optional. mark stays the stage's", () => {
    const p = read(
      "## Stages",
      "### Stage 1: Parser",
      "#### Out of scope",
      "- The printer.",
      "",
      "No SSO either.",
      "",
      "Optional.",
      "",
      "Acceptance: `npm test` exits 0",
    );
    expect(p.prohibitions).toEqual(["The printer.", "No SSO either."]);
    expect(p.stages).toMatchObject([{ optional: true }]);
  });
  test("code right after a label's list is its last item's; a lead-in ending in a colon takes the list under it", () => {
    const fence = ["```sh", 'psql prod -c "DROP TABLE ledger"', "```"];
    const p = read("## Stages", "### Stage 1: a", "**Do not**", "- Never run this against prod:", "", ...fence, "", "Acceptance: `true` exits 0");
    expect(p.prohibitions).toEqual([`Never run this against prod:\n\n${fence.join("\n")}`]);
    const q = read(
      "# Plan",
      "**Non-goals**",
      "We will not:",
      "",
      "* Bill tenants.",
      "- Run SSO.",
      "",
      "## Stages",
      "### Stage 1: a",
      "Acceptance: `true` exits 0",
    );
    expect(q.prohibitions).toEqual(["We will not:", "Bill tenants.", "Run SSO."]);
  });
  test("code after a label's list is an item's only when the item introduces it with a colon", () => {
    const p = read(
      "## Stages",
      "### Stage 1: a",
      "**Out of scope**",
      "- Billing tables.",
      "",
      "```sh",
      "pnpm migrate",
      "```",
      "",
      "Acceptance: `true` exits 0",
    );
    expect(p.prohibitions).toEqual(["Billing tables."]);
    expect(p.stages[0]?.instructions).toContain("pnpm migrate");
  });
  test("inside a stage, a heading's section ends at a bold line of another name and at the stage's own lines", () => {
    const p = read(
      "## Stages",
      "### Stage 1: a",
      "#### Guardrails",
      "- No downtime.",
      "",
      "**Steps**",
      "1. Flip reads.",
      "2. Watch.",
      "",
      "Acceptance: `true` exits 0",
      "",
      "Then rest.",
    );
    expect(p.prohibitions).toEqual(["No downtime."]);
    const q = read("## Stages", "### Stage 1: a", "#### Out of scope", "- Billing.", "", "Optional. Only if", "time allows.", "", "Acceptance: `true` exits 0");
    expect(q).toMatchObject({ prohibitions: ["Billing."], stages: [{ optional: true }] });
  });
  test("a wrapped Optional. paragraph is the stage's whole: none of its lines is a guardrail", () => {
    const p = read("## Stages", "### Stage 1: a", "**Out of scope**", "", "Optional. Only if", "time allows.", "", "Acceptance: `true` exits 0");
    expect(p).toMatchObject({ prohibitions: [], stages: [{ optional: true }] });
  });
  test("an inline label with a colon takes the text after it and the lines that continue it; without a colon it is a sentence", () => {
    const p = read(
      "# Plan",
      "**Non-goals:** shell completion,",
      "and plugins.",
      "",
      "__Falsifiers__: a new ledger.",
      "",
      "**Do not** deploy on Fridays.",
      "",
      "## Stages",
      "### Stage 1: a",
      "Acceptance: `true` exits 0",
    );
    expect(p).toMatchObject({ prohibitions: ["shell completion,\nand plugins."], falsifiers: ["a new ledger."] });
    const q = read("## Stages", "### Stage 1: a", "Build it.", "", "**Out of scope:** billing.", "", "Acceptance: `true` exits 0");
    expect(q.prohibitions).toEqual(["billing."]);
  });
  test("an inline label's item stops at the end of its sentence and at a field of its own; a lead-in's list is its", () => {
    const st = ["## Stages", "### Stage 1: a"];
    const p = read(...st, "**Out of scope:** the PDF renderer.", "**Risk:** low.", "Remove reports/legacy/.", "", "Acceptance: `true` exits 0");
    expect(p.prohibitions).toEqual(["the PDF renderer."]);
    const header = read(
      "# Design",
      "**Non-goals:** real-time streaming",
      "**Reviewers:** Ann, Bo",
      "",
      "## Stages",
      "### Stage 1: a",
      "Acceptance: `true` exits 0",
    );
    expect(header.prohibitions).toEqual(["real-time streaming"]);
    const task = read(...st, "**Non-goals:** pixel-identical output", "Port the reports to the new generator.", "", "Acceptance: `true` exits 0");
    expect(task.prohibitions).toEqual(["pixel-identical output"]);
    const q = read(...st, "**Non-goals:** for v2 we deliberately skip:", "", "- SSO.", "- Billing.", "", "Acceptance: `true` exits 0");
    expect(q.prohibitions).toEqual(["for v2 we deliberately skip:", "SSO.", "Billing."]);
  });
  test("a negating inline label keeps its words: the item says what not to do", () => {
    const p = read(
      "# Plan",
      "**Do NOT:** skip the dry run.",
      "",
      "**Don't**: run it on the primary.",
      "",
      "## Stages",
      "### Stage 1: a",
      "Acceptance: `true` exits 0",
    );
    expect(p.prohibitions).toEqual(["**Do NOT:** skip the dry run.", "**Don't**: run it on the primary."]);
  });
  test("an inline falsifier label inside a prohibitions section is a falsifier", () => {
    const p = read(
      "## Out of scope",
      "- Billing.",
      "",
      "**What would change the answer:** a new ledger,",
      "or a second region.",
      "",
      "## Stages",
      "### Stage 1: a",
      "Acceptance: `true` exits 0",
    );
    expect(p).toMatchObject({ prohibitions: ["Billing."], falsifiers: ["a new ledger,\nor a second region."] });
  });
  test.each([["## Don't"], ["## Dos and don'ts"], ["## Non goals"], ["## What would change my mind"], ["## Kill criteria"]])(
    "%j opens its section",
    (heading) => {
      const p = read("# Plan", heading, "- Item.", "", "## Stages", "### Stage 1: a", "Acceptance: `true` exits 0");
      // `Don't` says not to: the item is read under its words.
      expect([...p.prohibitions, ...p.falsifiers]).toEqual([heading === "## Don't" ? "Don't\nItem." : "Item."]);
    },
  );
  test("a headed section goes on after the block of a label of the other kind inside it", () => {
    const p = read(
      "## Guardrails",
      "- No downtime.",
      "",
      "**What would change the answer**",
      "- A new ledger.",
      "",
      "Never drop tables.",
      "",
      "## Stages",
      "### Stage 1: a",
      "Acceptance: `true` exits 0",
    );
    expect(p).toMatchObject({ prohibitions: ["No downtime.", "Never drop tables."], falsifiers: ["A new ledger."] });
  });
  test("5,000 lead-ins ending in a colon under one label: read, with no recursion", () => {
    const leads = Array.from({ length: 5_000 }, (_, k) => [`Lead ${k}:`, ""]).flat();
    expect(read("# Plan", "**Non-goals**", "", ...leads, "- x", "", "## Stages", "### Stage 1: a", "Acceptance: `true` exits 0").prohibitions).toEqual([
      "Lead 0:",
    ]);
  });
  test("a bold label of the other kind ends a headed section: `**Falsifiers**` under `### Guardrails`", () => {
    const p = read(
      "# Plan",
      "### Guardrails",
      "- Do not publish.",
      "",
      "**Falsifiers**",
      "- If the ledger moves out.",
      "",
      "## Stages",
      "### Stage 1: a",
      "Acceptance: `true` exits 0",
    );
    expect(p).toMatchObject({ prohibitions: ["Do not publish."], falsifiers: ["If the ledger moves out."] });
  });
  test("a label of the same kind inside a section a heading opened is one of its items, read once", () => {
    const p = read(
      "## What not to do",
      "- Do not publish.",
      "",
      "**Non-goals**",
      "- Billing.",
      "",
      "## Stages",
      "### Stage 1: a",
      "Acceptance: `true` exits 0",
    );
    expect(p.prohibitions).toEqual(["Do not publish.", "**Non-goals**", "Billing."]);
  });
  test("a label right under an acceptance list ends the list: its items are guardrails, not rows", () => {
    const p = read("## Stages", "### Stage 1: a", "Acceptance:", "- `true` exits 0", "**Out of scope**", "- touching billing");
    expect(p).toMatchObject({ prohibitions: ["touching billing"], stages: [{ acceptance: [{ run: "true" }] }] });
  });
  test("an Exit: line right over a label ends there: the label's list is guardrails", () => {
    const p = read("## Stages", "### Stage 1: Parser", "Acceptance: `npm test` exits 0", "Exit: the parser parses.", "**Out of scope**", "- The printer.");
    expect(p.stages[0]?.exit_criterion).toBe("the parser parses.");
    expect(p.prohibitions).toEqual(["The printer."]);
  });
  test("labels named as headings may be: `Explicitly out of scope`, `Out of scope (v1)`, `Non-goals for v1`, `Don't`", () => {
    for (const label of ["**Explicitly out of scope**", "**Out of scope (v1)**", "**Non-goals for v1:**", "**Don't**"]) {
      // `Don't` says not to: its words lead the item; the others name the section the guardrails are.
      const item = label === "**Don't**" ? "**Don't**\nBilling." : "Billing.";
      expect(read("# Plan", label, "- Billing.", "", "## Stages", "### Stage 1: a", "Acceptance: `true` exits 0").prohibitions).toEqual([item]);
    }
  });
  test("a run of labels: the last one's block, read once, in time linear in the lines", () => {
    const labels = Array.from({ length: 50_000 }, () => "**Do not**");
    expect(read("# Plan", ...labels, "Publish.", "", "## Stages", "### Stage 1: a", "Acceptance: `true` exits 0").prohibitions).toEqual([
      "**Do not**\nPublish.",
    ]);
  });
});

describe("the next stage one level too deep, in either form, only where it is missing", () => {
  test("`#### Stage 2:` under `### S1` is refused, as `#### S2:` under `### Stage 1` is, with the heading to write", () => {
    const f = fault("## Stages", "### S1: Parser", "Acceptance: `true` exits 0", "#### Stage 2: CLI", "Acceptance: `b` exits 0");
    expect(f).toEqual({ code: "structure-unread", line: 4, kind: "stage-too-deep", text: "Stage 2: CLI", write: "### Stage 2: CLI" });
    expect(describeFault(f)).toContain('Write it at the stages\' level ("### Stage 2: CLI")');
  });
  test("many sub-headings of the next number under a stage that numbers its own: linear in the headings", () => {
    const subs = Array.from({ length: 50_000 }, () => "#### S2: again");
    expect(read("## Stages", "### Stage 1: a", "#### S1: first", ...subs, "Acceptance: `true` exits 0").stages.map((s) => s.label)).toEqual(["Stage 1"]);
  });
  test("`#### S3: bucket layout` under `### Stage 2`, with a `### Stage 3` after it, is the stage's own text", () => {
    const p = read(
      "## Stages",
      "### Stage 1: DB",
      "Acceptance: `a` exits 0",
      "### Stage 2: Storage",
      "#### S3: bucket layout",
      "Acceptance: `b` exits 0",
      "### Stage 3: CDN",
      "Acceptance: `c` exits 0",
    );
    expect(p.stages.map((s) => s.acceptance.map((r) => r.run))).toEqual([["a"], ["b"], ["c"]]);
  });
  test("sub-steps numbered from the stage's own number down are the stage's: `#### S1:` then `#### S2:` under `### Stage 1`", () => {
    const p = read("## Stages", "### Stage 1: Data", "#### S1: Schema", "#### S2: Migration", "Acceptance: `a` exits 0");
    expect(p.stages.map((s) => s.label)).toEqual(["Stage 1"]);
  });
});

describe("Optional in quotes, many times over", () => {
  test("50,000 quoted `Optional:` lines, each lazily continued, are read in time linear in the lines", () => {
    const body = Array.from({ length: 25_000 }, () => ["> Optional:", "x"]).flat();
    expect(read("## Stages", "### Stage 1 (optional): a", ...body, "", "Acceptance: `true` exits 0").stages).toMatchObject([{ optional: true }]);
  });
});

describe("a dependency in a spelling not read, naming an earlier stage, is refused", () => {
  const two = ["## Stages", "### Stage 1: a", "Acceptance: `a` exits 0", "### Stage 2: b", "Acceptance: `b` exits 0", "### Stage 3: c"];
  test.each([
    ["Requires: Stage 1", "Depends on: Stage 1"],
    ["**Dependencies:** Stage 1, Stage 2", "Depends on: Stage 1, Stage 2"],
    ["Prerequisites: S1", "Depends on: Stage 1"],
    ["Depends on Stage 1 only.", "Depends on: Stage 1"],
    ["- **Dependencies:** Stage 1", "Depends on: Stage 1"],
    ["**Dependencies:** Stage 1 (can run beside Stage 2)", "Depends on: Stage 1"],
  ])("%j: the stage would depend on the one before it in silence", (line, write) => {
    expect(fault(...two, "", line, "", "Acceptance: `c` exits 0")).toMatchObject({
      code: "structure-unread",
      line: 8,
      kind: "depends-spelled",
      text: line,
      write,
    });
  });
  test("every such paragraph is looked at, not the first alone", () => {
    expect(fault(...two, "", "Requires: a maintenance window.", "", "Requires: Stage 1.", "", "Acceptance: `c` exits 0")).toMatchObject({
      kind: "depends-spelled",
      line: 10,
      write: "Depends on: Stage 1",
    });
  });
  test("naming just the stage before, or no stage at all, is the stage's text", () => {
    for (const line of ["Requires Stage 2's migration to have run.", "Requires S3 bucket access.", "Requires step 1 of the runbook."]) {
      expect(read(...two, "", line, "", "Acceptance: `c` exits 0").stages[2]?.depends_on).toEqual(["S2"]);
    }
  });
  test("a paragraph of `Requires` and 200,000 blanks is read in linear time", () => {
    expect(read(...two, "", `Requires${" ".repeat(200_000)}`, "", "Acceptance: `c` exits 0").stages[2]?.depends_on).toEqual(["S2"]);
  });
  test("one naming no stage is the stage's text, and a Depends on: line settles it", () => {
    const p = read(
      ...two,
      "",
      "Requires: Node 20 and a restart.",
      "",
      "Depends on: Stage 1",
      "",
      "Prerequisites: Stage 2's schema.",
      "",
      "Acceptance: `c` exits 0",
    );
    expect(p.stages[2]?.depends_on).toEqual(["S1"]);
    expect(read(...two, "", "Requires a restart of the service.", "", "Acceptance: `c` exits 0").stages[2]?.depends_on).toEqual(["S2"]);
  });
});
