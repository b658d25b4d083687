import { describe, expect, test } from "vitest";
import { junitCases, sarifProblems } from "../../../test-utils/formats.js";
import { cli, REPO } from "./run-cli.js";

// The built plan-decay, run as CI runs it (from the repository root), in each CI format.

const G = "fixtures/gate";
const PLAN = `${G}/batch-plan.assumptions.tsv`;

describe("plan-decay --format sarif|junit|github (built bin)", () => {
  test("sarif: a valid SARIF 2.1.0 log, one result per diverged row at its line of the plan; exit 1", async () => {
    const r = await cli(["--root", `${G}/plan-decayed`, "--format", "sarif", PLAN]);
    expect([r.status, r.stderr]).toEqual([1, ""]);
    expect(sarifProblems(r.stdout)).toEqual([]);
    const results = JSON.parse(r.stdout).runs[0].results;
    expect(
      results.map((x: { locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }[] }) => {
        const at = x.locations[0]?.physicalLocation;
        return `${at?.artifactLocation.uri}:${at?.region.startLine}`;
      }),
    ).toEqual([6, 7, 8, 9].map((n) => `${PLAN}:${n}`));
  });

  test("sarif from a subdirectory still names the plan from the repository root", async () => {
    const r = await cli(["--root", "gate/plan-decayed", "--format=sarif", "gate/batch-plan.assumptions.tsv"], { cwd: `${REPO}fixtures` });
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout).runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri).toBe(PLAN);
  });

  test("junit: a test case per row, failures for the diverged ones; a plan that holds has none, exit 0", async () => {
    const red = await cli(["--root", `${G}/plan-decayed`, "--format", "junit", PLAN]);
    expect(red.status).toBe(1);
    const cases = junitCases(red.stdout);
    expect(cases).toHaveLength(6);
    expect(cases.filter((c) => c.children.some((f) => f.name === "failure"))).toHaveLength(4);
    const green = await cli(["--root", `${G}/plan-holds`, "--format", "junit", PLAN]);
    expect(green.status).toBe(0);
    expect(junitCases(green.stdout).every((c) => c.children.length === 0)).toBe(true);
  });

  test("github: annotations titled with kind and path, then the human report", async () => {
    const r = await cli(["--root", `${G}/plan-decayed`, "--format", "github", PLAN]);
    expect(r.status).toBe(1);
    expect(r.stdout.split("\n")[0]).toMatch(new RegExp(`^::error file=${PLAN},line=6,title=[a-z]+ [^,:]+::`));
  });

  test("a fault under sarif or junit prints no verdict document: stderr only, exit 2", async () => {
    const r = await cli(["--root", `${G}/plan-holds`, "--format", "sarif", `${G}/malformed/dotdot.tsv`]);
    expect([r.status, r.stdout]).toEqual([2, ""]);
    expect(r.stderr).toMatch(/^error: line 1: /);
    const bad = await cli(["--root", `${G}/plan-holds`, "--format", "xml", PLAN]);
    expect([bad.status, bad.stderr]).toEqual([2, 'error: --format "xml" is not accepted: expected github, sarif, junit\n']);
    const both = await cli(["--root", `${G}/plan-holds`, "--json", "--format", "junit", PLAN]);
    expect([both.status, both.stderr]).toEqual([2, "error: --json cannot be combined with --format junit\n"]);
  });

  test("the shared usage messages and --version", async () => {
    expect((await cli(["--root", "a", "--root", "b", PLAN])).stderr).toBe("error: --root was given more than once (see plan-decay --help)\n");
    expect((await cli(["--root", `${G}/plan-holds`, "--nope", PLAN])).stderr).toBe("error: unknown option --nope (see plan-decay --help)\n");
    expect((await cli(["--root"])).stderr).toBe("error: --root needs a value (see plan-decay --help)\n");
    expect((await cli(["--root", "t", PLAN, "extra"])).stderr).toBe('error: unexpected argument "extra" (see plan-decay --help)\n');
    expect((await cli(["--version"])).stdout).toMatch(/^plan-decay \d+\.\d+\.\d+\n$/);
  });
});
