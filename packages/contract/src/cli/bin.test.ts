// Issue 17, section 2 (and the import command): what the built bin says, run as a subprocess.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { tempDir } from "../../../../test-utils/tmp.js";

const root = fileURLToPath(new URL("../../../../", import.meta.url));
const bin = join(root, "packages/contract/dist/bin.js");
const refunds = "fixtures/plans/refunds-report.plan.md";

function exec(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { cwd: root }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 2) : 0, stdout, stderr });
    });
  });
}

async function planFile(...lines: string[]): Promise<string> {
  const path = join(await tempDir(), "plan.md");
  await writeFile(path, `${lines.join("\n")}\n`);
  return path;
}

describe("2.1 compile prints a one-line summary on stderr", () => {
  test("stages with their plan labels, rows, guardrails and falsifiers", async () => {
    const r = await exec(["compile", refunds]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      `decay-contract: ${refunds}: 4 stages (Stage 1: 2 rows; Stage 2: 2 rows; Stage 3: 1 row; Stage 4 (optional): 0 rows), 5 rows, 4 guardrails, 3 falsifiers\n`,
    );
  });
  test("with -o too; --quiet turns it off", async () => {
    const out = join(await tempDir(), "c.md");
    expect((await exec(["compile", refunds, "-o", out])).stderr).toMatch(/^decay-contract: .*: 4 stages \(/);
    expect(await exec(["compile", refunds, "--quiet", "-o", out])).toEqual({ code: 0, stdout: "", stderr: "" });
  });
});

describe("2.2 refusals quote the line and show the form that would be read", () => {
  test("a fenced block under Acceptance: says the command is an inline code span and shows the line", async () => {
    const plan = await planFile("## Stages", "### Stage 1: t", "Acceptance:", "", "```sh", "npm test", "```");
    const r = await exec(["compile", plan]);
    expect([r.code, r.stdout]).toEqual([2, ""]);
    expect(r.stderr).toContain('line 3: "Acceptance:" is followed by a fenced block: an acceptance command is one inline code span');
    expect(r.stderr).toContain("write: Acceptance: `npm test` exits 0");
  });
  test("words around the command: says which part was not understood", async () => {
    const plan = await planFile("## Stages", "### Stage 1: t", "Acceptance: run `npm test` and expect 0");
    const r = await exec(["compile", plan]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('line 3: acceptance line not understood: "Acceptance: run `npm test` and expect 0"');
    expect(r.stderr).toContain('"run" before the command is not read, nor is "and expect 0" after it');
    expect(r.stderr).toContain("write: Acceptance: `npm test` exits 0");
  });
  test("a line that looks like structure but was not read is named with its line", async () => {
    const plan = await planFile("## Stages", "### Stage 1: t", "Acceptance: `true`", "### Stage 1-2: u");
    const r = await exec(["compile", plan]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/line 4: "Stage 1-2: u" looks like a stage heading but was read as no stage/);
  });
});

describe("2.3 check names stages by the plan's label and line; faults name the right line", () => {
  test("a plan given to check: Phase 1 (line 5, S1)", async () => {
    const plan = await planFile("# P", "", "## Rollout", "", "### Phase 1: a", "Do it.", "### Phase 2: b", "Acceptance: `node t.mjs` prints `ok`");
    const r = await exec(["check", plan]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("refuse no-acceptance S1: stage Phase 1 (line 5, S1) is not optional");
  });
  test("a contract checked with --plan names the plan's line", async () => {
    const r = await exec(["check", "fixtures/plans/self-check/no-acceptance.contract.md", "--plan", refunds]);
    expect(r.stdout).toMatch(/stage Stage 1 \(line 37, S1\)/);
  });
  test("no staged recommendation names the heading it looked at", async () => {
    const r = await exec(["compile", "fixtures/plans/malformed/no-recommendation.plan.md"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/line 3: no staged recommendation \("Timeline" is the first of the headings looked at\)/);
  });
  test("UTF-16 input is an encoding fault, for compile and check", async () => {
    const path = join(await tempDir(), "plan.md");
    const text = readFileSync(join(root, refunds), "utf8");
    await writeFile(path, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]));
    for (const cmd of ["compile", "check"]) {
      const r = await exec([cmd, path]);
      expect([r.code, r.stdout]).toEqual([2, ""]);
      expect(r.stderr).toMatch(/line 1: the plan is UTF-16 .*not UTF-8/);
    }
  });
});

describe("decay-contract import", () => {
  test("writes a staged plan that compiles; what was not converted is on stderr; check names what is missing", async () => {
    const out = join(await tempDir(), "staged.plan.md");
    const r = await exec(["import", "fixtures/plans/import/task-plan.md", "-o", out]);
    expect([r.code, r.stdout]).toEqual([0, ""]);
    expect(r.stderr.split("\n")[0]).toBe("decay-contract: fixtures/plans/import/task-plan.md: imported a task plan as 3 stages; 2 items not converted:");
    expect(r.stderr).toMatch(/^ {2}line 28: Run: `npx vitest run test\/export\/csv\.test\.ts` \(Expected: FAIL/m);
    expect(await readFile(out, "utf8")).toContain("## Not converted");
    expect((await exec(["compile", out, "--quiet"])).code).toBe(0);
    const check = await exec(["check", out]);
    expect(check.code).toBe(1);
    expect(check.stdout).toMatch(/^refuse no-acceptance S3: stage Stage 3 \(line \d+, S3\)/m);
  });
  test.each([
    ["spec-kit-tasks.md", "a spec-kit tasks.md"],
    ["openspec-tasks.md", "an OpenSpec tasks.md"],
  ])("%s imports to stdout", async (name, what) => {
    const r = await exec(["import", `fixtures/plans/import/${name}`]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^#+ Stages$/m);
    expect(r.stderr).toContain(`imported ${what} as 3 stages`);
  });
  test("a file in none of the formats is a fault (exit 2)", async () => {
    const r = await exec(["import", "fixtures/plans/malformed/no-recommendation.plan.md"]);
    expect([r.code, r.stdout]).toEqual([2, ""]);
    expect(r.stderr).toMatch(/line 1: not a task plan/);
  });
});

describe("the command line", () => {
  test("no command at all: exit 2 with the usage fault on stderr, nothing on stdout", async () => {
    expect(await exec([])).toEqual({
      code: 2,
      stdout: "",
      stderr: "decay-contract: a command is required: compile, check or import (see decay-contract --help)\n",
    });
  });
});
