// Acceptance patterns are compiled without flags and `at least` counts matches in the whole output:
// what a pattern would mean otherwise is refused by the plan reader and by parseContract alike.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { describeFault } from "./fault.js";
import type { AcceptanceRow, Contract } from "./model.js";
import { parseContract } from "./parse-contract.js";
import { readPlan } from "./plan/read-plan.js";
import { renderContract } from "./render.js";
import { bareContract } from "../test/support/bare.js";

const plan = (acceptance: string) => ["# Plan", "", "## Recommendation", "", "### Stage 1: A", "", `Acceptance: ${acceptance}`, ""].join("\n");
/** The plan reader refuses `Acceptance: text` on its line with `problem`, in a sentence holding `says`. */
function expectRefused(text: string, problem: string, says: string) {
  const f = readPlan(plan(text))._unsafeUnwrapErr();
  expect(f).toMatchObject({ code: "acceptance-invalid", line: 7, problem });
  expect(describeFault(f)).toContain(says);
}

const contract = (row: AcceptanceRow): Contract =>
  bareContract([{ id: "S1", label: "Stage 1", title: "t", instructions: "", exit_criterion: null, acceptance: [row], depends_on: [], optional: false }]);
const row = (run: string, expect: Partial<AcceptanceRow["expect"]>): AcceptanceRow => ({
  id: "S1.1",
  run,
  expect: { exit: 0, stdout_contains: [], stdout_matches: [], count: [], ...expect },
});
/** The fault parseContract gives for a rendered (so correctly sealed) contract holding `r`, and the line of its row. */
function contractFault(r: AcceptanceRow) {
  const md = renderContract(contract(r));
  const rowLine = md.split("\n").findIndex((l) => l.startsWith("| S1.1 |")) + 1;
  return { fault: parseContract(md)._unsafeUnwrapErr(), rowLine };
}

describe("at least N lines matching: the count is of matches in the whole output (finding 5)", () => {
  test.each(["`t` at least 3 lines matching /^ok$/", "`t` at least 2 lines /ok/", "`t` prints at least 2 line `ok`"])("%s is refused", (text) => {
    expectRefused(text, "count-of-lines", "counts matches of the pattern in the whole output, not lines: write at least N /regex/");
  });

  test("the wording without lines is read as a count of matches", () => {
    const stage = readPlan(plan("`t` at least 3 matches of /ok/ and at least 2 `x`"))._unsafeUnwrap().stages[0];
    expect(stage?.acceptance[0]?.expect.count).toEqual([
      { pattern: "ok", min: 3 },
      { pattern: "x", min: 2 },
    ]);
  });

  test.each(["/x*/", "/(?:)/", "/^/", "/a|/"])("at least N %s, which matches the empty string, is refused by the plan reader", (re) => {
    expectRefused(`\`t\` at least 5 ${re}`, "empty-match", "matches the empty string");
  });

  test("and by parseContract, naming the row and its line", () => {
    const { fault, rowLine } = contractFault(row("t", { count: [{ pattern: "x*", min: 5 }] }));
    expect(fault).toMatchObject({ code: "contract-invalid", line: rowLine, path: "stages.0.acceptance.0.expect" });
    expect(describeFault(fault)).toMatch(/^line \d+: stages\.0\.acceptance\.0\.expect: row S1\.1: .*matches the empty string.*: x\*$/);
  });

  test("matches /x*/ stays accepted: a match anywhere is asked for, not a count", () => {
    expect(readPlan(plan("`t` matches /x*/")).isOk()).toBe(true);
  });
});

describe("\\p{…} and \\P{…} mean a Unicode property only with the u flag, which acceptance patterns do not have (finding 7)", () => {
  test.each(["`t` matches /\\p{L}/", "`t` at least 2 /\\P{Lu}+/", "`t` matches /[\\p{N}]/"])("%s is refused by the plan reader", (text) => {
    expectRefused(text, "unicode-escape", "compiled without flags");
  });

  test("an escaped backslash before p{ is a backslash, and is read", () => {
    expect(readPlan(plan("`t` matches /\\\\p{L}/")).isOk()).toBe(true);
    expect(readPlan(plan("`t` at least 2 `\\p{L}`")).isOk()).toBe(true);
  });

  test("parseContract refuses it in a matches or a count cell, naming the row and its line", () => {
    for (const expect_ of [{ stdout_matches: ["\\p{L}"] }, { count: [{ pattern: "\\P{L}", min: 1 }] }]) {
      const { fault, rowLine } = contractFault(row("t", expect_));
      expect(fault).toMatchObject({ code: "contract-invalid", line: rowLine, path: "stages.0.acceptance.0.expect" });
      expect(describeFault(fault)).toContain("row S1.1: ");
    }
  });

  test("a pattern without \\p{ or \\P{ that compiles is accepted by both readers", () => {
    const source = fc.stringMatching(/^[a-z\\{}pP.*+?^$|()[\]0-9]{1,8}$/);
    fc.assert(
      fc.property(source, (src) => {
        const compiles = (() => {
          try {
            new RegExp(src);
            return true;
          } catch {
            return false;
          }
        })();
        const unicode = /(?:^|[^\\])(?:\\\\)*\\[pP]\{/.test(src);
        if (!compiles || src.includes("/") || src.includes("`")) return;
        const parsed = parseContract(renderContract(contract(row("t", { stdout_matches: [src] }))));
        expect(parsed.isOk()).toBe(!unicode);
      }),
      { numRuns: 500 },
    );
  });
});

describe("a row with a blank command is refused (finding 6)", () => {
  test.each([" ", "   ", "\t"])("a command of %j is contract-invalid, naming the row and its line", (run) => {
    const { fault, rowLine } = contractFault(row(run, {}));
    expect(fault).toMatchObject({ code: "contract-invalid", line: rowLine, path: "stages.0.acceptance.0.run" });
    expect(describeFault(fault)).toContain("row S1.1: the command is blank");
  });
});
