// Agents that use git themselves during a call: commit, switch branches, rewrite history. The run
// must cover their commits with the same checks as its own, and never commit anywhere but plan/<slug>.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type Agent, runPlan, scriptTable } from "../src/index.js";
import { contractOf, git, makeRepo, nodeOptions, planOf, run, writeFiles } from "./harness.js";

const CHECK = "grep -q alpha src/a.txt\n";
const PLAN = planOf([["a", ["`sh test/check.sh` exits 0"]]]);
// Execute writes the wrong word; the fix is asked to correct it.
const SCRIPT = scriptTable({ "S1 execute": { edit: { "src/a.txt": "wrong\n" } } });

/** An agent whose `role` calls first do `act` in the repository (real git), then reply as the script says. */
function agentThat(repo: string, role: keyof Agent, act: (dir: string) => void): Agent {
  const base = nodeOptions(repo, SCRIPT).agent;
  const wrap = async <T>(call: (r: T) => Promise<unknown>, r: T) => (act(repo), call(r));
  switch (role) {
    case "execute":
      return { ...base, execute: (r) => wrap(base.execute, r) };
    case "diagnose":
      return { ...base, diagnose: (r) => wrap(base.diagnose, r) };
    case "adjudicate":
      return { ...base, adjudicate: (r) => wrap(base.adjudicate, r) };
    case "fix":
      return { ...base, fix: (r) => wrap(base.fix, r) };
  }
}

/** A run of PLAN in a fresh repository whose `role` calls first do `act`: the repository and the run's result. */
async function runActing(role: keyof Agent, act: (dir: string) => void) {
  const repo = await makeRepo({ "test/check.sh": CHECK });
  const contract = await contractOf(repo, PLAN);
  return { repo, result: await runPlan(contract, nodeOptions(repo, SCRIPT, { agent: agentThat(repo, role, act) })) };
}

/** The run ended with `fault`, and no commit on plan/demo matches `never` in its subject or its file names. */
function endedWith(ran: Awaited<ReturnType<typeof runActing>>, fault: Record<string, unknown>, never: RegExp): void {
  expect(ran.result.isErr() && ran.result.error).toMatchObject(fault);
  expect(git(ran.repo, "log", "--format=%s", "--name-only", "main..plan/demo")).not.toMatch(never);
}

/** Write files and commit them, as an agent would. */
function agentCommit(dir: string, files: Record<string, string>, message: string): void {
  writeFiles(dir, files);
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", message);
}

/** The HEAD a stage's fix started from: the execute commit of attempt 1. */
function executeCommit(repo: string): string {
  return git(repo, "log", "--format=%H", "--grep", "attempt 1 (execute)", "main..HEAD");
}

describe("an agent that makes its own commits during a fix", () => {
  it("a fix that commits a gutted test, then leaves a source edit: every commit since the pre-fix HEAD is reverted", async () => {
    const repo = await makeRepo({ "test/check.sh": CHECK });
    const contract = await contractOf(repo, PLAN);
    const agent = agentThat(repo, "fix", (dir) => {
      agentCommit(dir, { "test/check.sh": "exit 0\n" }, "agent: tidy tests");
      agentCommit(dir, { "notes.txt": "n\n" }, "agent: notes");
      writeFiles(dir, { "src/a.txt": "alpha\n" });
    });
    const report = await run(contract, nodeOptions(repo, SCRIPT, { agent }));
    const s1 = report.stages[0];
    expect(s1?.state).toBe("escalated");
    expect(s1?.final).toBe("red");
    expect(s1?.refused_fixes[0]?.diverged.join("\n")).toContain("test/check.sh");
    expect(s1?.refused_fixes[0]?.commit).toBe(git(repo, "rev-parse", "HEAD^"));
    // Nothing of the fix stays: HEAD's tree is the pre-fix HEAD's, the test is intact on disk too.
    expect(git(repo, "rev-parse", "HEAD^{tree}")).toBe(git(repo, "rev-parse", `${executeCommit(repo)}^{tree}`));
    expect(readFileSync(join(repo, "test/check.sh"), "utf8")).toBe(CHECK);
    expect(git(repo, "status", "--porcelain")).toBe("");
  });

  it("a fix that commits a gutted test and leaves a pinned file changed: set aside, and its commit reverted too", async () => {
    const repo = await makeRepo({ "test/check.sh": CHECK, "test/other.sh": "true\n" });
    const contract = await contractOf(repo, PLAN);
    const agent = agentThat(repo, "fix", (dir) => {
      agentCommit(dir, { "test/check.sh": "exit 0\n" }, "agent: tidy tests");
      writeFiles(dir, { "test/other.sh": "false\n", "src/a.txt": "alpha\n" });
    });
    const report = await run(contract, nodeOptions(repo, SCRIPT, { agent }));
    expect(report.stages[0]?.state).toBe("escalated");
    expect(report.stages[0]?.refused_fixes[0]?.diverged.join("\n")).toContain("test/other.sh");
    expect(git(repo, "rev-parse", "HEAD^{tree}")).toBe(git(repo, "rev-parse", `${executeCommit(repo)}^{tree}`));
    expect(git(repo, "show", "HEAD:test/check.sh")).toBe(CHECK.trim());
    expect(git(repo, "stash", "list")).toContain("refused fix");
  });

  it("a fix whose own commit adds a test file: refused, the surface compared between the pre-fix HEAD and the result", async () => {
    const repo = await makeRepo({ "test/check.sh": CHECK });
    const contract = await contractOf(repo, PLAN);
    const agent = agentThat(repo, "fix", (dir) => agentCommit(dir, { "src/a.txt": "alpha\n", "test/extra.test.sh": "exit 0\n" }, "agent: fix"));
    const report = await run(contract, nodeOptions(repo, SCRIPT, { agent }));
    expect(report.stages[0]?.state).toBe("escalated");
    expect(report.stages[0]?.refused_fixes[0]?.diverged).toEqual([
      expect.stringMatching(/^test\/extra\.test\.sh: on the acceptance surface, changed between [0-9a-f]{12} and [0-9a-f]{12}$/),
    ]);
    expect(git(repo, "ls-tree", "-r", "--name-only", "HEAD")).not.toContain("test/extra.test.sh");
  });

  it("a fix that resets the branch back past what the run verified is a fault, not a verdict", async () => {
    const repo = await makeRepo({ "test/check.sh": CHECK });
    const contract = await contractOf(repo, PLAN);
    const agent = agentThat(repo, "fix", (dir) => git(dir, "reset", "-q", "--hard", "HEAD~1"));
    const result = await runPlan(contract, nodeOptions(repo, SCRIPT, { agent }));
    expect(result.isErr() && result.error).toMatchObject({ code: "history-rewritten", branch: "plan/demo", after: "the fix call S1/a2/fix/t1" });
  });
});

describe("an agent whose commit messages carry the run's own step markers", () => {
  it("an execute commit marked as attempt 2's commit step does not hide the fix's test rewrite", async () => {
    const repo = await makeRepo({ "test/check.sh": CHECK });
    const contract = await contractOf(repo, PLAN);
    const both: Agent = {
      ...agentThat(repo, "execute", (dir) => agentCommit(dir, { "notes.txt": "n\n" }, "agent: notes\n\nDecay-Step: demo/S1/a2/commit")),
      fix: agentThat(repo, "fix", (dir) => agentCommit(dir, { "test/check.sh": "exit 0\n" }, "agent: tweak")).fix,
    };
    const report = await run(contract, nodeOptions(repo, SCRIPT, { agent: both }));
    expect(report.stages[0]?.state).toBe("escalated");
    expect(report.stages[0]?.final).toBe("red");
    expect(report.stages[0]?.refused_fixes[0]?.diverged.join("\n")).toContain("test/check.sh");
    expect(git(repo, "show", "HEAD:test/check.sh")).toBe(CHECK.trim());
  });

  it("an execute commit marked as the revert of attempt 1 is reverted all the same", async () => {
    const repo = await makeRepo({ "test/check.sh": CHECK });
    const contract = await contractOf(repo, PLAN);
    const agent = agentThat(repo, "execute", (dir) => agentCommit(dir, { "test/check.sh": "exit 0\n" }, "agent: tidy\n\nDecay-Step: demo/S1/a1/revert"));
    const report = await run(contract, nodeOptions(repo, SCRIPT, { agent }));
    expect(report.stages[0]?.state).not.toBe("green");
    expect(git(repo, "show", "HEAD:test/check.sh")).toBe(CHECK.trim());
    // The revert named in the log is the run's own commit, not the agent's.
    expect(git(repo, "log", "-1", "--format=%s", "HEAD")).toMatch(/^decay\(demo\): revert /);
  });
});

describe("an agent that switches branches during a call", () => {
  it("an execute that checks out main: a fault naming both branches, and no commit on main", async () => {
    const repo = await makeRepo({ "test/check.sh": CHECK });
    const contract = await contractOf(repo, PLAN);
    const mainBefore = git(repo, "rev-parse", "main");
    const agent = agentThat(repo, "execute", (dir) => git(dir, "checkout", "-q", "main"));
    const result = await runPlan(contract, nodeOptions(repo, SCRIPT, { agent }));
    expect(result.isErr() && result.error).toEqual({
      code: "branch-switched",
      expected: "plan/demo",
      actual: "main",
      after: "the execute call S1/a1/execute/t1",
    });
    expect(git(repo, "rev-parse", "main")).toBe(mainBefore);
    expect(git(repo, "log", "--format=%s", "main..plan/demo")).not.toContain("(execute)");
  });

  it("a fix that detaches HEAD: a fault, and no commit made", async () => {
    const repo = await makeRepo({ "test/check.sh": CHECK });
    const contract = await contractOf(repo, PLAN);
    const agent = agentThat(repo, "fix", (dir) => (writeFiles(dir, { "src/a.txt": "alpha\n" }), git(dir, "checkout", "-q", "--detach")));
    const result = await runPlan(contract, nodeOptions(repo, SCRIPT, { agent }));
    expect(result.isErr() && result.error).toMatchObject({ code: "branch-switched", expected: "plan/demo", actual: null });
    expect(git(repo, "log", "--format=%s", "main..plan/demo")).not.toContain("(fix)");
  });
});

describe("an agent that writes during a call that only reads", () => {
  it("a diagnose that edits the tree: a fault naming the call and the path, never committed as the fix's work", async () => {
    const ran = await runActing("diagnose", (dir) => writeFiles(dir, { "src/a.txt": "alpha\n" }));
    const after = "the diagnose call S1/a1/diagnose/what-changed/t1";
    endedWith(ran, { code: "read-only-call-wrote", after, paths: ["src/a.txt"], head: null }, /\(fix\)/);
  });

  it("an adjudicate that commits: a fault naming the call and the new HEAD", async () => {
    const ran = await runActing("adjudicate", (dir) => agentCommit(dir, { "src/a.txt": "alpha\n" }, "agent: a fix of its own"));
    const head = git(ran.repo, "rev-parse", "HEAD");
    endedWith(ran, { code: "read-only-call-wrote", after: "the adjudicate call S1/a1/adjudicate/t1", paths: [], head }, /\(fix\)/);
  });
});

describe("an agent that makes the run's workspace committable", () => {
  it("an execute that empties .gitignore: a fault naming the workspace paths, and no commit of them", async () => {
    const ran = await runActing("execute", (dir) => writeFiles(dir, { ".gitignore": "" }));
    const paths = expect.arrayContaining([".plan-runs/demo/contract.md", ".plan-runs/demo/plan.txt"]);
    endedWith(ran, { code: "workspace-unignored", after: "the execute call of S1 (attempt 1)", paths, commits: [] }, /^\.plan-runs\//m);
  });

  it("a fix that force-adds the workspace in a commit of its own: a fault naming that commit", async () => {
    const ran = await runActing("fix", (dir) => {
      git(dir, "add", "-f", ".plan-runs");
      git(dir, "commit", "-q", "-m", "agent: keep the ledgers");
    });
    const own = git(ran.repo, "log", "--format=%H", "--grep", "agent: keep the ledgers", "main..plan/demo");
    expect(ran.result.isErr() && ran.result.error).toEqual({ code: "workspace-unignored", after: "the fix call of S1 (attempt 2)", paths: [], commits: [own] });
  });
});
