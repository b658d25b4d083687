// --include-optional (includeOptional) makes an optional stage part of the run: one with no
// acceptance row is refused before anything is spent (CLI and library alike), never reported
// green with nothing run; left out, it is skipped as before. And a stage with zero rows is never
// green anywhere else: the verification pass and the stage loop fail closed on it.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Contract } from "@decay/contract";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../test-utils/tmp.js";
import { type AgentRequest, CLI_FAULT_SCHEMA_ID, type ExecFault, RunReport, runPlan, scriptTable, verifyContract } from "../src/index.js";
import { depsOf, loopStages } from "../src/run/run-plan.js";
import { newState } from "../src/run/state.js";
import { verifyPass } from "../src/run/verify.js";
import { agentFlag, decay } from "./cli-process.js";
import { contractOf, fixtureRepo, git, makeRepo, nodeOptions, run } from "./harness.js";

/** Stage 1 passes at once; Stage 2 is optional and has no acceptance row. */
const PLAN = "# Plan: x\n\n## 6. Recommendation (staged)\n\n### Stage 1: thing\n\nAcceptance: `true` exits 0\n\n### Stage 2 (optional): cache\n\nDo a thing.\n";
const REFUSAL =
  "the contract's self-check refuses to start: stage Stage 2 (line 9, S2) is optional, the run includes optional stages (includeOptional, --include-optional), and has no acceptance row: it would be green by default";

/** Where a repository stands: branch, HEAD, and whether anything is uncommitted or a workspace exists. */
const standing = (repo: string) => ({
  branch: git(repo, "branch", "--show-current"),
  head: git(repo, "rev-parse", "HEAD"),
  status: git(repo, "status", "--porcelain", "--ignored"),
  workspace: existsSync(join(repo, ".plan-runs")),
});

/** An agent script that records every request and answers nothing. */
function recorder(): { calls: string[]; script: (r: AgentRequest) => undefined } {
  const calls: string[] = [];
  return { calls, script: (r) => void calls.push(`${r.stage} ${r.role}`) };
}

/** The fixture repository with `text` committed as `docs/<name>.plan.md`, and an agent script that answers nothing. */
async function repoWithPlan(name: string, text: string): Promise<{ repo: string; script: string }> {
  const repo = await fixtureRepo();
  writeFileSync(join(repo, `docs/${name}.plan.md`), text);
  git(repo, "add", "-A");
  git(repo, "commit", "-qm", "plan");
  const script = join(await tempDir(), "empty.json");
  writeFileSync(script, "{}");
  return { repo, script };
}

describe("decay with --include-optional and an optional stage with no acceptance row", () => {
  it("run, preflight and verify exit 2 naming the stage, before any branch switch, commit or workspace", async () => {
    const { repo, script } = await repoWithPlan("op", PLAN);
    const before = standing(repo);
    for (const args of [
      ["run", "docs/op.plan.md", "--include-optional", "--agent", agentFlag(script)],
      ["preflight", "docs/op.plan.md", "--include-optional"],
      ["verify", "docs/op.plan.md", "--include-optional", "--json"],
    ]) {
      const r = await decay(args, repo);
      expect(r.code, args[0]).toBe(2);
      // A fault is never a verdict: nothing on stdout, or under --json the fault object alone.
      expect(r.stdout, args[0]).toBe(
        args.includes("--json")
          ? `${JSON.stringify({ $schema: CLI_FAULT_SCHEMA_ID, version: 1, fault: { code: "exec", message: r.stderr.slice(7, -1), cause: "self-check-refused" } })}\n`
          : "",
      );
      expect(r.stderr, args[0]).toContain(`decay: docs/op.plan.md: ${REFUSAL}`);
      expect(standing(repo), args[0]).toEqual(before);
    }
    expect(before).toMatchObject({ branch: "main", status: "", workspace: false });
  });

  it("without --include-optional the run leaves the optional stage out, as before, and is green", async () => {
    const { repo, script } = await repoWithPlan("op", PLAN);
    const r = await decay(["run", "docs/op.plan.md", "--agent", agentFlag(script)], repo);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("decay: green; green: S1\n");
    const report = RunReport.parse(JSON.parse(readFileSync(join(repo, ".plan-runs/op/report.json"), "utf8")));
    expect(report.stages.map((s) => [s.id, s.state, s.final])).toEqual([
      ["S1", "green-at-start", "green"],
      ["S2", "optional-skipped", "not-run"],
    ]);
  });
});

describe("runPlan and verifyContract with includeOptional", () => {
  it("refuse the bare optional stage (self-check-refused, naming S2) before calling the agent or changing the repository", async () => {
    const repo = await makeRepo({ "README.md": "r\n" });
    const contract = await contractOf(repo, PLAN, "op");
    const before = standing(repo);
    const { calls, script } = recorder();
    const ran = await runPlan(contract, nodeOptions(repo, script, { includeOptional: true }));
    const { agent: _agent, ...options } = nodeOptions(repo, script, { includeOptional: true });
    const verified = await verifyContract(contract, options);
    for (const result of [ran, verified]) {
      const fault = result._unsafeUnwrapErr();
      expect(fault.code).toBe("self-check-refused");
      const findings = fault.code === "self-check-refused" ? fault.findings : [];
      expect(findings.map((f) => [f.code, f.severity, f.stage])).toEqual([["no-acceptance", "refuse", "S2"]]);
    }
    expect(calls).toEqual([]);
    expect(standing(repo)).toEqual(before);
  });

  it("without it, skip the optional stage as before: the run is green on S1 alone, verify sees S1 alone", async () => {
    const repo = await makeRepo({ "README.md": "r\n" });
    const contract = await contractOf(repo, PLAN, "op");
    const { calls, script } = recorder();
    const report = await run(contract, nodeOptions(repo, script));
    expect(report.status).toBe("green");
    expect(report.stages.map((s) => [s.id, s.state, s.final])).toEqual([
      ["S1", "green-at-start", "green"],
      ["S2", "optional-skipped", "not-run"],
    ]);
    expect(calls).toEqual([]);
    const { agent: _agent, ...options } = nodeOptions(repo, script);
    expect((await verifyContract(contract, options))._unsafeUnwrap().green).toEqual(["S1"]);
  });
});

describe("a stage with zero rows is never green, even past the self-check", () => {
  /** A contract the self-check would refuse (S1 required, no row), built by hand to reach the layers below it. */
  const bare = (base: Contract): Contract => ({ ...base, stages: base.stages.map((s) => ({ ...s, acceptance: [], optional: false })) });

  it("a verification pass over it is the fault stage-without-acceptance, before a clean room is opened", async () => {
    const repo = await makeRepo({ "README.md": "r\n" });
    const contract = bare(await contractOf(repo, PLAN, "op"));
    const d = depsOf(contract, nodeOptions(repo, scriptTable({})))._unsafeUnwrap();
    const commit = git(repo, "rev-parse", "HEAD");
    const pass = await verifyPass(d, {
      kind: "preflight",
      commit,
      ledger: d.paths.ledger,
      stages: contract.stages.slice(0, 1),
      attempt: null,
      room: "preflight",
    });
    expect(pass._unsafeUnwrapErr()).toEqual({ code: "stage-without-acceptance", stage: "S1" } satisfies ExecFault);
    expect(existsSync(join(repo, ".plan-runs"))).toBe(false);
  });

  it("the stage loop never takes a green preflight verdict for it as green at the start, nor asks the agent", async () => {
    const repo = await makeRepo({ "README.md": "r\n" });
    const contract = await contractOf(repo, PLAN, "op");
    const { calls, script } = recorder();
    const d = depsOf(contract, nodeOptions(repo, script, { includeOptional: true }))._unsafeUnwrap();
    const green = (ledger: string) => ({ green: true, ledger, failing: [], signature: null });
    const loops = await loopStages(d, newState(), { S1: green("l/S1.md"), S2: green("l/S2.md") });
    expect(loops._unsafeUnwrapErr()).toEqual({ code: "stage-without-acceptance", stage: "S2" } satisfies ExecFault);
    expect(calls).toEqual([]);
  });
});

describe("a plan whose every stage is optional", () => {
  /** One optional stage with a row that fails until the work is done. */
  const ALL_OPTIONAL = "# Plan: x\n\n## 6. Recommendation (staged)\n\n### Stage 1 (optional): sum\n\nAcceptance: `test -f done.txt` exits 0\n";

  it("without --include-optional: run, preflight and verify refuse it (nothing-verified), never a green that verified nothing", async () => {
    const { repo, script } = await repoWithPlan("all", ALL_OPTIONAL);
    const before = standing(repo);
    for (const args of [
      ["run", "docs/all.plan.md", "--agent", agentFlag(script)],
      ["preflight", "docs/all.plan.md"],
      ["verify", "docs/all.plan.md"],
    ]) {
      const r = await decay(args, repo);
      expect(r.code, args[0]).toBe(2);
      expect(r.stdout, args[0]).toBe("");
      expect(r.stderr, args[0]).toContain("every stage is optional and the run leaves optional stages out, so it would verify nothing");
      expect(standing(repo), args[0]).toEqual(before);
    }
  });

  it("with --include-optional the stage is part of the run: preflight judges it (red here, exit 1)", async () => {
    const { repo } = await repoWithPlan("all", ALL_OPTIONAL);
    const r = await decay(["preflight", "docs/all.plan.md", "--include-optional"], repo);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("S1 red");
    expect(r.stdout).toContain("not green: no stage is green\n");
  });
});
