// A stage heading typed without the space after its `#`s (`###Stage 2: Deploy`), with more than six
// `#`s (`####### Stage 2`) or as HTML (`<h3>Stage 2: Deploy</h3>`, also over several lines) is no Markdown heading: read as a paragraph, its stage would be
// merged into the one above in silence. It is refused with its line and the heading to write.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { describeFault } from "../fault.js";
import { readPlan } from "./read-plan.js";

const plan = (...lines: string[]) => lines.join("\n");
const read = (...lines: string[]) => readPlan(plan(...lines))._unsafeUnwrap();
const fault = (...lines: string[]) => readPlan(plan(...lines))._unsafeUnwrapErr();
/** A plan whose one stage, `Stage 1: Schema`, has the row `echo a`; what follows starts on line 9. */
const s1 = ["# P", "", "## Recommendation", "", "### Stage 1: Schema", "", "Acceptance: `echo a` prints `a`.", ""];

describe("the finding's plans: refused at the line, with the heading to write", () => {
  test.each([
    ["###Stage 2: Deploy", "heading-no-space", "is no heading (a # heading needs a space after its #s)"],
    ["<h3>Stage 2: Deploy</h3>", "heading-html", "is HTML, never read as a heading"],
    ["####### Stage 2: Deploy", "heading-too-deep", "is no heading (a # heading has at most six #s)"],
  ])("%s", (line, kind, why) => {
    const f = fault(...s1, line, "", "Acceptance: `echo b` prints `b`.");
    expect(f).toMatchObject({ code: "structure-unread", line: 9, kind, text: line, write: "### Stage 2: Deploy" });
    expect(describeFault(f)).toBe(
      `line 9: "${line}" looks like a stage heading but ${why}: it opens no stage, and its lines would be read as the text above it; write "### Stage 2: Deploy", or put <!-- decay: prose --> on the line before it to keep it as prose`,
    );
  });
});

describe("a stage heading with no space after its #s", () => {
  test.each([
    ["#Stage 2: Deploy", "# Stage 2: Deploy"],
    ["######Phase B — Canary", "###### Phase B — Canary"],
    ["##S2: Deploy", "## S2: Deploy"],
    ["###step 2", "### step 2"],
    ["###**Milestone 3: Cutover**", "### **Milestone 3: Cutover**"],
    ["   ###Stage 2: Deploy  ", "### Stage 2: Deploy"],
  ])("%s: write %s", (line, write) => {
    expect(fault(...s1, line, "", "Acceptance: `echo b`")).toMatchObject({ code: "structure-unread", line: 9, write });
  });
  test("before the recommendation, and inside a stage of another keyword, it is refused too", () => {
    expect(fault("# P", "", "##Background", "###Stage 0: old", "", ...s1.slice(2))).toMatchObject({ line: 4, kind: "heading-no-space" });
    expect(fault("# P", "## Recommendation", "### Phase 1: a", "####Step 1: test", "Acceptance: `true`")).toMatchObject({
      line: 4,
      write: "#### Step 1: test",
    });
  });
  test("in a list item or a quote, or as a setext heading's text, it is refused", () => {
    expect(fault(...s1, "- ###Stage 2: Deploy")).toMatchObject({ line: 9, write: "### Stage 2: Deploy" });
    expect(fault(...s1, "> ###Stage 2: Deploy")).toMatchObject({ line: 9, write: "### Stage 2: Deploy" });
    expect(fault(...s1, "###Stage 2: Deploy", "---")).toMatchObject({ line: 9, write: "### Stage 2: Deploy" });
  });
  test("what does not look like a stage, code, a comment and prose-marked lines are read as before", () => {
    const runs = (...lines: string[]) => read(...s1, ...lines).stages.map((s) => s.acceptance.map((r) => r.run));
    expect(runs("#hashtag and ##notes", "#1 priority", "#Stagecraft")).toEqual([["echo a"]]);
    expect(runs("```", "###Stage 2: Deploy", "```", "<!-- ###Stage 2 -->", "    ", "    ###Stage 3: code")).toEqual([["echo a"]]);
    expect(runs("<!-- decay: prose -->", "###Stage 2: a tag, kept as prose")).toEqual([["echo a"]]);
  });
});

describe("a stage heading written as HTML", () => {
  test.each([
    ["<h1>Stage 2: Deploy</h1>", "# Stage 2: Deploy"],
    ["<H6 id='s2'>Phase B: Canary</H6>", "###### Phase B: Canary"],
    ["<h2>S2 — Deploy", "## S2 — Deploy"],
    ['  <h4 class="x">  Step 2  </h4 >', "#### Step 2"],
  ])("%s: write %s", (line, write) => {
    expect(fault(...s1, line, "", "Acceptance: `echo b`")).toMatchObject({ code: "structure-unread", line: 9, kind: "heading-html", write });
  });
  test("HTML that is no stage-looking heading is read as before", () => {
    const p = read(...s1, "<h3>Notes</h3>", "<h7>Stage 2: no such tag</h7>", "<header>Stage 2: a header</header>");
    expect(p.stages.map((s) => s.acceptance.map((r) => r.run))).toEqual([["echo a"]]);
  });
});

describe("a stage heading with more than six #s (a paragraph in CommonMark)", () => {
  test("refused at its line (a closing run dropped, in a list item too), told to write the level of the plan's stage headings", () => {
    // The repro: `decay-contract check` passed such a plan, Stage 2's row credited to Stage 1.
    const written = [
      ["####### Stage 2: Deploy", "Stage 2: Deploy"],
      ["########Phase B — Canary", "Phase B — Canary"],
      ["   ####### Step 2 ###", "Step 2"],
      ["- ########## **Milestone 3**", "**Milestone 3**"],
    ] as const;
    for (const [line, title] of written) {
      const f = fault(...s1, line, "", "Acceptance: `echo b`");
      expect([line, f]).toMatchObject([line, { code: "structure-unread", line: 9, kind: "heading-too-deep", write: `### ${title}` }]);
    }
  });
  test("in a plan with no stage heading (numbered stages) it is told to write six #s", () => {
    const f = fault("# P", "", "## Recommendation", "", "1. **Build** the parser.", "", "   Acceptance: `true`", "", "####### Stage 2: Deploy");
    expect(f).toMatchObject({ line: 9, kind: "heading-too-deep", write: "###### Stage 2: Deploy" });
  });
  test("what does not look like a stage, code and prose-marked lines are read as before", () => {
    const runs = (...lines: string[]) => read(...s1, ...lines).stages.map((s) => s.acceptance.map((r) => r.run));
    expect(runs("####### Notes", "#########", "```", "####### Stage 2: Deploy", "```", "", "    ####### Stage 3")).toEqual([["echo a"]]);
    expect(runs("<!-- decay: prose -->", "####### Stage 2: kept as prose")).toEqual([["echo a"]]);
  });
});

describe("a stage heading written as HTML over several lines", () => {
  test.each([
    [["<h2>", "Stage 2: Deploy", "</h2>"], "## Stage 2: Deploy"],
    [["<h3 id='s2'>Stage 2:", "Deploy</h3>"], "### Stage 2: Deploy"],
    [["<H4>", "  Phase B", "  — Canary", "</H4 >"], "#### Phase B — Canary"],
    [["<h2>", "", "Stage 2: Deploy", "", "</h2>"], "## Stage 2: Deploy"],
    [["> <h2>", "> Stage 2: Deploy", "> </h2>"], "## Stage 2: Deploy"],
    [["<h2>", "Stage 2: Deploy", "</h2>", "---"], "## Stage 2: Deploy"],
    [["<h2>", "Stage 2: Deploy"], "## Stage 2: Deploy"],
  ])("%j: refused at its first line, with the heading to write", (lines, write) => {
    // The repro: `decay-contract check` passed the plan, Stage 2's row credited to Stage 1.
    const f = fault(...s1, ...lines, "", "Acceptance: `echo b`");
    expect(f).toMatchObject({ code: "structure-unread", line: 9, kind: "heading-html", write });
    expect(describeFault(f)).toContain(`looks like a stage heading but is HTML, never read as a heading: it opens no stage`);
  });
  test("the lines it spans are quoted as one", () => {
    expect(fault(...s1, "<h2>", "Stage 2: Deploy", "</h2>")).toMatchObject({ text: "<h2> Stage 2: Deploy </h2>" });
  });
  test("one that is no stage-looking heading, never closed over a stage-looking paragraph, or cut by code, a heading or another tag is read as before", () => {
    const runs = (...lines: string[]) => read(...s1, ...lines).stages.map((s) => s.acceptance.map((r) => r.run));
    expect(runs("<h2>", "Notes", "</h2>", "<h2>", "", "Stage 2: in no heading")).toEqual([["echo a"]]);
    expect(runs("<h2>", "```", "Stage 2: Deploy", "```", "</h2>")).toEqual([["echo a"]]);
    expect(runs("<h2>", "#### Notes", "Stage 2: Deploy", "</h2>")).toEqual([["echo a"]]);
    expect(runs("<!-- decay: prose -->", "<h2>", "Stage 2: Deploy", "</h2>")).toEqual([["echo a"]]);
  });
  // Each opening tag looks on no further than the next one: a plan of many costs each line once.
  const many = (...parts: string[]) => readPlan([...s1, ...parts].join("\n"));
  test("an opening tag on each of 200,000 lines, then one closed: refused at the last", () => {
    const f = many(Array<string>(200_000).fill("<h2>").join("\n"), "Stage 2: Deploy", "</h2>")._unsafeUnwrapErr();
    expect(f).toMatchObject({ line: 200_008, kind: "heading-html", write: "## Stage 2: Deploy" });
  });
  test("100,000 opening tags, each over a line of text and a blank line, never closed: read as before", () => {
    expect(many(Array<string>(100_000).fill("<h2>\nNotes\n").join("\n"))._unsafeUnwrap().stages).toHaveLength(1);
  });
});

// Stage-looking heading text, in every form a stage heading may take.
const label = fc.tuple(fc.constantFrom("Stage", "stage", "PHASE", "Phase", "Step", "Milestone"), fc.constantFrom("2", "2.1", "II", "B", "Two"));
const stageText = fc.oneof(
  fc.tuple(label, fc.constantFrom(": Deploy", " — Deploy", "", ". Deploy", " (optional): Deploy")).map(([[w, n], t]) => `${w} ${n}${t}`),
  fc.constantFrom("S2: Deploy", "**Stage 2: Deploy**", "6.2 Stage 2 — Deploy"),
);
/** A misspelt heading line holding `text`, with the heading to write. */
const misspelt = fc.oneof(
  fc.tuple(fc.integer({ min: 1, max: 6 }), stageText, fc.constantFrom("", "  ", "   ")).map(([n, t, pad]) => ({ line: `${pad}${"#".repeat(n)}${t}`, n, t })),
  fc
    .tuple(fc.integer({ min: 1, max: 6 }), stageText, fc.constantFrom("h", "H"), fc.constantFrom("", ' id="x"'), fc.boolean())
    .map(([n, t, h, attrs, closed]) => ({ line: `<${h}${n}${attrs}>${t}${closed ? `</${h}${n}>` : ""}`, n, t })),
  // Seven or more `#`s: told to write the level of the plan's stage headings (3 in every placement below).
  fc
    .tuple(fc.integer({ min: 7, max: 12 }), stageText, fc.constantFrom("", " ", "  "), fc.constantFrom("", "   "))
    .map(([k, t, gap, pad]) => ({ line: `${pad}${"#".repeat(k)}${gap}${t}`, n: 3, t })),
  // An HTML heading over several lines (the line given holds them all; a fault names its first).
  fc
    .tuple(fc.integer({ min: 1, max: 6 }), stageText, fc.constantFrom("\n", "\n\n"), fc.constantFrom("", ' class="x"'))
    .map(([n, t, gap, attrs]) => ({ line: `<h${n}${attrs}>${gap}${t}${gap}</h${n}>`, n, t })),
);
/** Where in a plan the line goes: before the recommendation, in a stage's body, in a list item or a quote, after the stages. */
const placed = fc.constantFrom<((line: string) => string[])[]>(
  (l) => ["# P", "", l, "", ...s1.slice(2)],
  (l) => [...s1, l, "", "Acceptance: `echo b` prints `b`."],
  (l) => [...s1, "Body text.", l, "More text."],
  (l) => [...s1, `- ${l}`, "  Acceptance: `echo b`"],
  (l) => [...s1, `> ${l}`],
  (l) => ["# P", "## Recommendation", "### Phase 1: a", l, "Acceptance: `true`", "## Falsifiers", "- x"],
  (l) => [...s1, "## Falsifiers", "", l, "- y"],
);

describe("no line that looks like a stage heading in these spellings is merged in silence", () => {
  test("over 2,000 generated plans: the plan is refused at that line", () => {
    fc.assert(
      fc.property(misspelt, placed, ({ line, n, t }, place) => {
        const lines = place(line);
        const result = readPlan(plan(...lines));
        if (result.isOk()) return false;
        const at = lines.findIndex((l) => l.includes(line.split("\n")[0] ?? "")) + 1;
        return result.error.code === "structure-unread" && result.error.line === at && result.error.write === `${"#".repeat(n)} ${t.trim()}`;
      }),
      { numRuns: 2_000 },
    );
  });
});
