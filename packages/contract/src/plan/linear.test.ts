// Reading a plan takes time linear in its number of lines, whatever the lines hold (docs/limits.md).
// No timing assertion: each input below has 200,000 lines that a reader walking back or ahead once
// per line takes minutes over, and the test's timeout (60 s) catches it. Measured by hand, each
// reads in well under a second.
import { describe, expect, test } from "vitest";
import { readPlan } from "./read-plan.js";

const n = 200_000;
/** Read a plan given as lines and runs of lines (never spread: 200,000 arguments overflow the stack). */
const read = (...parts: (string | string[])[]) => readPlan(parts.flat().join("\n"))._unsafeUnwrap();
const times = (k: number, line: string): string[] => Array<string>(k).fill(line);
const recommendation = ["## Recommendation", "", "### Stage 1: A", "", "Acceptance: `a`"];

describe("a prohibitions item over a long run of blank lines", () => {
  // Each blank line in the fence once looked ahead over all the blank lines after it.
  test.each([
    ["a list item", "- Do not X"],
    ["a paragraph", "Do not X"],
  ])("%s followed by a fenced block of 200,000 blank lines is one item, the fence in it", (_, first) => {
    const p = read("# P", "", "## What not to do", "", first, "```", times(n, ""), "```", "", recommendation);
    expect(p.prohibitions).toEqual([`Do not X\n\`\`\`${"\n".repeat(n + 1)}\`\`\``]);
    expect(p.stages.map((s) => s.acceptance.map((r) => r.run))).toEqual([["a"]]);
  });
  test("items separated by long runs of blank lines are each read", () => {
    const gap = times(n / 4, "");
    const p = read("# P", "", "## What not to do", "", "- Do not A", gap, "  unless B.", gap, "- Do not C", gap, "", recommendation);
    expect(p.prohibitions).toEqual([`Do not A${"\n".repeat(n / 4 + 1)}  unless B.`, "Do not C"]);
  });
});

describe("a long run of setext-looking lines", () => {
  // Each `===` line once walked back over every line of the paragraph above it.
  test("=== lines under a list item's text continue it: no heading, the stage reads on", () => {
    const p = read("# P", "", recommendation, "", "- a", times(n, "==="), "", "Acceptance: `b`");
    expect(p.stages.map((s) => s.acceptance.map((r) => r.run))).toEqual([["a", "b"]]);
  });
  test.each(["===", "---", "> ===", "> ---", "  ===", "  ---"])("%s lines under a paragraph (in a quote, in a list item) after the last stage", (line) => {
    const text = line.startsWith(">") ? "> a" : line.startsWith(" ") ? "- a" : "a";
    const p = read("# P", "", recommendation, "", text, times(n / 4, line));
    expect(p.stages.map((s) => s.acceptance.map((r) => r.run))).toEqual([["a"]]);
  });
});

describe("many prose marks, sections and stages", () => {
  // Each of these once searched every mark, heading or earlier stage again for each one.
  test("200,000 prose marks in a row, then the line they cover", () => {
    const p = read("# P", "", recommendation, "", times(n, "<!-- decay: prose -->"), "Acceptance (perf): a person checks the dashboard.");
    expect(p.stages.map((s) => s.acceptance.map((r) => r.run))).toEqual([["a"]]);
  });
  test("100,000 prose marks, each over a line of one long paragraph or over a heading", () => {
    const p = read(
      "# P",
      "",
      recommendation,
      "",
      times(n / 2, "<!-- decay: prose -->\nAcceptance (perf): by hand"),
      "",
      times(n / 2, "<!-- decay: prose -->\n#### Stage 9"),
    );
    expect(p.stages.map((s) => s.acceptance.map((r) => r.run))).toEqual([["a"]]);
  });
  test("200,000 prohibitions sections", () => {
    const p = read("# P", "", times(n, "## What not to do\n- Do not X"), recommendation);
    expect(p.prohibitions).toEqual(times(n, "Do not X"));
  });
  test("100,000 headings that could open the recommendation before the one that holds stages", () => {
    const p = read("# P", "", times(n / 2, "## Rollout notes\ntext"), recommendation);
    expect(p.stages.map((s) => s.acceptance.map((r) => r.run))).toEqual([["a"]]);
  });
  test("20,000 stages, each depending on the one before by its label", () => {
    const k = n / 10;
    const stages = Array.from({ length: k }, (_, i) => `### Phase ${i + 1}: t\n\n${i ? `Depends on: Phase ${i}\n\n` : ""}Acceptance: \`a\``);
    const p = read("# P", "", "## Recommendation", "", stages);
    expect(p.stages.map((s) => s.depends_on)).toEqual(Array.from({ length: k }, (_, i) => (i ? [`S${i}`] : [])));
  });
});

describe("thematic breaks after acceptance lists", () => {
  // What follows a break that ends an acceptance list is looked at up to the next label or heading:
  // each line once, however many lists and breaks there are.
  test("100,000 acceptance lists in one stage, each ended by a break over a line of prose", () => {
    const p = read("# P", "", recommendation, "", times(n / 2, "Acceptance:\n- `b`\n---\nThen:"));
    expect(p.stages[0]?.acceptance.length).toBe(n / 2 + 1);
  });
  test("a break over 200,000 lines of prose items, then a row: refused with the break's line", () => {
    const f = readPlan(["# P", "", recommendation, "", "Acceptance:", "- `b`", "---", times(n, "- tidy up"), "- `c` exits 0"].flat().join("\n"));
    expect(f._unsafeUnwrapErr()).toMatchObject({ code: "structure-unread", kind: "rule-in-list", line: 11, hides: { line: n + 12 } });
  });
});

describe("deeply nested lists", () => {
  // Each line once asked, for every list item it continues, whether the rest of the line was blank:
  // a scan over the rest of its indentation per item, so the reading grew with the cube of the
  // depth (1,500 levels took 15 s, 4,000 levels minutes).
  const levels = 4_000;
  const nest = Array.from({ length: levels }, (_, i) => `${"  ".repeat(i)}- x`);
  test("4,000 nested list levels in a falsifiers section are one falsifier", () => {
    const p = read("# P", "", recommendation, "", "## Falsifiers", "", nest);
    expect(p.falsifiers).toEqual([nest.join("\n").slice(2)]);
  });
  test("4,000 nested list levels in a stage's instructions are its text", () => {
    const p = read("# P", "", recommendation, "", nest);
    expect(p.stages.map((s) => [s.instructions, s.acceptance.map((r) => r.run)])).toEqual([[`\nAcceptance: \`a\`\n\n${nest.join("\n")}`, ["a"]]]);
  });
  // A line blank inside a quote continues every list item the quote holds: it once walked them all.
  test("200,000 blank lines in a quote that holds 100,000 nested list items", () => {
    const p = read("# P", "", recommendation, "", `> ${"- ".repeat(n / 2)}x`, times(n, ">"), "> Acceptance: `b`");
    expect(p.stages.map((s) => s.acceptance.map((r) => r.run))).toEqual([["a", "b"]]);
  });
});
