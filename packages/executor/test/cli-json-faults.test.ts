// `decay … --json` on a fault (the built bin): stdout ends with one fault object, valid against the
// shipped cli-fault.schema.json, whose message is the sentence stderr carries; exit 2. Each
// command that takes --json is covered, and so are a bad flag after --json and a fault mid-run.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { outputProblems } from "../../../test-utils/json-schema.js";
import { tempDir } from "../../../test-utils/tmp.js";
import { CLI_FAULT_SCHEMA_ID } from "../src/index.js";
import { agentFlag, decay, type Ran } from "./cli-process.js";
import { fixtureRepo } from "./harness.js";

const SCHEMAS = fileURLToPath(new URL("../schemas", import.meta.url));

let repo: string;
beforeAll(async () => {
  repo = await fixtureRepo();
  mkdirSync(join(repo, "ws"));
  writeFileSync(join(repo, "ws/REPORT.md"), "# Run report\n");
  writeFileSync(join(repo, "ws/report.json"), '{"status":"gre');
});

/** The fault object on the last line of stdout, checked against stderr's one line and the schema. */
function faultOf(r: Ran): { code: string; message: string; cause?: string } {
  expect(r.code).toBe(2);
  const lines = r.stdout.split("\n");
  expect(lines.pop()).toBe("");
  const last = JSON.parse(lines.at(-1) ?? "") as { fault: { code: string; message: string; cause?: string } };
  expect(Object.keys(last)).toEqual(["$schema", "version", "fault"]);
  expect(last).toMatchObject({ $schema: CLI_FAULT_SCHEMA_ID, version: 1 });
  expect(outputProblems(last, SCHEMAS)).toEqual([]);
  expect(r.stderr).toBe(`decay: ${last.fault.message}\n`);
  return last.fault;
}

describe("decay --json: a fault is one JSON object on stdout, exit 2", () => {
  it.each([
    ["run: a missing plan", ["run", "docs/nothere.plan.md", "--agent", "node", "--json"], "read-failed", /^docs\/nothere\.plan\.md: cannot read: /],
    ["preflight: a bad flag after --json", ["preflight", "--json", "--nope", "docs/stats.plan.md"], "usage", /^unknown option --nope /],
    ["verify: a bad value", ["verify", "docs/stats.plan.md", "--json", "--clean-room", "docker"], "usage", /^--clean-room must be clone/],
    ["report: a report.json cut short", ["report", "ws", "--json"], "report-invalid", /^ws\/report\.json: not a run report: not JSON/],
    ["enqueue: no --database-url", ["enqueue", "docs/stats.plan.md", "--json"], "usage", /--database-url/],
    ["runs: an unknown flag", ["runs", "--json", "--nope"], "usage", /^unknown option --nope /],
    ["a command that takes no --json, asked before it", ["--json", "journal", "show", "p.md"], "usage", /options of decay journal go after it/],
  ])("%s", async (_name, args, code, message) => {
    const r = await decay(args, repo);
    const fault = faultOf(r);
    expect(fault.code).toBe(code);
    expect(fault.message).toMatch(message);
    // Only a family of faults (exec, contract-fault, dbos) names the fault underneath.
    expect(fault.cause).toBeUndefined();
    expect(r.stdout.split("\n")).toHaveLength(2);
  });

  it("a plan its self-check refuses (run): the run's fault, the plan named in the message", async () => {
    const plan = join(await tempDir(), "clone.plan.md");
    writeFileSync(
      plan,
      "# P\n\n## 6. Recommendation (staged)\n\n### Stage 1: fetch\n\nFetch.\n\nAcceptance: `git clone https://example.invalid/x y` exits 0\n",
    );
    const fault = faultOf(await decay(["run", plan, "--agent", agentFlag(), "--json"], repo));
    expect([fault.code, fault.cause]).toEqual(["exec", "self-check-refused"]);
    expect(fault.message).toContain(`${plan}: the contract's self-check refuses to start`);
  });

  it("a fault after the run began (a dirty working tree): the events, then the fault as the last line", async () => {
    const dirty = await fixtureRepo();
    writeFileSync(join(dirty, "src/stats.mjs"), "// edited by hand\n");
    const r = await decay(["run", "docs/stats.plan.md", "--agent", agentFlag(), "--json"], dirty);
    const fault = faultOf(r);
    expect([fault.code, fault.cause]).toEqual(["exec", "dirty-tree"]);
    for (const line of r.stdout.trimEnd().split("\n")) expect(outputProblems(JSON.parse(line), SCHEMAS)).toEqual([]);
  });

  it("--json after -- is an argument, not the flag: no JSON", async () => {
    const r = await decay(["preflight", "--", "--json"], repo);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^decay: --json: cannot read: /);
  });

  it("without --json a fault prints nothing on stdout", async () => {
    const r = await decay(["verify", "docs/stats.plan.md", "--clean-room", "docker"], repo);
    expect(r).toMatchObject({ code: 2, stdout: "" });
  });
});
