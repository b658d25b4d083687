// Comments and headings inside list items and block quotes are read where CommonMark reads them: at
// the content of their containers. A comment there hides what it holds (a commented-out row is no
// row); a stage-looking heading there is never a stage, and is refused with its line, never merged
// into the stage before it.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { describeFault } from "../fault.js";
import { readPlan } from "./read-plan.js";

const plan = (...lines: string[]) => lines.join("\n");
const read = (...lines: string[]) => readPlan(plan(...lines))._unsafeUnwrap();
const fault = (...lines: string[]) => readPlan(plan(...lines))._unsafeUnwrapErr();
const runs = (...lines: string[]) => read(...lines).stages.map((s) => s.acceptance.map((r) => r.run));
/** A plan whose one stage, `Stage 1: A`, has the row `a`; what follows starts on line 9. */
const s1 = ["# Plan", "", "## Recommendation", "", "### Stage 1: A", "", "Acceptance: `a`", ""];

describe("an HTML comment inside a list item or a block quote is a comment", () => {
  test("in a nested list item: the acceptance line it holds is no row", () => {
    expect(runs(...s1, "- outer", "  - inner", "    <!-- old:", "    Acceptance: `make clean-all`", "    -->")).toEqual([["a"]]);
  });
  test("in a block quote", () => {
    expect(runs(...s1, "> <!-- old:", "> Acceptance: `make clean-all`", "> -->")).toEqual([["a"]]);
  });
  test("opening a list item, and in a quote inside a list item", () => {
    expect(runs(...s1, "- <!-- Acceptance: `x`", "  Acceptance: `y` -->", "- > <!--", "  > Acceptance: `z`", "  > -->")).toEqual([["a"]]);
  });
  test("a stage heading it holds is no stage and no fault", () => {
    expect(runs(...s1, "- <!--", "  ### Stage 2: B", "  Acceptance: `b`", "  -->")).toEqual([["a"]]);
  });
  test("a prose marker in a list item covers the paragraph after it", () => {
    expect(runs(...s1, "- <!-- decay: prose -->", "  Acceptance: a person checks the copy.")).toEqual([["a"]]);
  });
  test("a commented-out guardrail bullet is no guardrail", () => {
    const items = ["- Do not A", "- <!-- Do not B", "  (dropped) -->", "> <!-- Do not C -->", "- Do not D"];
    const p = read("# P", "", "## What not to do", "", ...items, "", ...s1.slice(2));
    expect(p.prohibitions).toEqual(["Do not A", "Do not D"]);
  });
  test("a comment that closes on its own line hides nothing after it", () => {
    expect(runs(...s1, "- note <!-- x -->", "- <!-- x -->", "  Acceptance: `b`")).toEqual([["a", "b"]]);
  });
});

describe("a heading inside a list item or a block quote is never a stage, and is refused", () => {
  test.each([
    ["in a list item", ["- ### Stage 2: B", "  Acceptance: `b`"]],
    ["in a block quote", ["> ### Stage 2: B", "> Acceptance: `b`"]],
    ["indented to a numbered item's text", ["1. thing", "   ### Stage 2: B", "   Acceptance: `b`"]],
    ["after a blank line in a list item", ["- thing", "", "  ### Stage 2: B"]],
    ["setext, in a list item", ["- Stage 2: B", "  ---", "  Acceptance: `b`"]],
    ["setext, in a block quote", ["> Stage 2: B", "> ===", "> Acceptance: `b`"]],
  ])("%s: structure-unread naming its line; the stage before it is not credited with its rows", (_, lines) => {
    const f = fault(...s1, ...lines);
    const heading = 9 + lines.findIndex((l) => /Stage 2/.test(l));
    expect(f).toMatchObject({ code: "structure-unread", kind: "nested-heading", line: heading });
    expect(describeFault(f)).toMatch(/heading inside a list item or a block quote, which is never a stage: write the stage heading at the margin/);
  });
  test("a heading indented less than a numbered item's text is at the margin: a stage", () => {
    expect(read(...s1, "1. thing", "  ### Stage 2: B", "  Acceptance: `b`").stages.map((s) => [s.label, s.acceptance.map((r) => r.run)])).toEqual([
      ["Stage 1", ["a"]],
      ["Stage 2", ["b"]],
    ]);
  });
  test("a heading in a container that looks like no stage is instructions", () => {
    expect(read(...s1, "- ### Notes", "> ## Why", "1. x", "   ### Details").stages[0]?.instructions).toContain("- ### Notes");
  });
  test("a prose marker before it keeps it as prose", () => {
    expect(runs(...s1, "<!-- decay: prose -->", "- ### Stage 2: B")).toEqual([["a"]]);
  });
  test("a heading underlined with === ends its paragraph: a line indented 4 under it is code", () => {
    expect(runs(...s1, "Notes", "===", "    Acceptance: `x`")).toEqual([["a"]]);
  });
  test("=== under a list item's text at the margin continues that text (no heading)", () => {
    expect(runs(...s1, "- Stage 2: B", "===", "  Acceptance: `b`")).toEqual([["a", "b"]]);
  });
});

/** A container opened on a line, and the prefix that continues it on the lines after. */
const container = fc.constantFrom<[string, string]>(["- ", "  "], ["* ", "  "], ["1. ", "   "], ["10) ", "    "], ["> ", "> "], [">", ">"]);
/** Containers nested one in the next: what opens them all on one line, and what continues them all. */
const nesting = fc.array(container, { minLength: 1, maxLength: 5 }).map((cs) => ({
  opens: cs.map(([o]) => o).join(""),
  goesOn: cs.map(([, c]) => c).join(""),
}));

describe("property: whatever containers hold it", () => {
  test("a commented-out acceptance line or stage heading is never read", () => {
    const commented = fc.constantFrom(
      ["<!-- old:", "Acceptance: `z`", "-->"],
      ["<!--", "### Stage 2: z", "Acceptance: `z`", "-->"],
      ["<!-- Acceptance: `z`", "Acceptance: `z` -->"],
      ["<!-- decay: prose -->", "Acceptance: `a` exits 0"],
    );
    fc.assert(
      fc.property(nesting, fc.boolean(), commented, ({ opens, goesOn }, textFirst, lines) => {
        // The comment opens the innermost item, or comes after a line of its text.
        const body = textFirst ? [`${opens}item`, ...lines.map((l) => goesOn + l)] : [opens + lines[0], ...lines.slice(1).map((l) => goesOn + l)];
        const result = readPlan(plan(...s1, ...body));
        return result.isOk() && JSON.stringify(result.value.stages.map((s) => s.acceptance.map((r) => r.run))) === '[["a"]]';
      }),
      { numRuns: 2_000 },
    );
  });
  test("a stage heading is a stage at the margin and refused inside a container: never dropped or merged in silence", () => {
    const heading = fc.constantFrom(["### Stage 2: z"], ["Stage 2: z", "---"], ["Stage 2: z", "==="]);
    fc.assert(
      fc.property(fc.option(nesting, { nil: undefined }), heading, (nest, lines) => {
        const [first = "", ...rest] = [...lines, "Acceptance: `z`"];
        const body = nest ? [nest.opens + first, ...rest.map((l) => nest.goesOn + l)] : [first, ...rest];
        const result = readPlan(plan(...s1, ...body));
        if (nest) return result.isErr() && result.error.code === "structure-unread" && result.error.kind === "nested-heading" && result.error.line === 9;
        const stages = result.isOk() ? result.value.stages.map((s) => [s.label, s.acceptance.map((r) => r.run)]) : [];
        return JSON.stringify(stages) === '[["Stage 1",["a"]],["Stage 2",["z"]]]';
      }),
      { numRuns: 2_000 },
    );
  });
});
