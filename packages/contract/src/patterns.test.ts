// Acceptance patterns are compiled without flags and `at least` counts matches in the whole output:
// what a pattern would mean otherwise is refused by the plan reader and by parseContract alike.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { describeFault } from "./fault.js";
import type { AcceptanceRow, Contract } from "./model.js";
import { parseContract } from "./parse-contract.js";
import { patternProblem } from "./patterns.js";
import { readPlan } from "./plan/read-plan.js";
import { renderContract } from "./render.js";
import { bareContract } from "../test/support/bare.js";
import { regexSource as source } from "../test/support/regex-arbitrary.js";

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

  test.each(["/\\b/", "/(?=a)/", "/(?<=x)/", "/(?<!^)/", "/x?(?=y)/", "/(?<=a)b*/", "/ok|\\b/", "/(?:(?=a)|b)+/", "/()\\1(?=a)/", "/(?=a)+/"])(
    "at least N %s, which matches the empty string at some position of some output (not of the empty one), is refused",
    (re) => {
      expect(new RegExp(re.slice(1, -1)).test("")).toBe(false);
      expectRefused(`\`t\` at least 2 ${re}`, "empty-match", "matches the empty string at some position");
      const { fault } = contractFault(row("t", { count: [{ pattern: re.slice(1, -1), min: 2 }] }));
      expect(fault).toMatchObject({ code: "contract-invalid", path: "stages.0.acceptance.0.expect" });
    },
  );

  test.each([
    "/\\bok\\b/",
    "/^ok/",
    "/ok$/",
    "/(?<=x)y/",
    "/a(?=b)/",
    "/(?!x)./",
    "/[\\b]/",
    "/\\\\b/",
    "/\\1/",
    "/(a)\\1/",
    "/(?<n>a)\\k<n>/",
    "/a{1,2}?/",
    "/[]]/",
    "/(?<=[(])x/",
    "/(?=[)])./",
  ])("at least N %s needs a character wherever it matches, and is read", (re) => {
    expect(readPlan(plan(`\`t\` at least 2 ${re}`))._unsafeUnwrap().stages[0]?.acceptance[0]?.expect.count).toEqual([{ pattern: re.slice(1, -1), min: 2 }]);
  });

  test.each([
    "/x*/",
    "/x?/",
    "/(?:)/",
    "/(a|)/",
    "/a*|b/",
    "/a{0,3}/",
    "/()\\1/",
    "/^/",
    "/$/",
    "/(?!x)/",
    "/(?<!x)/",
    "/(?=a)?/",
    "/^|$/",
    "/\\b|\\B/",
    "/(?:\\b|\\B)/",
    "/(?=a)|(?!a)/",
  ])("matches %s matches an empty string at the start or the end of every text: it matches every output and is refused", (re) => {
    expectRefused(`\`t\` matches ${re}`, "matches-anything", "matches every output and checks nothing");
  });

  test.each(["/^$/", "/\\bok/", "/(?=a)/", "/(?<=x)/", "/\\B/", "/x/", "/[^]/", "/^(?![\\s\\S]*ERROR)/", "/\\\\^/", "/(?!x)y/"])(
    "matches %s asks something of the output and is read",
    (re) => {
      expect(readPlan(plan(`\`t\` matches ${re}`))._unsafeUnwrap().stages[0]?.acceptance[0]?.expect.stdout_matches).toEqual([re.slice(1, -1)]);
    },
  );

  test("at least 0 is refused: it holds on any output; at least 1 is read", () => {
    expectRefused("`t` at least 0 `passed`", "count-zero", "at least 0 holds on any output");
    expectRefused("`t` at least 00 /ok/", "count-zero", "a count is at least 1");
    expect(readPlan(plan("`t` at least 1 `passed`"))._unsafeUnwrap().stages[0]?.acceptance[0]?.expect.count).toEqual([{ pattern: "passed", min: 1 }]);
  });

  test("parseContract refuses a forged row whose count is 0 or whose matches pattern matches every output, naming the row", () => {
    for (const expect_ of [{ count: [{ pattern: "ok", min: 0 }] }, { stdout_matches: ["x?"] }]) {
      const { fault, rowLine } = contractFault(row("t", expect_));
      expect(fault).toMatchObject({ code: "contract-invalid", line: rowLine });
      expect(describeFault(fault)).toMatch(/at least 0 holds on any output|matches every output/);
    }
  });
});

describe("a pattern nested deeper than the engine can be trusted with is refused before anything compiles it", () => {
  const nested = (open: string, depth: number) => `${open.repeat(depth)}ok${")".repeat(depth)}`;

  test("lookaheads 20,000 deep (which abort V8 as it compiles them) are refused by both readers, naming the row", () => {
    const deep = nested("(?=", 20_000);
    expectRefused(`\`t\` matches /${deep}/`, "too-deep", "nests groups more than 256 deep");
    expectRefused(`\`t\` at least 2 /${deep}/`, "too-deep", "write it flatter");
    for (const expect_ of [{ stdout_matches: [deep] }, { count: [{ pattern: deep, min: 1 }] }]) {
      const { fault, rowLine } = contractFault(row("t", expect_));
      expect(fault).toMatchObject({ code: "contract-invalid", line: rowLine });
      expect(describeFault(fault)).toContain("nests groups more than 256 deep");
    }
  });

  test("256 levels of groups are read; 257 are refused, of any kind of group", () => {
    for (const open of ["(", "(?:", "(?=", "(?<!", "(?<n1>"]) {
      const at = (depth: number) => patternProblem(open === "(?<n1>" ? `${"(?:".repeat(depth - 1)}(?<n1>ok${")".repeat(depth)}` : nested(open, depth), false);
      expect([open, at(256)]).toEqual([open, null]);
      expect([open, at(257)]).toEqual([open, "too-deep"]);
    }
    // Brackets in a class, and escaped ones, open no group.
    expect(patternProblem(`${"[(]".repeat(300)}${"\\(".repeat(300)}ok`, false)).toBeNull();
  });
});

describe("a pattern the engine parses but cannot compile, or compiles only in minutes, is refused as such", () => {
  const nested = (depth: number) => `${"(?:".repeat(depth)}ok${"){2,3}".repeat(depth)}`;

  test("small counted repetitions nested past a product of 100,000 are too-complex; eight levels are read", () => {
    expect(patternProblem(nested(20), false)).toBe("too-complex");
    expect(patternProblem(nested(9), true)).toBe("too-complex");
    expect(patternProblem(nested(8), false)).toBeNull();
    expectRefused(`\`t\` matches /${nested(20)}/`, "too-complex", "multiply past 100000");
    const { fault } = contractFault(row("t", { stdout_matches: [nested(12)] }));
    expect(describeFault(fault)).toContain("write it flatter");
  });

  test("more than ten word boundaries one after another, through groups and their copies, are too-complex (V8 aborted on twenty)", () => {
    const run = (n: number) => `${"(?:\\b){1}".repeat(n)}ok`;
    expect([patternProblem(run(10), false), patternProblem(run(11), false)]).toEqual([null, "too-complex"]);
    // The last is counted through the optional \\s*, as it may consume nothing: a refusal on the safe side.
    for (const crashing of ["(?:\\b\\b){2}".repeat(50), `(?:(?:(?:\\b\\b\\b){2}(?:\\b\\b\\b){2}){2}){2}`, `\\b${"(?:\\s*\\b){3}".repeat(4)}ok`]) {
      expect([crashing, patternProblem(crashing, true)]).toEqual([crashing, "too-complex"]);
    }
    expectRefused(`\`t\` matches /${"(?:\\b\\b){2}".repeat(50)}/`, "too-complex", "more than 10 word boundaries");
    // Boundaries with characters between never run together, however many.
    const words = Array.from({ length: 40 }, (_, k) => `\\bw${k}\\b`).join("|");
    for (const ok of [words, "(?:\\b\\w+\\b\\s*){1,3}", "\\bv?\\d+\\.\\d+\\.\\d+(?:-[\\w.]+)?\\b", "(?:\\b)*ok"]) {
      expect([ok, patternProblem(ok, false)]).toEqual([ok, null]);
    }
  });

  test("more than twelve places in a row where an empty match can go two ways are too-complex: the checks would try them all", () => {
    const run = (piece: string, n: number) => `${piece.repeat(n)}x`;
    for (const piece of ["(?!\\B)", "(?:|)", "(?:^|$)", "(?=\\b)", "(?:(?:)?)"]) {
      expect([piece, patternProblem(run(piece, 12), false)]).toEqual([piece, null]);
      expect([piece, patternProblem(run(piece, 26), false), patternProblem(run(piece, 26), true)]).toEqual([piece, "too-complex", "too-complex"]);
    }
    // Optional pieces that consume something are no such places, however many.
    expect(patternProblem(`v${"(?:\\.\\d+)?".repeat(30)}`, false)).toBeNull();
  });

  test("counts V8 runs as a loop (large ones), named groups and everyday patterns are not weighed as nesting", () => {
    for (const ok of ["a{1000000}", "(?:(?:a{1000}){1000}){1000}", "(?<year>\\d{4})-(?<m>\\d{2})", "(?:\\d{1,3}\\.){3}\\d{1,3}", "(?:(?:(?:a+)+)+)+ok"]) {
      expect([ok, patternProblem(ok, false)]).toEqual([ok, null]);
    }
  });

  test("a pattern V8 parses and then cannot compile (too large, too deep for its stack) is bad-regex, not a crash", () => {
    for (const big of ["a".repeat(1_000_000), "x(?:a|b)".repeat(60_000), "(?=a)".repeat(100_000)]) {
      expect(patternProblem(big, false)).toBe("bad-regex");
    }
    expectRefused(`\`t\` matches /${"x(?:a|b)".repeat(60_000)}/`, "bad-regex", "the engine cannot compile it");
  });
});

describe("\\u{…} is a code point only with the u flag: without it \\u{41} is the letter u 41 times", () => {
  test.each(["`t` matches /\\u{41}/", "`t` at least 2 /\\u{1F600}/", "`t` matches /[\\u{41}\\u{42}]/", "`t` matches /a\\u{x}/"])(
    "%s is refused by the plan reader, as \\p{ is",
    (text) => {
      expectRefused(text, "unicode-escape", "\\u{41} the letter u 41 times");
    },
  );

  test("\\u0041 (four digits, a code unit without the u flag too) and an escaped backslash before u{ are read", () => {
    expect(readPlan(plan("`t` matches /\\u0041/"))._unsafeUnwrap().stages[0]?.acceptance[0]?.expect.stdout_matches).toEqual(["\\u0041"]);
    expect(readPlan(plan("`t` matches /\\\\u{2}/")).isOk()).toBe(true);
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

  test("parseContract refuses it (or \\u{…}) in a matches or a count cell, naming the row and its line", () => {
    const cells = [
      { stdout_matches: ["\\p{L}"] },
      { count: [{ pattern: "\\P{L}", min: 1 }] },
      { stdout_matches: ["\\u{41}"] },
      { count: [{ pattern: "a\\u{3}", min: 1 }] },
    ];
    for (const expect_ of cells) {
      const { fault, rowLine } = contractFault(row("t", expect_));
      expect(fault).toMatchObject({ code: "contract-invalid", line: rowLine, path: "stages.0.acceptance.0.expect" });
      expect(describeFault(fault)).toContain("row S1.1: ");
    }
  });

  test("a pattern without \\p{, \\P{ or \\u{ that compiles is accepted by both readers", () => {
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
        const unicode = /(?:^|[^\\])(?:\\\\)*\\[pPu]\{/.test(src);
        if (!compiles || src.includes("/") || src.includes("`")) return;
        const parsed = parseContract(renderContract(contract(row("t", { stdout_matches: [src] }))));
        // A pattern that matches at the start of every text is refused too (`matches-anything`).
        const anything = !unicode && patternProblem(src, false) === "matches-anything";
        if (anything) for (const text of ["", "zz", "\n", "é"]) expect(new RegExp(src).test(text)).toBe(true);
        expect(parsed.isOk()).toBe(!unicode && !anything);
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

const output = fc.string({ unit: fc.constantFrom("a", "b", "x", " ", "\n", "\b"), maxLength: 12 });

/** The lengths of the matches a global exec loop finds (an empty match steps one position on), as a count of matches does. */
function matchLengths(pattern: string, text: string): number[] {
  const re = new RegExp(pattern, "g");
  const out: number[] = [];
  for (let m = re.exec(text); m !== null && out.length < 100; m = re.exec(text)) {
    out.push(m[0].length);
    if (m[0] === "") re.lastIndex += 1;
  }
  return out;
}

describe("a count's verdict never comes from a zero-length match", () => {
  test("a pattern an at least count may hold matches at least one character wherever it matches, in any output", () => {
    fc.assert(
      fc.property(source, fc.array(output, { minLength: 1, maxLength: 4 }), (re, texts) => {
        fc.pre(patternProblem(re, true) === null);
        for (const text of texts) expect(matchLengths(re, text), `${re} on ${JSON.stringify(text)}`).not.toContain(0);
      }),
      { numRuns: 2000 },
    );
  });

  test("the rule refuses no more than it must where there is no assertion: such a pattern is refused exactly when it matches the empty string", () => {
    fc.assert(
      fc.property(source, (re) => {
        fc.pre(!/\\[bB]|[$^]|\(\?<?[=!]|\\1/.test(re.replace(/\[\\b\]/g, "")));
        expect(patternProblem(re, true) === "empty-match").toBe(new RegExp(re).test(""));
      }),
      { numRuns: 1000 },
    );
  });
});
