// The plan reader never loses, adds or switches off structure in silence: where CommonMark's
// reading of blocks is clear (code, lists, fences) it follows it; where the plan format chooses
// otherwise, it refuses with a fault naming the line.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { compileContract } from "../compile.js";
import { describeFault } from "../fault.js";
import { selfCheck } from "../self-check/check.js";
import { readPlan } from "./read-plan.js";

const plan = (...lines: string[]) => lines.join("\n");
const read = (...lines: string[]) => readPlan(plan(...lines))._unsafeUnwrap();
const fault = (...lines: string[]) => readPlan(plan(...lines))._unsafeUnwrapErr();
const runs = (...lines: string[]) => read(...lines).stages.map((s) => s.acceptance.map((r) => r.run));
const head = ["# Plan", "", "## Recommendation", ""];
/** The head of a plan and the first lines of its one stage, `Stage 1: a`. */
const s1 = [...head, "### Stage 1: a", ""];

describe("a line of backticks with a backtick after them is no fence", () => {
  test("```` ``` ```` in a sentence opens nothing: the stages after it are read", () => {
    const p = read(
      ...head,
      "### Stage 1: Docs",
      "",
      "Acceptance: `a`",
      "",
      "```` ``` ```` fences get a language tag.",
      "",
      "### Stage 2: Site",
      "",
      "Acceptance: `b`",
    );
    expect(p.stages.map((s) => [s.label, s.acceptance.map((r) => r.run)])).toEqual([
      ["Stage 1", ["a"]],
      ["Stage 2", ["b"]],
    ]);
  });
  test("a tilde fence may hold backticks in its info string, and hides what it holds", () => {
    expect(runs(...head, "### Stage 1: t", "", "~~~ a`b", "Acceptance: `hidden`", "~~~", "", "Acceptance: `a`")).toEqual([["a"]]);
  });
});

describe("a fence never closed", () => {
  test("that hides a stage is refused, naming the fence's line and the line it hides", () => {
    const f = fault(...s1, "Acceptance: `a`", "", "```sh", "echo hi", "", "### Stage 2: b", "", "Acceptance: `b`");
    expect(f).toMatchObject({ code: "structure-unread", kind: "unclosed-fence", line: 9, text: "```sh", hides: { line: 12, text: "### Stage 2: b" } });
    expect(describeFault(f)).toMatch(/^line 9: "```sh" opens a code fence that is never closed: .*hides line 12 \("### Stage 2: b"\)/);
  });
  test("that hides an Acceptance line, or a guardrails section, is refused too", () => {
    expect(fault(...s1, "Acceptance: `a`", "", "~~~~", "Acceptance: `b`")).toMatchObject({ kind: "unclosed-fence", line: 9 });
    expect(fault(...s1, "Acceptance: `a`", "", "```", "## What not to do", "- x")).toMatchObject({
      kind: "unclosed-fence",
      hides: { line: 10 },
    });
  });
  test("that hides only code is code to the end of the plan, as CommonMark reads it", () => {
    const p = read(...s1, "Acceptance: `a`", "", "```sh", "# install", "npm ci");
    expect(p.stages[0]?.instructions).toBe("\nAcceptance: `a`\n\n```sh\n# install\nnpm ci");
  });
  test("a fence in a list item or a quote ends with its container, as CommonMark reads it", () => {
    expect(runs(...s1, "> ```", "> Acceptance: `hidden`", "", "Acceptance: `a`")).toEqual([["a"]]);
    expect(runs(...s1, "- ```", "  Acceptance: `hidden`", "", "Acceptance: `a`")).toEqual([["a"]]);
  });
});

describe("text after a comment's closing --> on the same line", () => {
  test("is refused naming its line: Markdown shows it, the comment's block would swallow it", () => {
    for (const [lines, line] of [
      [[...s1, "Acceptance: `a`", "", "<!-- todo --> Acceptance: `b` prints `ok`"], 9],
      [[...s1, "Acceptance: `a`", "", "<!-- a longer", "note --> Acceptance: `b`"], 10],
      [[...s1, "Acceptance: `a`", "", "- <!-- x --> Acceptance: `b`"], 9],
      [["# P", "", "## What not to do", "", "<!-- reviewed --> Do not drop the column until the backfill has run.", "", ...s1.slice(2), "Acceptance: `a`"], 5],
      [[...s1, "Acceptance: `a`", "", "<!-- a --> text <!-- b -->"], 9],
    ] as const) {
      const f = fault(...lines);
      expect(f).toMatchObject({ code: "structure-unread", kind: "after-comment", line });
      expect(describeFault(f)).toMatch(
        new RegExp(`^line ${line}: ".*-->.*" holds text after the comment's --> : Markdown shows it, .* put the text on a line of its own$`),
      );
    }
  });
  test("comments alone on their lines, or two on one line, hide nothing and are read past", () => {
    expect(runs(...s1, "<!-- prettier-ignore -->", "Acceptance: `a`", "<!-- one --> <!-- two -->  ", "<!--", "x -->", "Acceptance: `b`")).toEqual([["a", "b"]]);
  });
});

describe("an HTML comment never closed", () => {
  test("that hides a stage is refused as a fence is, naming the comment's line and the line it hides", () => {
    const f = fault(...s1, "Acceptance: `a`", "", "<!-- note", "", "### Stage 2: b", "", "Acceptance: `b`");
    expect(f).toMatchObject({ code: "structure-unread", kind: "unclosed-comment", line: 9, text: "<!-- note", hides: { line: 11, text: "### Stage 2: b" } });
    expect(describeFault(f)).toMatch(
      /^line 9: "<!-- note" opens an HTML comment that is never closed: .*hides line 11 \("### Stage 2: b"\); close it with -->/,
    );
  });
  test("in a list item or a quote it runs on all the same, and is refused", () => {
    expect(fault(...s1, "Acceptance: `a`", "", "- <!-- old:", "", "Acceptance: `b`")).toMatchObject({ kind: "unclosed-comment", line: 9 });
    expect(fault(...s1, "Acceptance: `a`", "", "> <!--", "## What not to do", "- x")).toMatchObject({ kind: "unclosed-comment", hides: { line: 10 } });
  });
  test("that hides only prose is a comment to the end of the plan", () => {
    expect(read(...s1, "Acceptance: `a`", "", "<!-- draft", "more words").stages[0]?.acceptance).toHaveLength(1);
  });
  test("any plan with an unclosed fence or comment before a stage heading is refused, never compiled with fewer stages", () => {
    const openers = fc.constantFrom(
      { text: "```", kind: "unclosed-fence" },
      { text: "~~~~ sh", kind: "unclosed-fence" },
      { text: "<!--", kind: "unclosed-comment" },
      { text: "<!-- note: later", kind: "unclosed-comment" },
      { text: "- <!-- old:", kind: "unclosed-comment" },
      { text: "> <!--", kind: "unclosed-comment" },
    );
    const filler = fc.array(fc.constantFrom("", "echo hi", "some words", "- an item", "    indented", "> quoted"), { maxLength: 4 });
    const shape = fc.integer({ min: 2, max: 5 }).chain((n) => fc.tuple(fc.constant(n), fc.integer({ min: 1, max: n - 1 }), openers, filler));
    fc.assert(
      fc.property(shape, ([n, before, opener, fill]) => {
        const lines = [...head];
        let openAt = 0;
        let hidden = 0;
        for (let k = 1; k <= n; k++) {
          if (k === before + 1) {
            openAt = lines.length + 1;
            lines.push(opener.text, ...fill, "");
            hidden = lines.length + 1;
          }
          lines.push(`### Stage ${k}: t${k}`, "", `Acceptance: \`run ${k}\``, "");
        }
        const result = readPlan(lines.join("\n"));
        if (result.isOk()) return false;
        expect(result.error).toMatchObject({ code: "structure-unread", kind: opener.kind, line: openAt, hides: { line: hidden } });
        return true;
      }),
      { numRuns: 500 },
    );
  });
});

describe("code is never plan text", () => {
  test("indented code, a fence in a list item indented 4 spaces, a fence in a quote: no rows from any", () => {
    const p = read(
      ...head,
      "### Stage 1: Retire the deploy script",
      "",
      "The old template had this line:",
      "",
      "    Acceptance: `make deploy` exits 0",
      "",
      "1. Quote the old runbook:",
      "",
      "    ```markdown",
      "    Acceptance: `git status` exits 0",
      "    ```",
      "",
      "> Old CI config:",
      "> ```",
      "> Acceptance: `./scripts/release.sh` exits 0",
      "> ```",
      "",
      "Acceptance: `true` exits 0",
    );
    expect(p.stages[0]?.acceptance.map((r) => r.run)).toEqual(["true"]);
  });
  test("a line indented 4 spaces that continues a paragraph is no code (CommonMark: code cannot interrupt a paragraph)", () => {
    expect(runs(...s1, "Some text", "    Acceptance: `a`")).toEqual([["a"]]);
  });
  test("under an Acceptance label, indented code is refused with the line to write, like a fenced block", () => {
    expect(fault(...s1, "Acceptance:", "", "    npm test")).toMatchObject({
      code: "acceptance-invalid",
      problem: "fenced-command",
      line: 7,
      write: "Acceptance: `npm test` exits 0",
    });
  });
});

describe("an acceptance list is read as CommonMark reads a list", () => {
  test("a paragraph under an item and blank lines between items end nothing: every command is a row", () => {
    const r = runs(...s1, "Acceptance:", "", "- `a` exits 0", "", "  Checks the schema file exists.", "", "", "- `b` exits 0", "- `c` exits 0");
    expect(r).toEqual([["a", "b", "c"]]);
  });
  test("code and a nested prose list under an item belong to it; the next item is still a row", () => {
    const r = runs(...s1, "Acceptance:", "", "1. `a`", "", "   ```sh", "   Acceptance: `hidden`", "   ```", "", "   - why: it is fast", "2. `b`");
    expect(r).toEqual([["a", "b"]]);
  });
  test("a line right under an item, at the margin, continues it (a lazy line): the items after it are rows", () => {
    expect(runs(...s1, "Acceptance:", "", "- `a` exits 0", "checks the schema.", "- `b` exits 0")).toEqual([["a", "b"]]);
  });
  test("a command in a nested list is refused, never dropped or guessed a row", () => {
    expect(fault(...s1, "Acceptance:", "", "- `a`", "  - `b` exits 0")).toMatchObject({
      code: "acceptance-invalid",
      problem: "nested-command",
      line: 10,
    });
  });
  test("an item that is no command, after a blank line, is refused with its line", () => {
    expect(fault(...s1, "Acceptance:", "", "- `a`", "", "- Deploy afterwards.")).toMatchObject({
      problem: "list-item-not-command",
      line: 11,
    });
  });
  test.each([["---"], ["***"], ["___"]])("a %s indented into an item is the item's content: the items after it are still rows", (rule) => {
    expect(runs(...s1, "Acceptance:", "", "- `a`", `  ${rule}`, "- `b`")).toEqual([["a", "b"]]);
    expect(runs(...s1, "Acceptance:", "", "- `a`", "", `  ${rule}`, "", "- `b`", "- `c`")).toEqual([["a", "b", "c"]]);
    expect(runs(...s1, "Acceptance:", "", "1. `a`", `   ${rule}`, "2. `b`")).toEqual([["a", "b"]]);
    expect(runs(...s1, "Acceptance:", "", "1) `a`", "", `   ${rule}`, "   why it matters", "2) `b`")).toEqual([["a", "b"]]);
  });
  test("a paragraph back at the margin after a blank line ends the list; what follows is read as before", () => {
    const p = read(...s1, "Acceptance:", "", "- `a`", "", "Then deploy.", "", "Exit: done");
    expect(p.stages[0]).toMatchObject({ exit_criterion: "done", acceptance: [{ run: "a" }] });
  });
});

describe("a thematic break inside a list item or a block quote ends nothing; one at the margin is a separator", () => {
  test.each([
    ["in a quoted list", ["> Acceptance:", ">", "> - `a`", "> ---", "> - `b`"]],
    ["in an item of a quoted list", ["> Acceptance:", ">", "> - `a`", ">   ---", "> - `b`"]],
    ["in a quote inside an item", ["Acceptance:", "", "- `a`", "  > note", "  > ***", "- `b`"]],
    ["in a quote inside an item, after a blank line", ["Acceptance:", "", "- `a`", "", "  > ___", "", "- `b`"]],
    ["in an item, indented 4 under `1.  `", ["Acceptance:", "", "1.  `a`", "", "    ---", "", "2.  `b`"]],
  ])("%s: the rows after it are read", (_, lines) => {
    expect(runs(...s1, ...lines)).toEqual([["a", "b"]]);
  });
  test("a command in a list in a quote inside an item is nested in the item: refused, never a row of the list", () => {
    expect(fault(...s1, "Acceptance:", "", "- `a`", "", "  > - `x`", "", "- `b`")).toMatchObject({ problem: "nested-command", line: 11 });
  });
  test("in a guardrail item after a blank line: the paragraph after it is still the item's", () => {
    const p = read("# Plan", "", "## What not to do", "", "- Do not X", "", "  ---", "", "  unless Y.", "- Do not Z", "", ...s1.slice(2), "Acceptance: `a`");
    expect(p.prohibitions).toEqual(["Do not X\n\n  ---\n\n  unless Y.", "Do not Z"]);
  });
  test("in an item of an exit criteria list: the items after it are the criterion's", () => {
    const p = read(...s1, "Acceptance: `a`", "", "Exit criteria:", "- users see refunds", "  ---", "- the old path is gone");
    expect(p.stages[0]?.exit_criterion).toBe("- users see refunds\n  ---\n- the old path is gone");
  });
  describe("at a numbered stage's text, in the stage's item, it ends the list or paragraph under a label, as at the margin", () => {
    /** A plan of one numbered stage whose body (indented to the item's text) is `body`. */
    const numbered = (...body: string[]) => read(...head, "1. **Build** the parser.", "", ...body.map((l) => (l === "" ? "" : `   ${l}`)));
    test.each([["---"], ["***"], ["___"]])("%s after an exit criteria list: the verification list after it gives its rows", (rule) => {
      const p = numbered(
        "Acceptance: `true` exits 0",
        "",
        "Exit criteria",
        "- the parser reads every sample",
        "",
        rule,
        "",
        "**Verification**",
        "- `false` exits 0",
      );
      expect(p.stages[0]?.acceptance.map((r) => r.run)).toEqual(["true", "false"]);
      expect(p.stages[0]?.exit_criterion).toBe("   - the parser reads every sample");
    });
    test("after an exit criteria paragraph: the verification list after it gives its rows", () => {
      const p = numbered("Acceptance: `true` exits 0", "", "Exit criteria", "the build is done", "***", "#### Verify", "- `false` exits 0");
      expect(p.stages[0]?.acceptance.map((r) => r.run)).toEqual(["true", "false"]);
      expect(p.stages[0]?.exit_criterion).toBe("   the build is done");
    });
    test("between the items of an acceptance list: refused, as at the margin; never more rows of the list it ended", () => {
      const f = readPlan(plan(...head, "1. **Build** the parser.", "", "   Acceptance:", "", "   - `true` exits 0", "   ---", "   - `rm -rf build` exits 0"));
      expect(f._unsafeUnwrapErr()).toMatchObject({ code: "structure-unread", kind: "rule-in-list", line: 10, hides: { line: 11 } });
      const prose = numbered("Acceptance:", "", "- `true` exits 0", "---", "- tidy the build folder");
      expect(prose.stages[0]?.acceptance.map((r) => r.run)).toEqual(["true"]);
    });
    test("indented into an exit criteria item it is still the item's", () => {
      const p = numbered("Acceptance: `true` exits 0", "", "Exit criteria", "- users see refunds", "  ---", "- the old path is gone");
      expect(p.stages[0]?.exit_criterion).toBe("   - users see refunds\n     ---\n   - the old path is gone");
    });
  });
  test("at the margin it ends the list, the guardrail, and the stage's instructions", () => {
    const p = read(...s1, "Acceptance:", "", "- `a`", "---", "Exit: done", "", "---");
    expect(p.stages[0]).toMatchObject({ acceptance: [{ run: "a" }], exit_criterion: "done", instructions: "\nAcceptance:\n\n- `a`\n---\nExit: done" });
  });
});

describe("a thematic break at the margin between the items of an acceptance list", () => {
  // CommonMark ends the list there, and the items after it would be instructions, not rows: refused.
  test.each([
    ["---", ["- `a` exits 0", "---", "- `b` exits 0"]],
    ["***", ["- `a` exits 0", "", "***", "", "- `b` prints `ok`"]],
    ["___", ["1. `a`", "___", "2. `b`"]],
    ["- - -", ["- `a`", "", "- - -", "- [ ] `b` matches /ok/"]],
  ])("%s: refused, naming the break and the first item after it", (rule, lines) => {
    const f = fault(...s1, "Acceptance:", "", ...lines, "- `c` exits 0");
    const at = 9 + lines.indexOf(rule);
    const item = 9 + lines.length - 1;
    expect(f).toMatchObject({ code: "structure-unread", kind: "rule-in-list", line: at, text: rule, hides: { line: item, text: lines.at(-1) } });
    expect(describeFault(f)).toBe(
      `line ${at}: "${rule}" is a thematic break between the items of an acceptance list: it ends the list, so line ${item} ("${lines.at(-1)}") and the items after it would be read as instructions, not rows; delete the break, or write Acceptance: over the items after it, or put <!-- decay: prose --> on the line before it to keep it as prose`,
    );
  });
  test.each([
    ["prose", ["- `a` exits 0", "", "---", "", "Then, once it is green:", "", "- `b` exits 0"]],
    ["a prose list and code", ["- `a`", "***", "- tidy the folder", "", "```sh", "ls", "```", "- `b` prints `ok`"]],
    ["a comment and a deeper item", ["- `a`", "", "___", "<!-- the deploy checks -->", "", "  - `b` exits 0"]],
  ])("a break, then %s, then an item that would be a row: refused, naming the break and that item", (_, lines) => {
    // The repro: `decay-contract check` took the first of these as a stage with one row, `a`; `b` ran never.
    const f = fault(...s1, "Acceptance:", "", ...lines);
    const rule = lines.find((l) => /^(?:---|\*\*\*|___)$/.test(l)) ?? "";
    const item = 9 + lines.length - 1;
    expect(f).toMatchObject({
      code: "structure-unread",
      kind: "rule-in-list",
      line: 9 + lines.indexOf(rule),
      text: rule,
      hides: { line: item, text: lines.at(-1)?.trim() },
    });
  });
  test("what comes after the break is looked at up to the next heading, label or stage, and a prose mark keeps an item as prose", () => {
    const list = ["Acceptance:", "", "- `a`", "", "---", "", "Then:", ""];
    expect(runs(...s1, ...list, "#### Rollback", "", "- `git revert HEAD` exits 0")).toEqual([["a"]]);
    expect(runs(...s1, ...list, "Exit criteria:", "", "- `b` exits 0")).toEqual([["a"]]);
    expect(runs(...s1, ...list, "**Verification**", "", "- `b` exits 0")).toEqual([["a", "b"]]);
    expect(runs(...s1, ...list, "<!-- decay: prose -->", "- `git revert HEAD` exits 0")).toEqual([["a"]]);
    expect(runs(...s1, ...list, "### Stage 2: b", "", "- `b` exits 0")).toEqual([["a"], []]);
  });
  test("a break over prose, a prose list, a new Acceptance: label or the next stage is read as before", () => {
    const list = ["Acceptance:", "", "- `a`", "", "---", ""];
    expect(runs(...s1, ...list, "Then deploy `b` exits 0.")).toEqual([["a"]]);
    expect(runs(...s1, ...list, "- Deploy `b` afterwards.", "- `src/b.ts` holds the handler")).toEqual([["a"]]);
    expect(runs(...s1, ...list, "- `src/b.ts` holds the handler, see below")).toEqual([["a"]]);
    expect(runs(...s1, ...list, "Acceptance:", "", "- `b` exits 0")).toEqual([["a", "b"]]);
    expect(runs(...s1, ...list, "### Stage 2: b", "", "- `b` exits 0")).toEqual([["a"], []]);
  });
});

describe("every reader takes a list item the same way (one reading: itemLine)", () => {
  const guardrails = (...lines: string[]) => read("# Plan", "", "## What not to do", "", ...lines, "", ...s1.slice(2), "Acceptance: `a`").prohibitions;
  test("a guardrail whose marker a tab follows has its text at column 4: an item indented 3 is the next guardrail, not part of it", () => {
    expect(guardrails("-\tDo not drop the column.", "   - Do not rename it.")).toEqual(["Do not drop the column.", "Do not rename it."]);
    expect(guardrails("1.\tDo not drop it.", "", "\tUntil the backfill ran.", "2.\tDo not rename it.")).toEqual([
      "Do not drop it.\n\n\tUntil the backfill ran.",
      "Do not rename it.",
    ]);
  });
  test("an empty item under Acceptance: is an item that is no command, refused with its line, with or without a blank after its marker", () => {
    for (const empty of ["-", "- ", "2."]) {
      expect([empty, fault(...s1, "Acceptance:", "", "- `a`", empty, "- `b`")]).toMatchObject([empty, { problem: "list-item-not-command", line: 10 }]);
    }
  });
});

describe("only a paragraph's first line marks a stage optional; code never does", () => {
  const check = async (text: string) => {
    const p = readPlan(text)._unsafeUnwrap();
    const c = (await compileContract(p, { planPath: "p.md", planText: text }))._unsafeUnwrap();
    return selfCheck(c, { planText: text }).map((f) => `${f.code} ${f.stage}`);
  };
  test("`optional.` wrapped from the line before is prose: the stage stays required and is refused with no acceptance", async () => {
    const text = plan(
      ...head,
      "### Stage 1: Add the flag",
      "",
      "Add the flag. Turning it on stays",
      "optional. Nothing else changes.",
      "",
      "### Stage 2: b",
      "",
      "Acceptance: `true`",
    );
    expect(readPlan(text)._unsafeUnwrap().stages[0]?.optional).toBe(false);
    expect(await check(text)).toContain("no-acceptance S1");
  });
  test("`optional: true` in YAML in a list item's code block is code", () => {
    const p = read(...head, "### Stage 1: CI", "", "- Add the job:", "", "    ```yaml", "    jobs:", "      lint:", "        optional: true", "    ```");
    expect(p.stages[0]?.optional).toBe(false);
  });
  test("a paragraph inside a list item is the item's, not the stage's", () => {
    expect(read(...s1, "- Log progress.", "", "  Optional: also log timings.").stages[0]?.optional).toBe(false);
  });
  test("a paragraph that starts `Optional.` still marks it, also after a heading or in a quote", () => {
    expect(read(...head, "### Stage 1: a", "Optional. Only if time allows.").stages[0]?.optional).toBe(true);
    expect(read(...s1, "Some text.", "", "> **Optional.** Skip it.").stages[0]?.optional).toBe(true);
  });
});

describe("Depends on: names a stage exactly", () => {
  const stages = ["### Phase 1.1: a", "Acceptance: `a`", "### Phase 1.2: b", "Acceptance: `b`", "### Phase 2.1: c", "Depends on: none", "Acceptance: `c`"];
  test("`Phase 2` is not `Phase 1.2`: depends-unknown, naming the reference", () => {
    expect(fault(...head, ...stages, "### Phase 2.2: d", "Depends on: Phase 2", "Acceptance: `d`")).toEqual({
      code: "depends-unknown",
      line: 13,
      ref: "Phase 2",
    });
  });
  test("a label, an id, or a number equal to one label's whole number resolves", () => {
    const p = read(...head, ...stages, "### Phase 2.2: d", "Depends on: Phase 1.2, S1 and 2.1", "Acceptance: `d`");
    expect(p.stages[3]?.depends_on).toEqual(["S2", "S1", "S3"]);
    expect(read(...head, "### Phase 1: a", "Acceptance: `a`", "### Phase 2: b", "Depends on: Stage 1", "Acceptance: `b`").stages[1]?.depends_on).toEqual([
      "S1",
    ]);
  });
});

describe("a stage has one Depends on: line", () => {
  const three = ["### Stage 1: a", "", "Acceptance: `a`", "", "### Stage 2: b", "", "Acceptance: `b`", "", "### Stage 3: c", ""];
  test("a second one is refused, naming both lines, as a second Exit: line is (it replaced the first in silence)", () => {
    const f = fault(...head, ...three, "Depends on: Stage 1", "Depends on: Stage 2", "", "Acceptance: `c`");
    expect(f).toEqual({ code: "duplicate-depends", line: 16, first: 15 });
    expect(describeFault(f)).toBe(
      "line 16: a second Depends on: line in the same stage (the first is on line 15): name every stage it depends on in one line (Depends on: Stage 1, Stage 2)",
    );
  });
  test("also in a list, apart from the first, or with the same reference", () => {
    expect(fault(...head, ...three, "- Depends on: none", "", "Text.", "", "- **Depends on:** S1", "", "Acceptance: `c`")).toMatchObject({
      code: "duplicate-depends",
      line: 19,
      first: 15,
    });
    expect(fault(...head, ...three, "Depends on: S1", "Depends on: S1")).toMatchObject({ code: "duplicate-depends" });
  });
  test("one line naming both is read", () => {
    expect(read(...head, ...three, "Depends on: Stage 1, Stage 2", "", "Acceptance: `c`").stages[2]?.depends_on).toEqual(["S1", "S2"]);
  });
});

describe("a nested bullet in a guardrail belongs to its parent", () => {
  test("`- Do not drop` over `  - until …` is one guardrail, condition kept", () => {
    const p = read(
      "# P",
      "",
      "## What not to do",
      "",
      "- Do not drop the old column",
      "  - until the backfill has run.",
      "- Do not X.",
      "",
      ...head.slice(2),
      "### Stage 1: a",
      "Acceptance: `a`",
    );
    expect(p.prohibitions).toEqual(["Do not drop the old column\n  - until the backfill has run.", "Do not X."]);
  });
  test("a paragraph indented under an item after a blank line is the item's too; one at the margin is an item of its own", () => {
    const p = read("# P", "", "## Guardrails", "", "- Do not A", "", "  unless B.", "", "Do not C.", "", ...head.slice(2), "### Stage 1: a", "Acceptance: `a`");
    expect(p.prohibitions).toEqual(["Do not A\n\n  unless B.", "Do not C."]);
  });
});

describe("an exit criteria label over a paragraph", () => {
  test("the paragraph is the exit criterion, verbatim", () => {
    const p = read(...s1, "#### Exit criteria", "", "The report renders for", "every region.", "", "Acceptance: `a`");
    expect(p.stages[0]).toMatchObject({ exit_criterion: "The report renders for\nevery region.", acceptance: [{ run: "a" }] });
  });
  test("an Acceptance line right under it is read as a row, not swallowed", () => {
    const p = read(...s1, "**Exit criteria**", "Acceptance: `a`");
    expect(p.stages[0]).toMatchObject({ exit_criterion: "", acceptance: [{ run: "a" }] });
  });
});

describe("every pattern over a plan line is linear", () => {
  // No timing assertion: a quadratic pattern takes minutes on these lines, and the test's timeout catches it.
  test("a heading with 2,000,000 spaces in it", () => {
    const p = read(...head, `### Stage 1: a${" ".repeat(2_000_000)}x`, "", "Acceptance: `a`");
    expect(p.stages[0]?.title).toBe(`a${" ".repeat(2_000_000)}x`);
  });
  const n = 300_000;
  const spaces = " ".repeat(n);
  test.each([
    ["an acceptance line", `Acceptance: \`a\`${spaces}x`],
    ["a label alone", `Acceptance${spaces}x`],
    ["a label with emphasis", `**Acceptance${spaces}x`],
    ["a bold line", `**Stage 9**${spaces}x`],
    ["a stage word", `Stage${spaces}x`],
    ["depends on", `Depends on: S1${spaces}x`],
    ["depends on in italics", `*Depends on: S1${spaces}x*`],
    ["words before a command", `Acceptance: run \`a\`${spaces}x`],
    ["list markers", `${"- ".repeat(n)}x`],
    ["mixed markers", `${"- * ".repeat(n / 2)}x`],
    ["quote markers", `${"> ".repeat(n)}x`],
    ["a spelled acceptance", `Also acceptance${spaces}x`],
  ])("%s of some hundred thousand characters is read, or refused with its line", (_, line) => {
    const result = readPlan(plan(...s1, "Acceptance: `a`", "", line, ""));
    expect(result.isOk() || result.error.line === 9).toBe(true);
  });
  test.each([
    ["2,500,000 list markers", `${"- ".repeat(2_500_000)}x`],
    ["10,000,000 quote markers", `${">".repeat(10_000_000)}x`],
  ])("a line of %s (deeper than a regex's backtracking stack) is read, or refused with its line", (_, line) => {
    const result = readPlan(plan(...s1, "Acceptance: `a`", "", line, ""));
    expect(result.isOk() || result.error.line === 9).toBe(true);
  });
  // Each line sits where a pattern with a repeated group is tried on it: after an `Acceptance:` line
  // (a wrapped expectation), in code under a label, between expectations, in a stage number.
  const deep = 5_000_000;
  test.each([
    ["quote markers after an Acceptance: line", 8, [...s1, "Acceptance: `a` exits 0", `${">".repeat(2 * deep)}x`]],
    ["quotes before a wrapped expectation", 8, [...s1, "Acceptance: `a`", `${"> ".repeat(deep)}exits 0`]],
    ["quote markers in code under Verify:", 7, [...s1, "Verify:", "", "```", `${">".repeat(2 * deep)}x`, "```"]],
    ["quote markers in indented code under Acceptance:", 7, [...s1, "Acceptance:", "", `    ${">".repeat(2 * deep)}x`]],
    ["separators between expectations", 7, [...s1, `Acceptance: \`a\` exits 0${" ,".repeat(deep)} prints "x"`]],
    ["spaces between expectations", 7, [...s1, `Acceptance: \`a\` exits 0${" ".repeat(2 * deep)}prints "x"`]],
    ["a stage number", 9, [...s1, "Acceptance: `a`", "", `### Stage 2${".1".repeat(deep)}: b`, "", "Acceptance: `b`"]],
    ["an outline number before a stage", 5, [...head, `### 1${".1".repeat(deep)} Stage 1: a`, "", "Acceptance: `a`"]],
    ["quote markers before an item after a break in an acceptance list", 9, [...s1, "Acceptance:", "- `a`", "---", `${"> ".repeat(deep)}- \`b\` exits 0`]],
    ["the only stage's number", 5, [...head, `### Stage 1${".1".repeat(deep)}: a`, "", "Acceptance: `a`"]],
    ["a stage named in Depends on:", 8, [...s1, "Acceptance: `a`", `Depends on: Stage 1${".1".repeat(deep)}`]],
  ])("%s, millions of characters long, is read or refused with its line, never a crash", (_, line, lines) => {
    const result = readPlan(plan(...(lines as string[])));
    expect(result.isOk() || result.error.line === line).toBe(true);
  });
  test("a stage number of 200 digits and dots is read; a longer one is refused with its line (it looks like a stage)", () => {
    const stage = (n: number) => [...s1, "Acceptance: `a`", "", `### Stage 2${".1".repeat(n)}: b`, "", "Acceptance: `b`"];
    expect(read(...stage(99)).stages[1]?.label).toBe(`Stage 2${".1".repeat(99)}`);
    expect(fault(...stage(100))).toMatchObject({ code: "structure-unread", line: 9 });
  });
  test("a plan whose only stage heading has a number too long is refused at that heading, never at the section above it", () => {
    // The repro: `decay-contract check` named line 3, `## Recommendation` ("holds no stage headings").
    const long = `### Stage 1${".1".repeat(100)}: a`;
    expect(fault(...head, long, "", "Acceptance: `a`")).toMatchObject({ code: "structure-unread", kind: "stage-heading", line: 5 });
    // With no section to name, the plan's first heading below its title was named instead.
    expect(fault("# Plan", "", "## What not to do", "", "- x", "", long, "", "Acceptance: `a`")).toMatchObject({ kind: "stage-heading", line: 7 });
    // A stage heading spelt as no heading, the only one, is named the same way.
    expect(fault(...head, "###Stage 1: a", "", "Acceptance: `a`")).toMatchObject({ kind: "heading-no-space", line: 5 });
    // With no stage-looking heading, a section with no stages is still refused as such.
    expect(fault(...head, "Do the work.", "", "Acceptance: `a`")).toMatchObject({ code: "recommendation-not-staged", line: 3 });
  });
  test("a numbered stage's title with a long run of spaces", () => {
    const p = read(...head, `1. Add${spaces}x. Then more.`, "", "   Acceptance: `a`");
    expect(p.stages[0]?.title).toBe(`Add${spaces}x`);
  });
});

describe("property: the block reader never crashes and never reads code as plan text", () => {
  const piece = fc.constantFrom("```", "~~~", "````", "    ", "  ", "- ", "1. ", "> ", "`", "Acceptance: `z`", "### Stage 2: z", "\t", "text", "");
  test("over generated texts: ok or a fault naming a line of the text; a row z is read only from a line that is not code", () => {
    fc.assert(
      fc.property(fc.array(fc.array(piece, { maxLength: 4 }), { maxLength: 12 }), (rows) => {
        const lines = rows.map((r) => r.join(""));
        const text = plan(...s1, "Acceptance: `a`", "", ...lines);
        const result = readPlan(text);
        if (result.isErr()) return result.error.line >= 1 && result.error.line <= text.split("\n").length;
        return result.value.stages[0]?.acceptance[0]?.run === "a";
      }),
      { numRuns: 3_000 },
    );
  });
});

describe("a tab indents to the next multiple of 4 columns, as CommonMark reads it", () => {
  test("a tab-indented item under an acceptance item is nested in it (column 4 is past its text at 2): refused, never a row", () => {
    for (const indent of ["\t", " \t", "  \t"]) {
      expect(fault(...s1, "Acceptance:", "- `a` exits 0", `${indent}- \`b\` exits 0`)).toMatchObject({ problem: "nested-command", line: 9 });
    }
  });
  test("a tab after an acceptance item's marker puts its text at column 4: an item indented 3 is the next item, a row", () => {
    for (const marker of ["-\t", "- \t", "1.\t", "1)\t"]) {
      const next = marker.startsWith("-") ? "-" : "2.";
      expect([marker, runs(...s1, "Acceptance:", `${marker}\`a\``, `   ${next} \`b\``)]).toEqual([marker, [["a", "b"]]]);
      expect([marker, runs(...s1, "Acceptance:", `${marker}\`a\``, "", "\tWhy: it is fast.", "", "    Still about a.", `${next}\t\`b\``)]).toEqual([
        marker,
        [["a", "b"]],
      ]);
      expect([marker, fault(...s1, "Acceptance:", `${marker}\`a\``, `\t- \`b\``)]).toMatchObject([marker, { problem: "nested-command", line: 9 }]);
    }
  });
  test("a tab after a numbered stage's marker puts its text at column 4: an item indented 3 is the next stage", () => {
    const rec = [...head.slice(0, 3), ""];
    for (const [first, second] of [
      ["1.\t**A** do a", "   2.\t**B** do b"],
      ["1. \t**A** do a", "   2. **B** do b"],
      ["1)\t**A** do a", "   2) **B** do b"],
    ]) {
      const p = read(...rec, first as string, "   Acceptance: `a`", second as string, "\tAcceptance: `b`");
      expect([first, p.stages.map((s) => [s.label, s.title, s.acceptance.map((r) => r.run)])]).toEqual([
        first,
        [
          ["1", "A", ["a"]],
          ["2", "B", ["b"]],
        ],
      ]);
    }
    // Indented 4 (a tab) it is a sub-step of the item before it, as with spaces.
    const nested = read(...rec, "1.\t**A** do a", "\t1. sub-step", "   Acceptance: `a`", "2.\t**B** do b", "\tAcceptance: `b`");
    expect(nested.stages.map((s) => s.label)).toEqual(["1", "2"]);
  });
  test("a tab-indented paragraph after a blank line under a guardrail belongs to it, its condition kept", () => {
    const p = read(
      "# Plan",
      "",
      "## What not to do",
      "",
      "- Do not drop the old column",
      "",
      "\tuntil the backfill has run.",
      "- Do not rename it.",
      "",
      ...head.slice(2),
      "### Stage 1: a",
      "",
      "Acceptance: `a`",
    );
    expect(p.prohibitions).toEqual(["Do not drop the old column\n\n\tuntil the backfill has run.", "Do not rename it."]);
  });
});
