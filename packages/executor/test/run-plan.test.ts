import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fifo } from "../../../test-utils/hostile.js";
import { type AgentRequest, readLedger, RunEvent, RunReport, runPlan, scriptTable, verifyContract } from "../src/index.js";
import { contractOf, git, makeRepo, nodeOptions, planOf, run, writeFiles } from "./harness.js";

// Acceptance reads the work through a committed script, so the work itself is not on the pinned surface.
const A_IS_ALPHA = "`sh bin/show.sh a` exits 0 and prints `alpha`";
const B_IS_BETA = "`sh bin/show.sh b` exits 0 and prints `beta`";
// Stage a is judged by a committed test script, test/check.sh; stage b depends on it.
const CHECKED_THEN_B = planOf([
  ["a", ["`sh test/check.sh` exits 0"]],
  ["b", [B_IS_BETA]],
]);

describe("runPlan end to end (real git, clean rooms, scripted agent)", () => {
  it("runs every stage green and verifies them again in a fresh room of the final HEAD", async () => {
    const repo = await makeRepo({ "README.md": "r\n" });
    const contract = await contractOf(
      repo,
      planOf([
        ["a", [A_IS_ALPHA]],
        ["b", [B_IS_BETA]],
      ]),
    );
    const script = scriptTable({ "S1 execute": { edit: { "src/a.txt": "alpha\n" } }, "S2 execute": { edit: { "src/b.txt": "beta\n" } } });
    const report = await run(contract, nodeOptions(repo, script));
    expect(RunReport.parse(report)).toEqual(report);
    expect(report.status).toBe("green");
    expect(report.end.green).toEqual(["S1", "S2"]);
    expect(report.start.green).toEqual([]);
    expect(report.stages.map((s) => s.state)).toEqual(["green", "green"]);
    // Two stage commits and the .gitignore commit, on plan/demo; main untouched.
    expect(report.commits).toHaveLength(3);
    expect(git(repo, "branch", "--show-current")).toBe("plan/demo");
    expect(git(repo, "ls-tree", "-r", "--name-only", "main")).not.toContain("src/a.txt");
    const final = readFileSync(join(repo, report.stages[0]?.verified?.ledger ?? ""), "utf8");
    expect(readLedger(final)).toMatchObject({ kind: "final", stage: "S1", green: true, commit: report.end.commit });
    expect(readFileSync(join(repo, ".plan-runs/demo/REPORT.md"), "utf8")).toContain("Status: **green**");
    expect(existsSync(join(repo, ".plan-runs/demo/RESUME.md"))).toBe(false);
    expect(readFileSync(join(repo, ".gitignore"), "utf8")).toContain(".plan-runs/");
    expect(git(repo, "status", "--porcelain")).toBe("");
  });

  it("fixes a red stage through an admissible diagnosis, freezing the failure first", async () => {
    const repo = await makeRepo({ "README.md": "r\n" });
    const contract = await contractOf(repo, planOf([["a", [A_IS_ALPHA]]]));
    const calls: string[] = [];
    const table = scriptTable({ "S1 execute": { edit: { "src/a.txt": "alpah\n" } }, "S1 fix": { edit: { "src/a.txt": "alpha\n" } } });
    const script = (r: AgentRequest) => (calls.push(`${r.role}${r.role === "diagnose" ? `:${r.lens}` : ""}`), table(r));
    const report = await run(contract, nodeOptions(repo, script));
    expect(report.status).toBe("green");
    expect(calls).toEqual(["execute", "diagnose:what-changed", "diagnose:what-the-check-asserts", "diagnose:what-the-plan-forbade", "adjudicate", "fix"]);
    const s1 = report.stages[0];
    expect(s1?.attempts).toBe(2);
    expect(s1?.freeze).toEqual([".plan-runs/demo/freeze/S1-a1"]);
    const frozen = JSON.parse(readFileSync(join(repo, ".plan-runs/demo/freeze/S1-a1/freeze.json"), "utf8"));
    expect(frozen.failing[0]).toMatchObject({ id: "S1.1", stdout: "alpah\n" });
    expect(readFileSync(join(repo, ".plan-runs/demo/freeze/S1-a1/diff.patch"), "utf8")).toContain("+alpah");
    expect(report.cost.tokens).toMatchObject({ execute: 100, diagnose: 300, adjudicate: 100, fix: 100 });
  });

  it("rejects a fix that edits a test file while declaring it does not, sets it aside uncommitted and escalates; dependents do not start", async () => {
    const repo = await makeRepo({ "test/check.sh": "grep -q alpha src/a.txt\n" });
    const contract = await contractOf(repo, CHECKED_THEN_B);
    const script = scriptTable({
      "S1 execute": { edit: { "src/a.txt": "wrong\n" } },
      "S1 fix": { edit: { "test/check.sh": "exit 0\n" } },
      "S2 execute": { edit: { "src/b.txt": "beta\n" } },
    });
    const report = await run(contract, nodeOptions(repo, script));
    expect(report.status).toBe("incomplete");
    const [s1, s2] = report.stages;
    expect(s1?.state).toBe("escalated");
    expect(s1?.final).toBe("red");
    expect(s1?.refused_fixes).toHaveLength(1);
    expect(s1?.refused_fixes[0]?.diverged.join("\n")).toContain("test/check.sh");
    expect(s2?.state).toBe("not-started");
    expect(s2?.reason).toBe("not started: S1 not green");
    // The tampering never reached the branch: the test file is as it was, at HEAD and on disk.
    expect(readFileSync(join(repo, "test/check.sh"), "utf8")).toBe("grep -q alpha src/a.txt\n");
    expect(git(repo, "show", "HEAD:test/check.sh")).toBe("grep -q alpha src/a.txt");
    expect(
      git(repo, "log", "--format=%s", "main..HEAD")
        .split("\n")
        .filter((m) => m.includes("(fix)")),
    ).toEqual([]);
    expect(git(repo, "stash", "list")).toContain("refused fix");
    expect(readFileSync(join(repo, ".plan-runs/demo/REPORT.md"), "utf8")).toContain("pinned acceptance surface");
  });

  it("refuses an execute that rewrites the test its stage's acceptance runs: its commits are reverted and the stage escalates", async () => {
    const repo = await makeRepo({ "test/check.sh": "grep -q alpha src/a.txt\n", "test/old.test.sh": "exit 0\n" });
    const contract = await contractOf(repo, CHECKED_THEN_B);
    const script = scriptTable({
      "S1 execute": { edit: { "src/a.txt": "wrong\n", "test/check.sh": "exit 0\n", "test/old.test.sh": null } },
      "S2 execute": { edit: { "src/b.txt": "beta\n" } },
    });
    const report = await run(contract, nodeOptions(repo, script));
    expect(report.status).toBe("incomplete");
    const [s1, s2] = report.stages;
    expect(s1).toMatchObject({ state: "escalated", final: "red", attempts: 1 });
    expect(s1?.reason).toMatch(/^the execute changed the acceptance surface pinned at the stage's base \(2 files: /);
    expect(s1?.reason).toContain("test/check.sh: edited");
    expect(s1?.reason).toContain("test/old.test.sh: deleted");
    expect(s2?.state).toBe("not-started");
    // Nothing the execute did is left: HEAD's tree is the stage's base again, the work included.
    expect(git(repo, "show", "HEAD:test/check.sh")).toBe("grep -q alpha src/a.txt");
    expect(git(repo, "ls-tree", "-r", "--name-only", "HEAD")).toContain("test/old.test.sh");
    expect(git(repo, "ls-tree", "-r", "--name-only", "HEAD")).not.toContain("src/a.txt");
    expect(git(repo, "log", "-1", "--format=%s")).toContain("an execute that touched acceptance");
    expect(git(repo, "status", "--porcelain")).toBe("");
    expect(readFileSync(join(repo, ".plan-runs/demo/REPORT.md"), "utf8")).toContain("the execute changed the acceptance surface");
  });

  it("lets an execute add the tests its stage asks for and a dependency", async () => {
    const pkg = { name: "demo", private: true, scripts: { test: "sh bin/show.sh a | grep -q alpha && sh test/new.test.sh" } };
    const repo = await makeRepo({ "package.json": `${JSON.stringify(pkg)}\n` });
    const contract = await contractOf(repo, planOf([["a", ["`npm test` exits 0"]]]));
    const added = `${JSON.stringify({ ...pkg, dependencies: { left: "1.0.0" } })}\n`;
    const script = scriptTable({
      "S1 execute": { edit: { "src/a.txt": "alpha\n", "test/new.test.sh": "test -f src/a.txt\n", "package.json": added } },
    });
    const report = await run(contract, nodeOptions(repo, script));
    expect(report.status).toBe("green");
    expect(git(repo, "show", "HEAD:package.json")).toBe(added.trim());
    // The surface pinned at the base has no test the execute added; only the base's is written down.
    expect(readFileSync(join(repo, ".plan-runs/demo/freeze/S1-surface.tsv"), "utf8")).not.toContain("test/new.test.sh");
    expect(readdirSync(join(repo, ".plan-runs/demo/freeze"))).toEqual(["S1-surface.tsv"]);
  });

  it("holds a fix to the tests the execute added, though no record of that surface is written", async () => {
    const repo = await makeRepo({ "README.md": "r\n" });
    const contract = await contractOf(repo, planOf([["a", ["`sh test/new.test.sh` exits 0"]]]));
    const script = scriptTable({
      "S1 execute": { edit: { "src/a.txt": "alpah\n", "test/new.test.sh": "grep -q alpha src/a.txt\n" } },
      "S1 fix": { edit: { "test/new.test.sh": "exit 0\n" } },
    });
    const report = await run(contract, nodeOptions(repo, script));
    expect(report.stages[0]).toMatchObject({ state: "escalated", final: "red" });
    expect(report.stages[0]?.refused_fixes[0]?.diverged[0]).toContain("test/new.test.sh: changed by the fix before it was committed");
    expect(git(repo, "show", "HEAD:test/new.test.sh")).toBe("grep -q alpha src/a.txt");
  });

  it("refuses an execute that changes what `npm test` runs, the package.json scripts", async () => {
    const pkg = { name: "demo", private: true, scripts: { test: "sh bin/show.sh a | grep -q alpha" } };
    const repo = await makeRepo({ "package.json": `${JSON.stringify(pkg)}\n` });
    const contract = await contractOf(repo, planOf([["a", ["`npm test` exits 0"]]]));
    const relaxed = `${JSON.stringify({ ...pkg, scripts: { test: "echo ok" } })}\n`;
    const report = await run(contract, nodeOptions(repo, scriptTable({ "S1 execute": { edit: { "package.json": relaxed } } })));
    expect(report.stages[0]).toMatchObject({ state: "escalated", final: "red" });
    expect(report.stages[0]?.reason).toContain("package.json: its scripts changed");
    expect(git(repo, "show", "HEAD:package.json")).toBe(JSON.stringify(pkg));
  });

  it("refuses plan bytes that are not UTF-8 before anything is written", async () => {
    const repo = await makeRepo({ "README.md": "r\n" });
    const contract = await contractOf(repo, planOf([["a", [A_IS_ALPHA]]]));
    const result = await runPlan(contract, { ...nodeOptions(repo, scriptTable({})), planText: new Uint8Array([0x23, 0x20, 0xff, 0x0a]) });
    expect(result._unsafeUnwrapErr()).toEqual({ code: "workspace-io", path: "docs/demo.plan.md", reason: "is not UTF-8 text" });
    expect(existsSync(join(repo, ".plan-runs"))).toBe(false);
  });

  it("judges an execute by git, not by the pinned file in the workspace, which the execute can write", async () => {
    const repo = await makeRepo({ "test/check.sh": "grep -q alpha src/a.txt\n" });
    const contract = await contractOf(repo, planOf([["a", ["`sh test/check.sh` exits 0"]]]));
    const forged = "exists\ttest/check.sh\n";
    const script = scriptTable({
      "S1 execute": { edit: { "src/a.txt": "wrong\n", "test/check.sh": "exit 0\n", ".plan-runs/demo/freeze/S1-surface.tsv": forged } },
    });
    const report = await run(contract, nodeOptions(repo, script));
    expect(report.stages[0]).toMatchObject({ state: "escalated", final: "red", attempts: 1 });
    expect(report.stages[0]?.reason).toContain("(1 file: test/check.sh: edited)");
    expect(git(repo, "show", "HEAD:test/check.sh")).toBe("grep -q alpha src/a.txt");
  });

  it("runs a stage whose surface is empty (a plan kept outside the repository, acceptance naming no tracked file)", async () => {
    const repo = await makeRepo({ "README.md": "r\n" });
    const contract = await contractOf(repo, planOf([["a", ["`cat src/*.txt` exits 0 and prints `alpha`"]]]), "demo", false);
    const script = scriptTable({ "S1 execute": { edit: { "src/a.txt": "alpah\n" } }, "S1 fix": { edit: { "src/a.txt": "alpha\n" } } });
    const report = await run(contract, nodeOptions(repo, script));
    expect(report.status).toBe("green");
    expect(report.stages[0]?.attempts).toBe(2);
    expect(readFileSync(join(repo, ".plan-runs/demo/freeze/S1-surface.tsv"), "utf8")).toMatch(/^# the pinned acceptance surface is empty/);
  });

  it("lets an execute add dependencies and workspace packages to a manifest, nothing else of it, and no pinned fixture's", async () => {
    const pkg = { name: "demo", private: true, workspaces: ["packages/*", "tools"], scripts: { test: "sh test/check.sh" } };
    const fixture = `${JSON.stringify({ name: "app", private: true })}\n`;
    const files = { "package.json": `${JSON.stringify(pkg)}\n`, "test/check.sh": "grep -q alpha src/a.txt\n", "test/fixtures/app/package.json": fixture };
    const plan = planOf([["a", ["`npm test` exits 0"]]]);
    const grown = { ...pkg, workspaces: ["packages/*", "tools", "extra"], devDependencies: { left: "1.0.0" } };
    const edits: Record<string, string>[] = [
      { "package.json": `${JSON.stringify(grown, null, 2)}\n` },
      { "package.json": `${JSON.stringify({ ...pkg, workspaces: ["packages/*"] })}\n` },
      { "package.json": `${JSON.stringify({ ...grown, workspaces: [...grown.workspaces, "!packages/core"] })}\n` },
      { "package.json": `${JSON.stringify({ ...pkg, type: "module" })}\n` },
      { "package.json": "{ not json\n" },
      { "test/fixtures/app/package.json": `${JSON.stringify({ name: "app", private: true, dependencies: { left: "1.0.0" } })}\n` },
    ];
    const reasons = await Promise.all(
      edits.map(async (edit) => {
        const repo = await makeRepo(files);
        const contract = await contractOf(repo, plan);
        const report = await run(contract, nodeOptions(repo, scriptTable({ "S1 execute": { edit: { "src/a.txt": "alpha\n", ...edit } } })));
        return report.stages[0]?.state === "green" ? "green" : report.stages[0]?.reason;
      }),
    );
    expect(reasons[0]).toBe("green");
    expect(reasons[1]).toContain("package.json: its workspaces dropped tools");
    expect(reasons[2]).toContain("package.json: its workspaces exclude !packages/core");
    expect(reasons[3]).toContain("package.json: its type changed");
    expect(reasons[4]).toMatch(/package\.json: edited \(no JSON object at [0-9a-f]{12}\)/);
    expect(reasons[5]).toContain("test/fixtures/app/package.json: edited");
  }, 120_000);

  it("refuses an execute that edits the workspace file a workspace-wide run reads", async () => {
    // Red at the start whether or not pnpm is installed here (with no package, `pnpm -r test` exits 0).
    const repo = await makeRepo({ "pnpm-workspace.yaml": "packages:\n  - packages/*\n", "package.json": '{"name":"demo","private":true}\n' });
    const contract = await contractOf(repo, planOf([["a", ["`pnpm -r test` exits 0 and prints `all ready`"]]]));
    const script = scriptTable({ "S1 execute": { edit: { "pnpm-workspace.yaml": "packages:\n  - packages/*\n  - '!packages/core'\n" } } });
    const report = await run(contract, nodeOptions(repo, script));
    expect(report.stages[0], JSON.stringify(report.stages[0])).toMatchObject({ state: "escalated" });
    expect(report.stages[0]?.reason).toContain("(1 file: pnpm-workspace.yaml: edited)");
  });

  it("with executeMayEditSurface, an execute's edits to pinned tests stand and only fixes are held to the surface", async () => {
    const repo = await makeRepo({ "test/check.sh": "grep -q alpha src/a.txt\n" });
    const contract = await contractOf(repo, planOf([["a", ["`sh test/check.sh` exits 0"]]]));
    const rewritten = "grep -q alpha src/a.txt && test -f src/a.txt\n";
    const script = scriptTable({ "S1 execute": { edit: { "src/a.txt": "alpha\n", "test/check.sh": rewritten } } });
    const report = await run(contract, nodeOptions(repo, script, { executeMayEditSurface: true }));
    expect(report.status).toBe("green");
    expect(git(repo, "show", "HEAD:test/check.sh")).toBe(rewritten.trim());
  });

  it("refuses a fix that rewrites the npm test script: package.json decides what `npm test` runs", async () => {
    const pkg = `${JSON.stringify({ name: "demo", private: true, scripts: { test: "sh bin/show.sh a | grep -q alpha" } })}\n`;
    const repo = await makeRepo({ "package.json": pkg });
    const contract = await contractOf(repo, planOf([["a", ["`npm test` exits 0"]]]));
    const relaxed = `${JSON.stringify({ name: "demo", private: true, scripts: { test: "echo ok" } })}\n`;
    const script = scriptTable({ "S1 execute": { edit: { "src/a.txt": "wrong\n" } }, "S1 fix": { edit: { "package.json": relaxed } } });
    const report = await run(contract, nodeOptions(repo, script));
    expect(report.status).toBe("incomplete");
    expect(report.stages[0]?.state).toBe("escalated");
    expect(report.stages[0]?.refused_fixes[0]?.diverged.join("\n")).toContain("package.json");
    expect(git(repo, "show", "HEAD:package.json")).toBe(pkg.trim());
  });

  it("refuses a fix that rewrites the workspace's contract.md, and writes the contract back", async () => {
    const repo = await makeRepo({ "README.md": "r\n" });
    const contract = await contractOf(repo, planOf([["a", [A_IS_ALPHA]]]));
    const script = scriptTable({ "S1 execute": { edit: { "src/a.txt": "no\n" } }, "S1 fix": { edit: { ".plan-runs/demo/contract.md": "relaxed\n" } } });
    const report = await run(contract, nodeOptions(repo, script));
    expect(report.stages[0]?.state).toBe("escalated");
    expect(report.stages[0]?.refused_fixes[0]?.diverged).toEqual([".plan-runs/demo/contract.md: the contract file was changed"]);
    expect(readFileSync(join(repo, ".plan-runs/demo/contract.md"), "utf8")).toContain("format: decay-contract/");
  });

  it("escalates when every diagnosis declares a fix that would touch acceptance", async () => {
    const repo = await makeRepo({ "README.md": "r\n" });
    const contract = await contractOf(repo, planOf([["a", [A_IS_ALPHA]]]));
    const script = scriptTable({
      "S1 execute": { edit: { "src/a.txt": "no\n" } },
      "S1 diagnose": { reply: { tokens: 5, cause: "the check is too strict", fix: "drop the prints", acceptance_effect: "relax" } },
      "S1 fix": { edit: { "src/a.txt": "alpha\n" } },
    });
    const report = await run(contract, nodeOptions(repo, script));
    expect(report.stages[0]?.state).toBe("escalated");
    expect(report.stages[0]?.refused_fixes.map((f) => f.lens)).toEqual(["what-changed", "what-the-check-asserts", "what-the-plan-forbade"]);
    expect(report.cost.tokens.fix).toBe(0);
  });

  it("stops a stage whose two attempts fail identically (the no-progress breaker)", async () => {
    const repo = await makeRepo({ "README.md": "r\n" });
    const contract = await contractOf(repo, planOf([["a", [A_IS_ALPHA]]]));
    const script = scriptTable({ "S1 execute": { edit: { "src/a.txt": "nope\n" } }, "S1 fix": { edit: { "src/a.txt": "nope\n" } } });
    const report = await run(contract, nodeOptions(repo, script, { attemptBudget: 5 }));
    expect(report.stages[0]?.state).toBe("no-progress");
    expect(report.stages[0]?.attempts).toBe(2);
  });

  it("stops a stage when the attempt budget is spent", async () => {
    const repo = await makeRepo({ "README.md": "r\n" });
    const contract = await contractOf(repo, planOf([["a", [A_IS_ALPHA]]]));
    const script = scriptTable({
      "S1 execute": { edit: { "src/a.txt": "v1\n" } },
      "S1 fix a2": { edit: { "src/a.txt": "v2\n" } },
      "S1 fix a3": { edit: { "src/a.txt": "v3\n" } },
      "S1 fix a4": { edit: { "src/a.txt": "alpha\n" } },
    });
    const report = await run(contract, nodeOptions(repo, script));
    expect(report.stages[0]?.state).toBe("budget-exhausted");
    expect(report.stages[0]?.attempts).toBe(3);
    expect(report.stages[0]?.freeze).toHaveLength(3);
    expect(report.cost.attempts).toBe(3);
  });

  it("parks with RESUME.md when the agent returns nothing, and a resumed run reaches the uninterrupted report", async () => {
    const plan = planOf([
      ["a", [A_IS_ALPHA]],
      ["b", [B_IS_BETA]],
    ]);
    const working = { "S1 execute": { edit: { "src/a.txt": "alpha\n" } }, "S2 execute": { edit: { "src/b.txt": "beta\n" } } };
    const straight = await makeRepo({ "README.md": "r\n" });
    const expected = await run(await contractOf(straight, plan), nodeOptions(straight, scriptTable(working)));

    const repo = await makeRepo({ "README.md": "r\n" });
    const contract = await contractOf(repo, plan);
    const parked = await run(contract, nodeOptions(repo, scriptTable({ ...working, "S2 execute": { nothing: true } })));
    expect(parked.status).toBe("parked");
    expect(parked.stages.map((s) => s.state)).toEqual(["green", "parked"]);
    expect(parked.cost.nothing_returned).toBe(3);
    const resume = readFileSync(join(repo, ".plan-runs/demo/RESUME.md"), "utf8");
    expect(resume).toContain("decay run docs/demo.plan.md");
    expect(resume).toContain("next: S2");

    git(repo, "switch", "-q", "main"); // a person comes back later, anywhere
    const resumed = await run(contract, nodeOptions(repo, scriptTable(working)));
    expect(resumed.status).toBe("green");
    expect(resumed.start.green).toEqual(["S1"]);
    expect(resumed.stages.map((s) => s.state)).toEqual(["green-at-start", "green"]);
    expect(resumed.end.green).toEqual(expected.end.green);
    expect(resumed.stages.map((s) => s.final)).toEqual(expected.stages.map((s) => s.final));
    expect(existsSync(join(repo, ".plan-runs/demo/RESUME.md"))).toBe(false);
  });

  it("does not see uncommitted work in the clean room: an ignored file the agent wrote leaves the stage red", async () => {
    const repo = await makeRepo({ ".gitignore": "build/\n" });
    const contract = await contractOf(repo, planOf([["a", ["`cat build/out.txt` exits 0 and prints `alpha`"]]]));
    const script = scriptTable({ execute: { edit: { "build/out.txt": "alpha\n" } }, fix: { edit: { "build/out.txt": "alpha\n" } } });
    const report = await run(contract, nodeOptions(repo, script));
    expect(readFileSync(join(repo, "build/out.txt"), "utf8")).toBe("alpha\n");
    expect(report.stages[0]?.final).toBe("red");
    expect(report.status).toBe("incomplete");
  });

  it("skips stages whose acceptance already passes at the start (preflight)", async () => {
    const repo = await makeRepo({ "src/a.txt": "alpha\n" });
    const contract = await contractOf(
      repo,
      planOf([
        ["a", [A_IS_ALPHA]],
        ["b", [B_IS_BETA]],
      ]),
    );
    const asked: string[] = [];
    const table = scriptTable({ "S2 execute": { edit: { "src/b.txt": "beta\n" } } });
    const report = await run(
      contract,
      nodeOptions(repo, (r) => (asked.push(`${r.stage} ${r.role}`), table(r))),
    );
    expect(report.start.green).toEqual(["S1"]);
    expect(report.stages.map((s) => s.state)).toEqual(["green-at-start", "green"]);
    expect(asked).toEqual(["S2 execute"]);
  });

  it("stops with stale-plan when the plan's assumptions diverge before stage 2", async () => {
    const repo = await makeRepo({ "plan.tsv": "absent\tsrc/b.txt\n" });
    const contract = await contractOf(
      repo,
      planOf([
        ["a", [A_IS_ALPHA]],
        ["b", [B_IS_BETA]],
      ]),
    );
    const script = scriptTable({ "S1 execute": { edit: { "src/a.txt": "alpha\n", "src/b.txt": "early\n" } } });
    const report = await run(contract, nodeOptions(repo, script, { assumptions: "plan.tsv" }));
    expect(report.status).toBe("stale-plan");
    expect(report.stale?.diverged.join("\n")).toContain("src/b.txt");
    expect(report.stages.map((s) => s.state)).toEqual(["green", "stopped"]);
    expect(readFileSync(join(repo, ".plan-runs/demo/REPORT.md"), "utf8")).toContain("re-plan from the tree as it is now");
  });

  // The assumptions file sits in the working tree the agents write to: the check before stage 2
  // must refuse what is there now, not block on it or read it whole.
  it.each([
    ["a FIFO (which would block a read forever)", (file: string) => (rmSync(file), fifo(file)), {}, /not a regular file/],
    ["a file past maxReadBytes", (file: string) => writeFileSync(file, "absent\tsrc/zz.txt\n".repeat(64)), { maxReadBytes: 512 }, /larger than 512 bytes/],
  ])("an assumptions file an agent turned into %s is a workspace-io fault before stage 2", async (_, plant, extra, reason) => {
    // Ignored, so the commit of stage 1 leaves it alone (git refuses to add a FIFO).
    const repo = await makeRepo({ ".gitignore": "plan.tsv\n", "plan.tsv": "absent\tsrc/zz.txt\n" });
    const contract = await contractOf(
      repo,
      planOf([
        ["a", [A_IS_ALPHA]],
        ["b", [B_IS_BETA]],
      ]),
    );
    const script = (request: AgentRequest) => {
      if (request.stage !== "S1" || request.role !== "execute") return undefined;
      plant(join(repo, "plan.tsv"));
      return { edit: { "src/a.txt": "alpha\n" } };
    };
    const result = await runPlan(contract, nodeOptions(repo, script, { assumptions: "plan.tsv", ...extra }));
    expect(result.isErr() && result.error).toMatchObject({ code: "workspace-io", path: join(repo, "plan.tsv"), reason: expect.stringMatching(reason) });
  });

  it("refuses a plan that drifted under its contract before any agent call, naming both hashes", async () => {
    const repo = await makeRepo({ "README.md": "r\n" });
    const contract = await contractOf(repo, planOf([["a", [A_IS_ALPHA]]]));
    writeFiles(repo, { "docs/demo.plan.md": `${planOf([["a", [A_IS_ALPHA]]])}\nedited\n` });
    git(repo, "commit", "-qam", "edit the plan");
    let asked = 0;
    const result = await runPlan(
      contract,
      nodeOptions(repo, () => ((asked += 1), undefined)),
    );
    expect(result.isErr() && result.error.code).toBe("plan-drift");
    if (result.isErr() && result.error.code === "plan-drift") expect(result.error.recorded).toBe(contract.plan_sha256);
    expect(asked).toBe(0);
    expect(git(repo, "branch", "--show-current")).toBe("main");
  });

  it("refuses a dirty working tree at the start, listing the paths, and changes nothing", async () => {
    const repo = await makeRepo({ "README.md": "r\n" });
    const contract = await contractOf(repo, planOf([["a", [A_IS_ALPHA]]]));
    writeFileSync(join(repo, "notes.txt"), "mine\n");
    writeFileSync(join(repo, "README.md"), "edited\n");
    const result = await runPlan(
      contract,
      nodeOptions(repo, () => undefined),
    );
    expect(result.isErr() && result.error).toEqual({ code: "dirty-tree", paths: ["README.md", "notes.txt"] });
    expect(git(repo, "branch", "--show-current")).toBe("main");
    expect(existsSync(join(repo, ".plan-runs"))).toBe(false);
  });

  it("moves off the default branch to plan/<slug> and never touches a remote", async () => {
    const origin = await makeRepo({ "README.md": "r\n" });
    const bare = `${origin}.git`;
    git(origin, "clone", "-q", "--bare", origin, bare);
    const repo = await makeRepo({ "README.md": "r\n" });
    git(repo, "remote", "add", "origin", bare);
    git(repo, "fetch", "-q", "origin");
    const refsBefore = git(bare, "for-each-ref");
    const objectsBefore = git(bare, "count-objects", "-v");
    const contract = await contractOf(repo, planOf([["a", [A_IS_ALPHA]]]));
    const report = await run(contract, nodeOptions(repo, scriptTable({ execute: { edit: { "src/a.txt": "alpha\n" } } })));
    expect(report.branch).toBe("plan/demo");
    expect(git(repo, "branch", "--show-current")).toBe("plan/demo");
    expect(git(bare, "for-each-ref")).toBe(refsBefore);
    expect(git(bare, "count-objects", "-v")).toBe(objectsBefore);
  });

  it("escalates a stage whose diff is wider than maxStageDiff", async () => {
    const repo = await makeRepo({ "README.md": "r\n" });
    const contract = await contractOf(repo, planOf([["a", [A_IS_ALPHA]]]));
    const script = scriptTable({ execute: { edit: { "src/a.txt": "alpha\n", "src/x.txt": "x\n", "src/y.txt": "y\n" } } });
    const report = await run(contract, nodeOptions(repo, script, { maxStageDiff: { files: 2 } }));
    expect(report.stages[0]?.state).toBe("escalated");
    expect(report.stages[0]?.diff?.files).toBe(3);
    expect(report.status).toBe("incomplete");
  });

  it("stops at the token target, a ceiling", async () => {
    const repo = await makeRepo({ "README.md": "r\n" });
    const contract = await contractOf(
      repo,
      planOf([
        ["a", [A_IS_ALPHA]],
        ["b", [B_IS_BETA]],
      ]),
    );
    const script = scriptTable({ "S1 execute": { edit: { "src/a.txt": "alpha\n" }, tokens: 900 }, "S2 execute": { edit: { "src/b.txt": "beta\n" } } });
    const report = await run(contract, nodeOptions(repo, script, { tokenTarget: 1000, reserveTokens: 200 }));
    expect(report.status).toBe("token-target");
    expect(report.stages.map((s) => s.state)).toEqual(["green", "stopped"]);
    expect(report.cost.total_tokens).toBe(900);
  });

  it("verifies a whole contract with no agent: which stages are green at HEAD, one ledger file each", async () => {
    const repo = await makeRepo({ "src/a.txt": "alpha\n" });
    const contract = await contractOf(
      repo,
      planOf([
        ["a", [A_IS_ALPHA]],
        ["b", [B_IS_BETA]],
      ]),
    );
    const { agent: _agent, ...options } = nodeOptions(repo, () => undefined);
    const verdict = (await verifyContract(contract, options))._unsafeUnwrap();
    expect(verdict.green).toEqual(["S1"]);
    expect(verdict.commit).toBe(git(repo, "rev-parse", "HEAD"));
    expect(readLedger(readFileSync(join(repo, `.plan-runs/demo/verifications/${verdict.commit}/preflight-S2.md`), "utf8"))?.rows[0]?.checks).toEqual([
      { what: "exits 0", met: false },
      { what: 'prints "beta"', met: false },
    ]);
    expect(git(repo, "branch", "--show-current")).toBe("main");
  });

  it("reports a stage red when the final run finds it red though the loop saw it green, with both ledger files", async () => {
    const repo = await makeRepo({ "README.md": "r\n" });
    const contract = await contractOf(
      repo,
      planOf([
        ["a", [A_IS_ALPHA]],
        ["b", [B_IS_BETA]],
      ]),
    );
    // Stage 2's work overwrites stage 1's: each is green alone, the final HEAD is not.
    const script = scriptTable({
      "S1 execute": { edit: { "src/a.txt": "alpha\n" } },
      "S2 execute": { edit: { "src/b.txt": "beta\n", "src/a.txt": "gone\n" } },
    });
    const report = await run(contract, nodeOptions(repo, script));
    const s1 = report.stages[0];
    expect(s1?.state).toBe("green");
    expect(s1?.final).toBe("red");
    expect(s1?.ledger).toEqual([".plan-runs/demo/ledger/verify-S1-a1.md", ".plan-runs/demo/ledger/final-S1.md"]);
    expect(s1?.reason).toContain("final independent verification sees it red");
    expect(report.status).toBe("incomplete");
    expect(report.end.green).toEqual(["S2"]);
  });

  it("runs optional stages only when asked, and emits typed progress events", async () => {
    const repo = await makeRepo({ "README.md": "r\n" });
    const plan = planOf([
      ["a", [A_IS_ALPHA]],
      ["b", [B_IS_BETA], "Optional."],
    ]);
    const contract = await contractOf(repo, plan);
    expect(contract.stages[1]?.optional).toBe(true);
    const events: RunEvent[] = [];
    const script = scriptTable({ "S1 execute": { edit: { "src/a.txt": "alpha\n" } }, "S2 execute": { edit: { "src/b.txt": "beta\n" } } });
    const skipped = await run(contract, nodeOptions(repo, script, { onEvent: (e) => events.push(RunEvent.parse(e)) }));
    expect(skipped.stages.map((s) => [s.state, s.final])).toEqual([
      ["green", "green"],
      ["optional-skipped", "not-run"],
    ]);
    expect(skipped.status).toBe("green");
    expect(events[0]?.type).toBe("run-started");
    expect(events.at(-1)).toEqual({ type: "done", status: "green", green: ["S1"] });
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(["preflight", "stage-started", "attempt", "agent-call", "verified", "tokens"]));
    const asked = await run(contract, nodeOptions(repo, script, { includeOptional: true }));
    expect(asked.stages.map((s) => [s.state, s.final])).toEqual([
      ["green-at-start", "green"],
      ["green", "green"],
    ]);
  });
});
