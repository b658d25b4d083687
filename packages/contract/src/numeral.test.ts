// A number (an exit code, a count) is read only as the renderer writes it back: `exits 007` or a
// contract cell `| 00 |` would be read as 7 or 0 and render differently, so both readers refuse them.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { tempDir } from "../../../test-utils/tmp.js";
import { sealContract } from "../test/support/seal.js";
import { bareContract } from "../test/support/bare.js";
import type { CliIo } from "./cli/io.js";
import { main } from "./cli/main.js";
import { describeFault } from "./fault.js";
import type { AcceptanceRow } from "./model.js";
import { readNumeral } from "./numeral.js";
import { parseContract } from "./parse-contract.js";
import { readPlan } from "./plan/read-plan.js";
import { renderContract } from "./render.js";

const plan = (acceptance: string) => ["# Plan", "", "## Recommendation", "", "### Stage 1: A", "", `Acceptance: ${acceptance}`, ""].join("\n");
const rowOf = (acceptance: string) => readPlan(plan(acceptance))._unsafeUnwrap().stages[0]?.acceptance[0];

const row = (expect_: Partial<AcceptanceRow["expect"]>): AcceptanceRow => ({
  id: "S1.1",
  run: "t",
  expect: { exit: 0, stdout_contains: [], stdout_matches: [], count: [], ...expect_ },
});
const stage = (r: AcceptanceRow) => ({
  id: "S1",
  label: "Stage 1",
  title: "t",
  instructions: "",
  exit_criterion: null,
  acceptance: [r],
  depends_on: [],
  optional: false,
});
/** A sealed contract holding `r`, its row line edited by `edit` (so only the row rule can refuse it). */
function edited(r: AcceptanceRow, edit: (line: string) => string): { md: string; rowLine: number } {
  const lines = renderContract(bareContract([stage(r)])).split("\n");
  const at = lines.findIndex((l) => l.startsWith("| S1.1 |"));
  lines[at] = edit(lines[at] ?? "");
  return { md: sealContract(lines.join("\n")), rowLine: at + 1 };
}

describe("readNumeral: one rule for how a number is written", () => {
  test("digits are read exactly when they render back as written and are at most max", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{1,20}$/), fc.integer({ min: 0, max: 1000 }), (digits, max) => {
        const read = readNumeral(digits, max);
        const value = Number(digits);
        // Out of range first, however written: advice to write the canonical form would be refused next.
        if (value > max) expect(read._unsafeUnwrapErr()).toBe("too-large");
        else if (String(value) !== digits) expect(read._unsafeUnwrapErr()).toBe("not-canonical");
        else expect(read._unsafeUnwrap()).toBe(value);
      }),
      { numRuns: 2000 },
    );
  });

  test.each(["00", "007", "0255", "000000"])("%s is not canonical", (digits) => {
    expect(readNumeral(digits, 255)._unsafeUnwrapErr()).toBe("not-canonical");
  });

  test.each(["0256", "00999"])("%s is out of range before it is zero-led: the number it would become is refused too", (digits) => {
    expect(readNumeral(digits, 255)._unsafeUnwrapErr()).toBe("too-large");
  });
});

describe("the plan reader refuses an exit code or a count not written canonically", () => {
  const zeroLed = [
    "`t` exits 00",
    "`t` exits 007",
    "`t` exit code 01",
    "`t` exits with 0255 and prints `ok`",
    "`t` prints `ok` and exits with code 00",
    "`t` at least 007 `passed`",
  ];
  test.each(zeroLed)("%s is refused, naming the number as written and the one to write", (text) => {
    const numeral = / (0[0-9]+)\b/.exec(text)?.[1] ?? "";
    const f = readPlan(plan(text))._unsafeUnwrapErr();
    expect(f).toMatchObject({ code: "acceptance-invalid", line: 7, problem: "number-not-canonical", unread: numeral });
    expect(describeFault(f)).toContain(`the number "${numeral}" is written with a leading zero`);
    expect(describeFault(f)).toMatch(new RegExp(`write ${Number(numeral)}$`));
  });

  test.each(["`t` exits 256", "`t` exits 1000", "`t` exits 0256", `\`t\` exits ${"9".repeat(400)}`])(
    "%s is refused as out of range, naming the code",
    (text) => {
      const f = readPlan(plan(text))._unsafeUnwrapErr();
      expect(f).toMatchObject({ code: "acceptance-invalid", problem: "exit-out-of-range" });
      expect(describeFault(f)).toMatch(/exit code 9*\d+ is out of range: an exit code is 0 to 255$/);
    },
  );

  test("at least 00 is still refused as a count of zero, and the canonical forms are read", () => {
    expect(readPlan(plan("`t` at least 00 `ok`"))._unsafeUnwrapErr()).toMatchObject({ problem: "count-zero" });
    expect(rowOf("`t` exits 0")?.expect.exit).toBe(0);
    expect(rowOf("`t` exits 7 and at least 10 `ok`")?.expect).toMatchObject({ exit: 7, count: [{ pattern: "ok", min: 10 }] });
    expect(rowOf("`t` exits 255")?.expect.exit).toBe(255);
  });

  test("every exit code 0 to 255 read from a plan renders and reads back as written", () => {
    for (let code = 0; code <= 255; code++) {
      const r = rowOf(`\`t\` exits ${code}`);
      const md = renderContract(bareContract([stage(r as AcceptanceRow)]));
      expect(md).toContain(`| S1.1 | \`t\` | ${code} |`);
      expect(parseContract(md)._unsafeUnwrap().stages[0]?.acceptance[0]?.expect.exit).toBe(code);
    }
  });
});

describe("parseContract refuses a zero-led or padded exit cell, or a zero-led count, naming the cell and the row's line", () => {
  // " 0 " is the cell |  0  |: the renderer writes one space each side, and a cell padded otherwise would not read back as written.
  test.each(["00", "007", " 0 ", "0 ", " 0", "0"])("an exit cell %j", (cell) => {
    const { md, rowLine } = edited(row({ exit: 0 }), (l) => l.replace("| `t` | 0 |", `| \`t\` | ${cell} |`));
    const parsed = parseContract(md);
    if (cell === "0") return void expect(parsed.isOk()).toBe(true);
    const f = parsed._unsafeUnwrapErr();
    expect(f).toMatchObject({ code: "contract-malformed", line: rowLine, found: cell });
    expect(describeFault(f)).toBe(`line ${rowLine}: expected an exit code written with no leading zero and one space each side, found "${cell}"`);
  });

  test("a count cell 007 `ok` (and the second count of a cell)", () => {
    for (const cell of ["007 `ok`", "3 `a`, 02 `b`"]) {
      const { md, rowLine } = edited(row({ count: [{ pattern: "ok", min: 7 }] }), (l) => l.replace("7 `ok`", cell));
      const f = parseContract(md)._unsafeUnwrapErr();
      expect(f).toMatchObject({ code: "contract-malformed", line: rowLine });
      expect(describeFault(f)).toMatch(/expected a count written with no leading zero, found "0(07|2)"$/);
    }
  });
});

describe("decay-contract check exits 2 on a zero-led exit code", () => {
  const root = fileURLToPath(new URL("../../../", import.meta.url));
  async function check(name: string, text: string) {
    const dir = await tempDir();
    await writeFile(join(dir, name), text);
    const out = { stdout: "", stderr: "" };
    const io: CliIo = { stdout: async (t) => void (out.stdout += t), stderr: async (t) => void (out.stderr += t), cwd: root, env: {} };
    return { code: await main(["check", join(dir, name)], io), ...out };
  }

  test("in a plan's acceptance", async () => {
    const r = await check("p.md", plan("`t` exits 007"));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('the number "007" is written with a leading zero');
  });

  test("in a contract's exit cell", async () => {
    const { md } = edited(row({ exit: 7 }), (l) => l.replace("| 7 |", "| 007 |"));
    const r = await check("c.md", md);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('expected an exit code written with no leading zero and one space each side, found "007"');
  });

  test("in a contract's exit cell padded with spaces", async () => {
    const { md } = edited(row({ exit: 0 }), (l) => l.replace("| 0 |", "|  0  |"));
    const r = await check("c.md", md);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(
      /^decay-contract: \S+\/c\.md: line \d+: expected an exit code written with no leading zero and one space each side, found " 0 "\n/,
    );
  });
});
