import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { junitCases, sarifProblems } from "../../../test-utils/formats.js";

// The built decay-contract, run as CI runs it (from the repository root), in each CI format.

const root = fileURLToPath(new URL("../../../", import.meta.url));
const bin = join(root, "packages/contract/dist/bin.js");
const trip = (name: string) => `fixtures/plans/self-check/${name}.contract.md`;

function exec(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { cwd: root }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 2) : 0, stdout, stderr });
    });
  });
}

type Result = { ruleId: string; level: string; locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }[] };

describe("decay-contract check --format sarif|junit|github (built bin)", () => {
  test("sarif: a valid SARIF 2.1.0 log, a result per finding at its row's line; refusals are errors, warnings warnings; exit 1", async () => {
    const r = await exec(["check", trip("writes-outward"), "--format", "sarif"]);
    expect([r.code, r.stderr]).toEqual([1, ""]);
    expect(sarifProblems(r.stdout)).toEqual([]);
    const run = JSON.parse(r.stdout).runs[0];
    expect(run.tool.driver).toMatchObject({ name: "decay-contract", informationUri: expect.stringMatching(/^https:/) });
    const results = run.results as Result[];
    expect(
      results
        .slice(0, 2)
        .map((x) => [x.ruleId, x.level, x.locations[0]?.physicalLocation.artifactLocation.uri, x.locations[0]?.physicalLocation.region.startLine]),
    ).toEqual([
      ["writes-outward", "error", trip("writes-outward"), 40],
      ["writes-outward", "error", trip("writes-outward"), 41],
    ]);
    expect(results.some((x) => x.level === "warning")).toBe(true);
  });

  test("sarif on a plan: the line is the row's Acceptance line in the plan; a clean check has no results, exit 0", async () => {
    const r = await exec(["check", "fixtures/plans/refunds-report.plan.md", "--format", "sarif"]);
    expect(r.code).toBe(0);
    expect(sarifProblems(r.stdout)).toEqual([]);
    const results = JSON.parse(r.stdout).runs[0].results as Result[];
    expect(results.every((x) => x.level === "warning")).toBe(true);
  });

  test("github on a plan: a stage heading hidden in code is warned at its own line of the plan; exit 0", async () => {
    const dir = mkdtempSync(join(tmpdir(), "decay-hidden-"));
    const plan = join(dir, "p.plan.md");
    const lines = ["# Plan", "", "## Stages", "", "### Stage 1: a", "", "Acceptance: `true` exits 0 and prints `1 passed`", "", "```sh", "npm test", ""];
    writeFileSync(plan, [...lines, "### Stage 2: b", "", "```js", "x()", "```", ""].join("\n"));
    try {
      const r = await exec(["check", plan, "--format", "github"]);
      expect(r.code).toBe(0);
      expect(r.stdout.split("\n").filter((l) => l.startsWith("::"))).toEqual([
        expect.stringMatching(
          /^::warning file=.*p\.plan\.md,line=12,title=hidden-stage::line 12 of the plan, "### Stage 2: b", is a stage heading inside a code block/,
        ),
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("junit: a test case per finding and per quiet acceptance row, a failure per refusal", async () => {
    const r = await exec(["check", trip("commit-per-stage-off"), "--format", "junit"]);
    expect(r.code).toBe(1);
    const cases = junitCases(r.stdout);
    expect(cases.map((c) => [c.attributes.name, c.children.map((f) => f.name)])).toEqual([
      ["commit-per-stage-off", ["failure"]],
      ["ordering-unchecked", ["system-out"]],
      ["S1.1 of Stage 1: node check.mjs", []],
    ]);
    expect(cases[0]?.children[0]?.text).toBe(`${trip("commit-per-stage-off")}:6: ${cases[0]?.children[0]?.attributes.message}`);
  });

  test("github: ::error per refusal, ::warning per warning, titled with the code and where, before the text", async () => {
    const r = await exec(["check", trip("weak-row"), "--format", "github"]);
    expect(r.code).toBe(0);
    expect(r.stdout.split("\n")[0]).toMatch(new RegExp(`^::warning file=${trip("weak-row")},line=40,title=weak-row S1 S1.1::row S1.1 `));
    expect(r.stdout.split("\n")[1]).toMatch(/^::warning file=.*,line=1,title=ordering-unchecked::/);
    expect(r.stdout).toMatch(/\nwarn weak-row S1 S1.1: [^\n]*\nwarn ordering-unchecked: [^\n]*\n0 refusal\(s\), 2 warning\(s\)\n$/);
  });

  test("github: a fault is one ::error at its file and line too, besides the message on stderr; exit 2", async () => {
    const r = await exec(["check", "fixtures/plans/malformed/no-recommendation.plan.md", "--format", "github"]);
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/^::error file=fixtures\/plans\/malformed\/no-recommendation.plan.md,line=\d+,title=decay-contract no-recommendation::/);
    expect(r.stderr).toMatch(/^decay-contract: fixtures\/plans\/malformed\/no-recommendation.plan.md: /);
  });

  test("shared usage messages, --version, and a fault prints no document", async () => {
    expect(await exec(["check", "a.md", "--format", "sarif", "--json"])).toEqual({
      code: 2,
      stdout: "",
      stderr: "decay-contract: --json cannot be combined with --format sarif (see decay-contract --help)\n",
    });
    expect((await exec(["check", "a.md", "--plan", "x", "--plan", "y"])).stderr).toBe(
      "decay-contract: --plan was given more than once (see decay-contract --help)\n",
    );
    expect((await exec(["check", "missing.md", "--format", "sarif"])).stdout).toBe("");
    expect((await exec(["--version"])).stdout).toMatch(/^decay-contract \d+\.\d+\.\d+\n$/);
  });
});
