import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { describeFault } from "../fault.js";
import { readPlan } from "../plan/read-plan.js";
import { importPlan } from "./import-plan.js";

/** A one-task plan whose step runs `node t.mjs` and expects `expected`. */
const taskPlan = (expected: string) => ["# Plan: x", "", "### Task 1: a", "", "Run: `node t.mjs`", `Expected: ${expected}`, ""].join("\n");

/** What the import made of the Expected line: the acceptance text after the command, or the reason it is listed. */
function outcome(expected: string): { acceptance: string[]; listed: string[] } {
  const imported = importPlan(taskPlan(expected))._unsafeUnwrap();
  const acceptance = imported.text
    .split("\n")
    .filter((l) => l.startsWith("Acceptance: `node t.mjs` "))
    .map((l) => l.slice("Acceptance: `node t.mjs` ".length));
  return { acceptance, listed: imported.notConverted.filter((n) => n.line === 5).map((n) => n.reason) };
}

describe("import converts an Expected: line only when all of it is kept (finding 2)", () => {
  test.each([
    'exit 0 but no "error" in output',
    'PASS with "12 rows"',
    'exit 0 and prints "5 passed"',
    'PASS, prints "5 passed"',
    "exit 0 (5 passed)",
    "PASS: 5 passed",
    "PASS - all 12 tests",
  ])("%s is listed under Not converted, never turned into exits 0", (expected) => {
    const { acceptance, listed } = outcome(expected);
    expect(acceptance).toEqual([]);
    expect(listed).toHaveLength(1);
    expect(listed[0]).toContain(expected);
    const imported = importPlan(taskPlan(expected))._unsafeUnwrap();
    expect(imported.text).toContain(`- line 5: Run: \`node t.mjs\` (${listed[0]})`);
  });

  test.each([
    ["PASS", "exits 0"],
    ["PASS.", "exits 0"],
    ["all tests pass", "exits 0"],
    ["exit 0", "exits 0"],
    ['"12 rows"', "exits 0 and prints `12 rows`"],
    ['output contains "12 rows"', "exits 0 and prints `12 rows`"],
    ["exits 0 and prints `12 rows`", "exits 0 and prints `12 rows`"],
  ])("%s is converted whole", (expected, want) => {
    expect(outcome(expected)).toEqual({ acceptance: [want], listed: [] });
  });
});

/** Words an Expected: line may hold whose meaning the converted line keeps without repeating them. */
const VOCABULARY = new Set(
  ["pass", "passes", "passed", "all", "test", "tests", "succeeds", "succeed", "success", "exit", "exits", "with", "code", "output", "stdout"].concat([
    "contains",
    "prints",
    "shows",
    "includes",
  ]),
);

const fragment = fc.oneof(
  fc.constantFrom("PASS", "exit 0", "exits 0", "passes", "succeeds", "all tests pass", '"12 rows"', "`ok`", "prints `ok`", "output contains"),
  fc.constantFrom("but", "no", '"error"', "in output", "with", "and", ",", ":", "-", "(5 passed)", "matches /ok/", "at least 2 `ok`", "."),
  fc.string({ maxLength: 6 }).filter((s) => !/[\r\n]/.test(s)),
);

describe("import properties (finding 2)", () => {
  test("for any Expected: line, every word of it is in the Acceptance: line made from it, or the line is listed", () => {
    fc.assert(
      fc.property(fc.array(fragment, { minLength: 1, maxLength: 5 }), fc.constantFrom(" ", ", ", " and "), (parts, sep) => {
        const expected = parts.join(sep).trim();
        const { acceptance, listed } = outcome(expected);
        expect(acceptance.length + listed.length).toBe(1);
        const made = acceptance[0];
        if (made === undefined) return;
        const words = expected.toLowerCase().match(/[a-z0-9]+/g) ?? [];
        for (const w of words) if (!VOCABULARY.has(w)) expect(made.toLowerCase()).toContain(w);
      }),
      { numRuns: 400 },
    );
  });
});

describe("import refuses a plan it cannot write as a plan check reads (finding 19)", () => {
  const dup = ["# Plan: x", "", "### Task 1: a", "", "Run: `echo a`", 'Expected: "a"', "", "### Task 1: b", "", "Run: `echo b`", 'Expected: "b"', ""].join(
    "\n",
  );

  test("two tasks with one number are refused, naming both lines of the task plan", () => {
    const fault = importPlan(dup)._unsafeUnwrapErr();
    expect(fault).toEqual({ code: "import-duplicate", line: 8, first: 3, label: "Task 1" });
    expect(describeFault(fault)).toBe(
      'line 8: a second "Task 1" (the first is on line 3): each becomes a stage, and a stage needs its own number; renumber one of them',
    );
  });

  test("two phases with one number in a spec-kit tasks.md are refused the same way", () => {
    const text = ["# Tasks", "", "## Phase 1: a", "", "- [ ] T001 x", "", "## Phase 1: b", "", "- [ ] T002 y", ""].join("\n");
    expect(importPlan(text)._unsafeUnwrapErr()).toMatchObject({ code: "import-duplicate", line: 7, first: 3, label: "Phase 1" });
  });

  test("what import writes with distinct numbers is read by the plan reader", () => {
    const text = importPlan(dup.replace("### Task 1: b", "### Task 2: b"))._unsafeUnwrap().text;
    expect(readPlan(text).isOk()).toBe(true);
  });
});
