// An acceptance line that ends in a separator (`exits 0 and`) announces an expectation it does not
// hold: it is refused, never read as the expectations before it with the rest lost.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { describeFault } from "../fault.js";
import { parseAcceptance } from "./acceptance.js";
import { readPlan } from "./read-plan.js";

const plan = (...lines: string[]) => ["# Plan", "", "## Recommendation", "", "### Stage 1: A", "", ...lines].join("\n");
/** A plan whose `before` lines come ahead of the recommendation, which holds Stage 1 with the row `a`. */
const after = (...before: string[]) => [...before, "", "## Recommendation", "", "### Stage 1: A", "", "Acceptance: `a` exits 0"].join("\n");
/** Three stages, rows `a`, `b`, `c`; `third` goes at the top of Stage 3 (its first line is line 15). */
const three = (...third: string[]) =>
  plan("Acceptance: `a` exits 0", "", "### Stage 2: B", "", "Acceptance: `b` exits 0", "", "### Stage 3: C", "", ...third, "", "Acceptance: `c` exits 0");

describe("an acceptance line ending in a separator", () => {
  test("`exits 0 and` over a line that does not continue it is refused: the expectation wrapped there would be lost", () => {
    const f = readPlan(plan("Acceptance: `pnpm test` exits 0 and", "the summary prints `50 passed`.", ""))._unsafeUnwrapErr();
    expect(f).toEqual({ code: "acceptance-invalid", line: 7, problem: "trailing-separator", text: "`pnpm test` exits 0 and", unread: "and" });
    expect(describeFault(f)).toBe(
      'line 7: acceptance line not understood: "Acceptance: `pnpm test` exits 0 and" ends in "and" with no expectation after it: write the expectation on the same line (a line after it continues it only when it starts with and, then, exits, prints, matches, stdout or at least)',
    );
  });
  test("a comma, a semicolon, `then`, or a separator right after the command is refused too", () => {
    for (const text of ["`t` exits 0,", "`t` exits 0;", "`t` prints `a` then", "`t` and", "`t` exits 0, and .", "`t` ,"]) {
      expect(parseAcceptance(text, 1)._unsafeUnwrapErr()).toMatchObject({ problem: "trailing-separator" });
    }
  });
  test("wrapped onto a line that continues it, it is read whole", () => {
    const row = readPlan(plan("Acceptance: `pnpm test` exits 0 and", "prints `50 passed`."))._unsafeUnwrap().stages[0]?.acceptance[0];
    expect(row?.expect).toMatchObject({ exit: 0, stdout_contains: ["50 passed"] });
  });
  test("a line ending in an expectation, with or without a full stop, is read", () => {
    expect(parseAcceptance("`t` exits 0 and prints `a`.", 1).isOk()).toBe(true);
    expect(parseAcceptance("`t` exits 0", 1).isOk()).toBe(true);
  });

  const expectation = fc.constantFrom("exits 0", "exits with 2", "passes", "prints `ok`", "matches /a+/", "at least 3 `x`");
  const separator = fc.constantFrom(", ", " and ", "; ", " then ", ", and ");
  const ending = fc.constantFrom(",", " and", ";", " then", ", and", " and.");
  test("any list of expectations is read, and refused once a separator ends it", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(separator, expectation), { maxLength: 4 }), ending, (parts, end) => {
        const body = parts.map(([sep, e], k) => (k === 0 ? ` ${e}` : `${sep}${e}`)).join("");
        // Two exit expectations are refused on their own; keep one.
        const exits = parts.filter(([, e]) => /^(?:exits|passes)/.test(e)).length;
        const line = `\`cmd\`${body}`;
        if (exits <= 1) expect(parseAcceptance(line, 1).isOk()).toBe(true);
        expect(parseAcceptance(`${line}${end}`, 1)._unsafeUnwrapErr()).toMatchObject({ problem: exits <= 1 ? "trailing-separator" : expect.any(String) });
      }),
      { numRuns: 500 },
    );
  });
});

describe("a Gate:, Verify: or Verification: label over a list", () => {
  const rows = (...lines: string[]) => readPlan(plan("Acceptance: `echo a` exits 0", "", ...lines))._unsafeUnwrap().stages[0]?.acceptance;
  test("of commands is read as an Acceptance: list is, beside the stage's other rows (it was dropped in silence)", () => {
    expect(rows("Verification:", "", "- `pnpm test` exits 0 and prints `50 passed`")?.map((r) => [r.run, r.expect.stdout_contains])).toEqual([
      ["echo a", []],
      ["pnpm test", ["50 passed"]],
    ]);
  });
  test("of prose stays prose, as `Gate: PM sign-off` does", () => {
    expect(rows("Verification:", "", "- Ask the PM to sign off", "- Check the dashboard")?.map((r) => r.run)).toEqual(["echo a"]);
  });
  test("mixing prose and commands is refused at the prose item, never read in part", () => {
    const f = readPlan(plan("Acceptance: `echo a`", "", "Verify:", "", "- Ask the PM", "- `pnpm test` exits 0"))._unsafeUnwrapErr();
    expect(f).toMatchObject({ code: "acceptance-invalid", problem: "list-item-not-command", line: 11 });
  });
  test("the refusal names the label the plan wrote and its line, not an Acceptance: label it does not have", () => {
    const f = readPlan(plan("Acceptance: `echo a`", "", "Verify:", "", "- Ask the PM", "- `pnpm test` exits 0"))._unsafeUnwrapErr();
    expect(describeFault(f)).toBe(
      'line 11: acceptance list item not understood: "- Ask the PM": each item under the "Verify:" label on line 9 starts with a command in backticks, then exits N, prints `text`, matches /regex/ or at least N `text`|/regex/; for criteria a person checks, put <!-- decay: prose --> on the line before "Verify:"',
    );
  });
  test("a command nested under an item of a Verification: list names that label and its line", () => {
    const f = readPlan(plan("**Verification:**", "- `pnpm test`", "  - `pnpm lint`"))._unsafeUnwrapErr();
    expect(f).toMatchObject({ problem: "nested-command", line: 9, label: "Verification:", labelLine: 7 });
    expect(describeFault(f)).toMatch(/^line 9: .* right under the "Verification:" label on line 7$/);
  });
  test("an inline Verify: line that is not understood is quoted as written, with its own label", () => {
    const f = readPlan(plan("Acceptance: `echo a`", "Verify: `pnpm test` exits 0 and"))._unsafeUnwrapErr();
    expect(describeFault(f)).toMatch(/^line 8: acceptance line not understood: "Verify: `pnpm test` exits 0 and" ends in "and"/);
  });
  // The label as the plan spells it, and the words a message must quote for it.
  const spelled = fc.constantFrom(
    ["Verify:", "Verify:"],
    ["Verification:", "Verification:"],
    ["**Verification:**", "Verification:"],
    ["- Verify:", "Verify:"],
    ["> verify:", "verify:"],
    ["Gate:", "Gate:"],
    ["Acceptance:", "Acceptance:"],
    ["#### Acceptance criteria", "Acceptance criteria"],
  );
  test("whatever the label and wherever the prose item, the refusal names that label, its line and the item's line", () => {
    fc.assert(
      fc.property(spelled, fc.nat(3), fc.nat(3), fc.boolean(), ([written, quoted], before, after, gap) => {
        const commands = (n: number) => Array.from({ length: n }, (_, k) => `- \`cmd${k}\` exits 0`);
        // A Gate:/Verify: list is read as rows only when it holds a command: keep one before the prose item.
        const first = [...commands(Math.max(before, written.startsWith("#") || written === "Acceptance:" ? 0 : 1))];
        const list = [...first, "- Ask the PM to sign off", ...commands(after)];
        const lines = [written, ...(gap ? [""] : []), ...list];
        const f = readPlan(plan(...lines))._unsafeUnwrapErr();
        const item = 7 + (gap ? 1 : 0) + first.length + 1;
        expect(f).toMatchObject({ code: "acceptance-invalid", problem: "list-item-not-command", line: item, labelLine: 7 });
        // A fault with no label names Acceptance:; any other label is carried as written.
        expect("label" in f ? f.label : undefined).toBe(quoted === "Acceptance:" ? undefined : quoted);
        const message = describeFault(f);
        expect(message.startsWith(`line ${item}: `)).toBe(true);
        expect(message).toContain(`under the "${quoted}" label on line 7`);
        if (!/acceptance/i.test(quoted)) expect(message).not.toMatch(/Acceptance:/);
      }),
      { numRuns: 300 },
    );
  });
  const label = fc.constantFrom("Gate:", "Verify:", "Verification:", "**Verification:**", "- Verify:", "**Verification**", "#### Verify");
  const command = fc.constantFrom("`make check`", "`pnpm test` exits 0", "`node x.js` prints `ok`");
  test("every command listed under any such label is a row", () => {
    fc.assert(
      fc.property(label, fc.array(fc.tuple(command, fc.boolean()), { minLength: 1, maxLength: 4 }), (l, items) => {
        const list = items.flatMap(([c, gap]) => (gap ? [`- ${c}`, ""] : [`- ${c}`]));
        const got = rows(l, "", ...list)?.map((r) => r.run);
        expect(got).toEqual(["echo a", ...items.map(([c]) => /^`([^`]+)`/.exec(c)?.[1])]);
      }),
      { numRuns: 300 },
    );
  });
});

describe("a Gate:, Verify: or Verification: label over a code block", () => {
  const fence = ["```sh", "pnpm test", "```"];
  test("in a stage with another row is refused at the label: the block would be skipped in silence", () => {
    const f = readPlan(plan("Acceptance: `echo a`", "", "Verification:", "", ...fence))._unsafeUnwrapErr();
    expect(f).toEqual({
      code: "acceptance-invalid",
      line: 9,
      problem: "fenced-command",
      text: "Verification:",
      label: "Verification:",
      write: "Acceptance: `pnpm test` exits 0",
    });
    expect(describeFault(f)).toMatch(
      /^line 9: "Verification:" is followed by a code block, which is never read as acceptance: .*; write: Acceptance: `pnpm test` exits 0/,
    );
  });
  test("the row may come after the label, from any label", () => {
    const f = readPlan(plan("**Verify:**", "~~~", "$ node check.mjs", "~~~", "", "Gate: `make check`"))._unsafeUnwrapErr();
    expect(f).toMatchObject({ problem: "fenced-command", line: 7, label: "Verify:", write: "Acceptance: `node check.mjs` exits 0" });
  });
  test("an indented block is code as a fenced one is", () => {
    const f = readPlan(plan("Acceptance: `echo a`", "", "Verify:", "", "    pnpm test"))._unsafeUnwrapErr();
    expect(f).toMatchObject({ problem: "fenced-command", line: 9, write: "Acceptance: `pnpm test` exits 0" });
  });
  test("inside a quote, the line to write holds the command, not the quote's marker (as under Acceptance:)", () => {
    for (const l of ["> Acceptance:", "> Verify:"]) {
      const f = readPlan(plan("Gate: `make check`", "", l, "> ```sh", "> $ pnpm test", "> ```"))._unsafeUnwrapErr();
      expect(f).toMatchObject({ problem: "fenced-command", line: 9, write: "Acceptance: `pnpm test` exits 0" });
    }
  });
  test("in a stage with no row it compiles with none, as before: the self-check names the label's line", () => {
    expect(readPlan(plan("Verification:", "", ...fence))._unsafeUnwrap().stages[0]?.acceptance).toEqual([]);
  });
  test("kept as prose with the marker, it is no row and no refusal", () => {
    const rows = readPlan(plan("Acceptance: `echo a`", "", "<!-- decay: prose -->", "Verification:", "", ...fence))._unsafeUnwrap().stages[0]?.acceptance;
    expect(rows?.map((r) => r.run)).toEqual(["echo a"]);
  });
  test("a paragraph between the label and the block leaves the block to the paragraph", () => {
    const rows = readPlan(plan("Acceptance: `echo a`", "", "Verify:", "Run the smoke test by hand:", "", ...fence))._unsafeUnwrap().stages[0]?.acceptance;
    expect(rows?.map((r) => r.run)).toEqual(["echo a"]);
  });

  const label = fc.constantFrom("Gate:", "Verify:", "Verification:", "**Verification:**", "- Verify:", "> Verify:", "**Verification**", "#### Verify");
  const block = fc.constantFrom(["```", "pnpm test", "```"], ["~~~bash", "$ pnpm test", "~~~"], ["````", "pnpm test", "", "````"]);
  const row = fc.constantFrom("Acceptance: `echo a`", "Verify: `echo a` exits 0", "Acceptance:\n- `echo a`");
  test("whatever the label and the block, a stage with a row is refused at the label; one without compiles with no row", () => {
    fc.assert(
      fc.property(label, block, fc.boolean(), fc.option(row), fc.boolean(), (l, code, gap, other, rowFirst) => {
        const fenced = (l.startsWith(">") ? code.map((c) => `> ${c}`) : l.startsWith("-") ? code.map((c) => `  ${c}`) : code).concat("");
        const under = [l, ...(gap ? [""] : []), ...fenced];
        const rowLines = other === null ? [] : [...other.split("\n"), ""];
        const body = rowFirst ? [...rowLines, ...under] : [...under, ...rowLines];
        const read = readPlan(plan(...body));
        if (other === null) {
          expect(read._unsafeUnwrap().stages[0]?.acceptance).toEqual([]);
          return;
        }
        const at = 7 + (rowFirst ? rowLines.length : 0);
        // `- Verify:` right after an Acceptance: list is an item of that list, and no command: refused as such.
        const item = rowFirst && other.startsWith("Acceptance:\n") && l.startsWith("-");
        const want = item ? { problem: "list-item-not-command" } : { problem: "fenced-command", write: "Acceptance: `pnpm test` exits 0" };
        expect(read._unsafeUnwrapErr()).toMatchObject({ code: "acceptance-invalid", line: at, ...want });
      }),
      { numRuns: 300 },
    );
  });
});

describe("a Gate, Verify or Verification label alone on its line, with no colon (`**Verification**`, `#### Verify`)", () => {
  const fence = ["```sh", "pnpm test", "```"];
  test("over a list of commands gives rows, as the label with a colon does", () => {
    for (const l of ["**Verification**", "#### Verify", "Verification"]) {
      const rows = readPlan(plan("Acceptance: `echo a`", "", l, "", "- `pnpm test` exits 0"))._unsafeUnwrap().stages[0]?.acceptance;
      expect([l, rows?.map((r) => r.run)]).toEqual([l, ["echo a", "pnpm test"]]);
    }
  });
  test("over a code block beside another row is refused at the label, naming it as written", () => {
    const f = readPlan(plan("Acceptance: `echo a`", "", "**Verification**", "", ...fence))._unsafeUnwrapErr();
    expect(f).toMatchObject({ problem: "fenced-command", line: 9, label: "Verification", write: "Acceptance: `pnpm test` exits 0" });
    const h = readPlan(plan("Acceptance: `echo a`", "", "#### Verify:", "", ...fence))._unsafeUnwrapErr();
    expect(h).toMatchObject({ problem: "fenced-command", line: 9, label: "Verify:" });
  });
  test("right under an exit criterion's paragraph it is still a label: the paragraph ends there, the list under it gives rows", () => {
    // Before, the label was read as the exit criterion's last line and its list was lost: no row, exit 0.
    for (const l of ["**Verification**", "Verification", "#### Verify"]) {
      const stage = readPlan(plan("Exit criteria", "the thing works", l, "", "- `pnpm test` exits 0"))._unsafeUnwrap().stages[0];
      expect([l, stage?.exit_criterion, stage?.acceptance.map((r) => r.run)]).toEqual([l, "the thing works", ["pnpm test"]]);
    }
  });
  test("a gate word alone inside an exit criterion's paragraph, over no list of commands, is a word of the paragraph", () => {
    const exit = (...lines: string[]) => readPlan(plan("Acceptance: `echo a`", "", "Exit criteria", ...lines))._unsafeUnwrap().stages[0]?.exit_criterion;
    expect(exit("The release passes QA", "verification", "and the changelog is updated.")).toBe(
      "The release passes QA\nverification\nand the changelog is updated.",
    );
    expect(exit("the thing works", "**Verification**", "QA signs off")).toBe("the thing works\n**Verification**\nQA signs off");
  });
  test("over prose it stays prose; a sentence that starts with the word is no label", () => {
    const rows = (...lines: string[]) =>
      readPlan(plan("Acceptance: `echo a`", "", ...lines))
        ._unsafeUnwrap()
        .stages[0]?.acceptance.map((r) => r.run);
    expect(rows("**Verification**", "", "- Ask the PM to sign off")).toEqual(["echo a"]);
    expect(rows("Verify the dashboard by hand:", "", ...fence)).toEqual(["echo a"]);
  });
});

describe("a setext heading label (`Verify` over `---` or `===`) reads as its ATX heading (`## Verify`)", () => {
  /** Stage 1 (a level-1 heading, so a level-2 label stays inside it) with the row `echo a`, then `lines`. */
  const stage = (...lines: string[]) => ["# Stage 1: A", "", "Acceptance: `echo a`", "", ...lines, "", "- `pnpm test` exits 0", "- `pnpm lint`"].join("\n");
  const read = (text: string) =>
    readPlan(text)
      ._unsafeUnwrap()
      .stages.map((s) => [s.acceptance.map((r) => r.run), s.exit_criterion]);
  test.each([
    [["Verification", "------------"], ["## Verification"]],
    [["Verify", "---"], ["## Verify"]],
    [["Verify:", "---"], ["## Verify:"]],
    [["Acceptance criteria", "---"], ["## Acceptance criteria"]],
  ])("%j at the margin: the list under it gives rows, as under %j", (setext, atx) => {
    expect(read(stage(...setext))).toEqual([[["echo a", "pnpm test", "pnpm lint"], null]]);
    expect(read(stage(...setext))).toEqual(read(stage(...atx)));
  });
  test("inside a numbered stage's item, underlined with === or ---: the list under it gives rows, as under `# Verify`", () => {
    const item = (...label: string[]) =>
      [
        "# Plan",
        "",
        "## Recommendation",
        "",
        "1. **A** do a",
        "   Acceptance: `echo a`",
        "",
        ...label,
        "",
        "   - `pnpm test`",
        "2. **B** do b",
        "   Acceptance: `b`",
      ].join("\n");
    const want = [
      [["echo a", "pnpm test"], null],
      [["b"], null],
    ];
    for (const label of [["   Verify", "   ==="], ["   Verification", "   ---"], ["   # Verify"]]) expect([label, read(item(...label))]).toEqual([label, want]);
  });
  test("an exit criteria label as a setext heading takes the list under it, as `## Exit criteria` does", () => {
    const exit = (...label: string[]) => read(["# Stage 1: A", "", "Acceptance: `echo a`", "", ...label, "", "- users see refunds"].join("\n"));
    expect(exit("Exit criteria", "---")).toEqual([[["echo a"], "- users see refunds"]]);
    expect(exit("Exit criteria", "---")).toEqual(exit("## Exit criteria"));
  });
  test("a heading of two lines, the first `Verify`, is no label: its list stays prose", () => {
    expect(read(stage("Verify", "these by hand", "---"))).toEqual([[["echo a"], null]]);
  });
  test("over a code block beside another row it is refused at the label, as the ATX heading is", () => {
    const f = readPlan(["# Stage 1: A", "", "Acceptance: `echo a`", "", "Verify", "---", "", "```sh", "pnpm test", "```"].join("\n"))._unsafeUnwrapErr();
    expect(f).toMatchObject({ problem: "fenced-command", line: 5, label: "Verify", write: "Acceptance: `pnpm test` exits 0" });
  });
});

describe("an `Exit:` line hard-wrapped over the next lines of its paragraph", () => {
  const stage = (...lines: string[]) => readPlan(plan(...lines))._unsafeUnwrap().stages[0];
  test("keeps the whole criterion, verbatim from its text on; the row after it is still read", () => {
    // Before, the criterion stopped at the line break: "... and the old `orders` table".
    const s = stage("Exit: every row is in `orders_v2` and the old `orders` table", "has been dropped.", "", "Acceptance: `node check.mjs` exits 0");
    expect([s?.exit_criterion, s?.acceptance.map((r) => r.run)]).toEqual([
      "every row is in `orders_v2` and the old `orders` table\nhas been dropped.",
      ["node check.mjs"],
    ]);
  });
  test("ends where its paragraph ends: at a label line or a blank line, a list right under it included", () => {
    expect(stage("Exit: done", "Acceptance: `a` exits 0")?.exit_criterion).toBe("done");
    // A list right under the criterion's last line (it interrupts the paragraph) is the criterion's too.
    expect(stage("Exit: all of", "- one", "- two", "", "Acceptance: `a` exits 0")?.exit_criterion).toBe("all of\n- one\n- two");
    expect(stage("Exit criteria", "All of:", "- one", "- two", "", "Acceptance: `a` exits 0")?.exit_criterion).toBe("All of:\n- one\n- two");
    expect(stage("Exit: done", "", "more prose", "", "Acceptance: `a` exits 0")?.exit_criterion).toBe("done");
    expect(stage("Exit: done and", "still done", "Acceptance: `a` exits 0")?.acceptance.map((r) => r.run)).toEqual(["a"]);
  });
  test("in a numbered stage's item, the wrapped line is read with it", () => {
    const text = [
      "# Plan",
      "",
      "## Recommendation",
      "",
      "1. **A** do a",
      "   Exit: the store is live and",
      "   serving reads.",
      "   Acceptance: `a` exits 0",
      "2. **B** do b",
      "   Acceptance: `b` exits 0",
    ].join("\n");
    const stages = readPlan(text)._unsafeUnwrap().stages;
    expect(stages.map((s) => [s.exit_criterion, s.acceptance.map((r) => r.run)])).toEqual([
      ["the store is live and\n   serving reads.", ["a"]],
      [null, ["b"]],
    ]);
  });
});

describe("what an exit line or an acceptance line introduces is read with it", () => {
  test("`Exit criteria: all of these hold:` takes the list under it; the row after the list is still read", () => {
    // Before, the criterion was the introduction alone and the list fell to instructions.
    const s = readPlan(
      plan("Exit criteria: all of the following hold:", "", "- every row is in `orders_v2`", "- the old table is dropped", "", "Acceptance: `a` exits 0"),
    )._unsafeUnwrap().stages[0];
    expect([s?.exit_criterion, s?.acceptance.map((r) => r.run)]).toEqual([
      "all of the following hold:\n\n- every row is in `orders_v2`\n- the old table is dropped",
      ["a"],
    ]);
    expect(readPlan(plan("Exit: done.", "", "- a note", "", "Acceptance: `a` exits 0"))._unsafeUnwrap().stages[0]?.exit_criterion).toBe("done.");
  });
  test("a line under an Acceptance: line that starts with and/then but is no expectation is refused, as on one line", () => {
    // Before, `and does not print ERROR` was left behind as instructions and the row checked the exit code alone.
    const wrapped = readPlan(plan("Acceptance: `node backfill.mjs` exits 0", "and does not print `ERROR`"));
    const oneLine = readPlan(plan("Acceptance: `node backfill.mjs` exits 0 and does not print `ERROR`"));
    expect(oneLine.isErr()).toBe(true);
    expect(wrapped._unsafeUnwrapErr()).toMatchObject({ code: oneLine._unsafeUnwrapErr().code, line: 7 });
    expect(readPlan(plan("Acceptance: `a` exits 0", "and prints `ok`"))._unsafeUnwrap().stages[0]?.acceptance[0]?.expect.stdout_contains).toEqual(["ok"]);
  });
});

describe("a prose marker over a paragraph that holds a row below its first line", () => {
  test("is refused at the row, naming the marker: the refusal's own advice must not delete a row", () => {
    // Before, the marker covered the whole paragraph and the smoke row vanished, compile exit 0.
    const f = readPlan(
      plan("Acceptance: `pnpm test` exits 0", "<!-- decay: prose -->", "Acceptance (manual): the PM signs off.", "Acceptance: `node smoke.mjs` exits 0"),
    );
    expect(f._unsafeUnwrapErr()).toMatchObject({ code: "structure-unread", kind: "prose-covers-row", line: 10, hides: { line: 8 } });
    expect(describeFault(f._unsafeUnwrapErr())).toMatch(/line 8 covers its whole paragraph.*put a blank line before it/);
  });
  test("with a blank line before the row, the marker covers the manual line alone and the row is read", () => {
    const s = readPlan(
      plan("Acceptance: `pnpm test` exits 0", "<!-- decay: prose -->", "Acceptance (manual): the PM signs off.", "", "Acceptance: `node smoke.mjs` exits 0"),
    )._unsafeUnwrap().stages[0];
    expect(s?.acceptance.map((r) => r.run)).toEqual(["pnpm test", "node smoke.mjs"]);
  });
  test("a marked paragraph of rows alone is an example kept as prose", () => {
    const s = readPlan(plan("Acceptance: `a` exits 0", "", "<!-- decay: prose -->", "Acceptance: `x` exits 0", "Acceptance: `y` exits 0"))._unsafeUnwrap()
      .stages[0];
    expect(s?.acceptance.map((r) => r.run)).toEqual(["a"]);
  });
});

describe("Depends on: with its stages under it, or wrapped", () => {
  const deps = (...dep: string[]) => readPlan(three(...dep)).map((p) => p.stages[2]?.depends_on);
  test("a list or a paragraph under an empty label names the stages; a wrapped list keeps its second line", () => {
    // Before, each of these gave no dependency at all: weaker than no line, which means the stage before.
    expect(deps("Depends on:", "", "- Stage 1")._unsafeUnwrap()).toEqual(["S1"]);
    expect(deps("**Depends on:**", "Stage 1")._unsafeUnwrap()).toEqual(["S1"]);
    expect(deps("Depends on: Stage 1,", "Stage 2")._unsafeUnwrap()).toEqual(["S1", "S2"]);
    expect(deps("Depends on: Stage 1")._unsafeUnwrap()).toEqual(["S1"]);
    expect(deps("Depends on: none")._unsafeUnwrap()).toEqual([]);
  });
  test("a label that names nothing is refused at its line, never read as no dependency", () => {
    const f = deps("Depends on:")._unsafeUnwrapErr();
    expect(f).toEqual({ code: "depends-empty", line: 15 });
    expect(describeFault(f)).toMatch(/Depends on: none/);
  });
});

describe("an acceptance list split by something back at the margin", () => {
  test("a comment or a paragraph between its items, then a row-shaped item: refused at the split, naming the item", () => {
    // Before, the rows after the split were read as instructions, compile exit 0.
    for (const between of ["<!-- slow: about 4 minutes on CI -->", "After the deploy:"]) {
      const f = readPlan(
        plan("Acceptance:", "", "- `pnpm test` exits 0", "", between, "", "- `node smoke.mjs` exits 0 and prints `healthy`"),
      )._unsafeUnwrapErr();
      expect([between, f]).toMatchObject([between, { code: "structure-unread", kind: "list-split", line: 11, hides: { line: 13 } }]);
      expect(describeFault(f)).toMatch(/would be read as instructions, not a row/);
    }
  });
  test("what follows that is no row (a list of prose, a new label) is read as before", () => {
    const rows = (...after: string[]) =>
      readPlan(plan("Acceptance:", "", "- `a` exits 0", "", ...after))
        ._unsafeUnwrap()
        .stages[0]?.acceptance.map((r) => r.run);
    expect(rows("Notes:", "", "- `b` is slow on CI")).toEqual(["a"]);
    expect(rows("<!-- note -->", "", "Acceptance: `c` exits 0")).toEqual(["a", "c"]);
  });
});

describe("a stage heading behind a pictograph", () => {
  test("`### 🚀 Stage 2: Roll out` is refused as a stage heading read as no stage, never dropped with its stage", () => {
    // Before, the heading ended Stage 1 and opened nothing: the stage and its instructions vanished, exit 0.
    for (const h of ["### 🚀 Stage 2: Roll out", "### ✅ Phase 2: Roll out"]) {
      expect([h, readPlan(plan("Acceptance: `a` exits 0", "", h, "", "Flip the flag for every tenant."))._unsafeUnwrapErr()]).toMatchObject([
        h,
        { code: "structure-unread", kind: "stage-heading", line: 9 },
      ]);
    }
  });
  test("`S3:` is no stage word: `### S3: what we have` in the context and `#### S3: bucket rules` in a stage are headings", () => {
    const s = readPlan(plan("#### S3: bucket rules", "", "Create the bucket.", "", "Acceptance: `a` exits 0"))._unsafeUnwrap().stages;
    expect(s.map((x) => x.acceptance.map((r) => r.run))).toEqual([["a"]]);
    expect(readPlan(after("# Plan", "", "## Context", "", "### S3: what we already have", "", "One bucket.")).isOk()).toBe(true);
  });
});

describe("what a second review found in this reader's changes, each read as before", () => {
  const rows = (text: string) =>
    readPlan(text)
      ._unsafeUnwrap()
      .stages.map((s) => [s.exit_criterion, s.acceptance.map((r) => r.run)]);
  test("an Exit: item never takes its sibling items, a Verify: item above all; an exit never takes a list holding a label", () => {
    expect(
      rows(plan("- Backfill in batches.", "- Exit: all rows have `refund_id`.", "- Verify: `pnpm verify` exits 0", "", "Acceptance: `pnpm test` exits 0")),
    ).toEqual([["all rows have `refund_id`.", ["pnpm verify", "pnpm test"]]]);
    expect(rows(plan("Exit: done:", "- Verify: `pnpm verify` exits 0"))).toEqual([["done:", ["pnpm verify"]]]);
  });
  test("a wrapped Exit: stops at a field of its own (`Owner:`, `**Risk:**`) and at a hard line break", () => {
    expect(rows(plan("Exit: migration applied.", "Owner: @alice", "**Risk:** low", "", "Acceptance: `a` exits 0"))).toEqual([["migration applied.", ["a"]]]);
    expect(rows(plan("**Exit:** refund tests pass  ", "and the ledger balances", "", "Acceptance: `a` exits 0"))).toEqual([["refund tests pass", ["a"]]]);
  });
  test("lists of files or steps after an acceptance list, and a split a prose marker opens, are no split", () => {
    const following = (...lines: string[]) => rows(plan("Acceptance:", "- `a` exits 0", "", ...lines));
    expect(following("Files touched:", "", "- `src/worker.ts`", "- `src/handler.ts`")).toEqual([[null, ["a"]]]);
    expect(following("Then deploy:", "- `kubectl apply -f deploy/worker.yaml`")).toEqual([[null, ["a"]]]);
    expect(following("<!-- decay: prose -->", "Later, once the sandbox exists:", "", "- `b` exits 0")).toEqual([[null, ["a"]]]);
  });
  test("a marked example outside every stage is prose, as the marker says", () => {
    const text = after("# Plan", "", "## Appendix", "", "<!-- decay: prose -->", "For example, a stage writes", "Acceptance: `pnpm vitest run` exits 0");
    expect(rows(text)).toEqual([[null, ["a"]]]);
  });
  test("`then <the next step>` under an Acceptance: line stays instructions; an empty Depends on: in the first stage means none; italics close off the value", () => {
    expect(rows(plan("Acceptance: `pnpm db:migrate --dry-run` exits 0", "then run it for real in the window."))).toEqual([
      [null, ["pnpm db:migrate --dry-run"]],
    ]);
    // A second command after `then` is read with the row, and refused as on one line: never dropped.
    expect(readPlan(plan("Acceptance: `a` exits 0", "then `b` exits 0"))._unsafeUnwrapErr()).toMatchObject({ code: "acceptance-invalid", line: 7 });
    expect(readPlan(plan("**Depends on:**", "", "Acceptance: `a` exits 0"))._unsafeUnwrap().stages[0]?.depends_on).toEqual([]);
    expect(readPlan(three("*Depends on: Stage 1*"))._unsafeUnwrap().stages[2]?.depends_on).toEqual(["S1"]);
  });
  test("130,000 lines under an Exit: or a Depends on: are read, never a stack overflow", () => {
    // Built as text: spreading 130,000 lines into the plan builder's arguments would overflow the test's own stack.
    const many = (line: string) => `${line}\n`.repeat(130_000);
    const exit = `${plan("Exit: the backfill is done")}\n${many("and every row is checked")}\nAcceptance: \`a\` exits 0\n`;
    expect(readPlan(exit).isOk()).toBe(true);
    const depends = three("Depends on:", "- Stage 1").replace("- Stage 1\n", many("- Stage 1"));
    expect(
      readPlan(depends)
        .map((p) => p.stages[2]?.depends_on)
        ._unsafeUnwrap(),
    ).toEqual(["S1"]);
  });
});

describe("a gate label over a line of prose, then a list of commands", () => {
  test("is refused at the label, as `Acceptance` alone is in that shape: its rows would be prose beside the stage's other row", () => {
    // Before, both commands were read as instructions and the stage kept its one other row, exit 0.
    for (const label of ["#### Verification", "**Verification**", "Verify:"]) {
      const f = readPlan(
        plan(
          "Acceptance: `pnpm test` exits 0",
          "",
          label,
          "",
          "From the repo root:",
          "",
          "- `node scripts/schema-check.mjs` exits 0",
          "- `pnpm db:diff` prints `no changes`",
        ),
      );
      expect([label, f._unsafeUnwrapErr()]).toMatchObject([label, { code: "acceptance-invalid", problem: "no-command", line: 9 }]);
    }
  });
  test("over prose and a list that is no command with what it must do, it stays prose", () => {
    const s = readPlan(plan("Acceptance: `a` exits 0", "", "**Verification**", "", "Ask the PM:", "", "- the banner shows", "- `open app`"))._unsafeUnwrap()
      .stages[0];
    expect(s?.acceptance.map((r) => r.run)).toEqual(["a"]);
  });
});
