// Refusals a run makes before anything is spent: no branch switched, no commit, no workspace
// written. Real temp repositories, runPlan over the Node adapters.
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compileContract, readPlan } from "@decay/contract";
import { describeExecFault, runPlan, scriptTable } from "../src/index.js";
import { contractOf, git, makeRepo, nodeOptions, planOf, run, writeFiles } from "./harness.js";

const A_IS_ALPHA = "`sh bin/show.sh a` exits 0 and prints `alpha`";
const EXECUTE_A = scriptTable({ "S1 execute": { edit: { "src/a.txt": "alpha\n" } } });

/** Where the repository stands: branch, HEAD, every branch, whether a workspace exists. */
function standing(repo: string) {
  return {
    branch: git(repo, "branch", "--show-current"),
    head: git(repo, "rev-parse", "HEAD"),
    branches: git(repo, "branch", "--list", "--format=%(refname:short)"),
    workspace: existsSync(join(repo, ".plan-runs")),
  };
}

describe("a surface the gate cannot pin is refused at the start", () => {
  it("a plan file named with a compatibility character (U+FB01): surface-unpinnable naming it, nothing switched or committed", async () => {
    const repo = await makeRepo({ "README.md": "r\n" });
    const contract = await contractOf(repo, planOf([["a", [A_IS_ALPHA]]]), "\uFB01");
    const before = standing(repo);
    const result = await runPlan(contract, nodeOptions(repo, EXECUTE_A));
    expect(result.isErr() && result.error.code).toBe("surface-unpinnable");
    const said = result.isErr() ? describeExecFault(result.error) : "";
    expect(said).toContain("docs/\uFB01.plan.md");
    expect(said).toContain("U+FB01");
    expect(standing(repo)).toEqual({ ...before, workspace: false });
  }, 60_000);

  it("a test file the pin globs match, named so the format cannot hold it, is refused the same way", async () => {
    const repo = await makeRepo({ "README.md": "r\n", "test/\uFB01.test.sh": "true\n" });
    const contract = await contractOf(repo, planOf([["a", [A_IS_ALPHA]]]));
    const before = standing(repo);
    const result = await runPlan(contract, nodeOptions(repo, EXECUTE_A));
    expect(result.isErr() && result.error.code).toBe("surface-unpinnable");
    expect(result.isErr() && describeExecFault(result.error)).toContain("test/\uFB01.test.sh");
    expect(standing(repo)).toEqual({ ...before, workspace: false });
  }, 60_000);

  it("a top-level name off the surface (a backslash, a compatibility character) does not stop a run", async () => {
    const repo = await makeRepo({ "README.md": "r\n" });
    writeFiles(repo, { "notes\\old.txt": "n\n", "\uFB01.txt": "f\n" });
    const contract = await contractOf(repo, planOf([["a", [A_IS_ALPHA]]]));
    const result = await runPlan(contract, nodeOptions(repo, EXECUTE_A));
    expect(result.isOk() && result.value.status).toBe("green");
  }, 60_000);
});

describe("a plan/<slug> made for another version of the plan", () => {
  const B_IS_BETA = "`sh bin/show.sh b` exits 0 and prints `beta`";
  const C_IS_GAMMA = "`sh bin/show.sh c` exits 0 and prints `gamma`";
  const TWO: Array<[string, string[]]> = [
    ["a", [A_IS_ALPHA]],
    ["b", [B_IS_BETA]],
  ];
  const ALL = scriptTable({
    "S1 execute": { edit: { "src/a.txt": "alpha\n" } },
    "S2 execute": { edit: { "src/b.txt": "beta\n" } },
    "S3 execute": { edit: { "src/c.txt": "gamma\n" } },
  });

  const THREE = planOf([...TWO, ["c", [C_IS_GAMMA]]]);
  /** A repository whose two-stage plan ran green on plan/demo, back on main. */
  async function ranTwo() {
    const repo = await makeRepo({ "README.md": "r\n" });
    const two = await contractOf(repo, planOf(TWO));
    expect((await run(two, nodeOptions(repo, ALL))).status).toBe("green");
    git(repo, "switch", "-q", "main");
    return { repo, two };
  }

  it("is refused before the switch, naming the branch and the plan; once the new plan is on the branch, the run goes on", async () => {
    const { repo, two } = await ranTwo();
    // Stage 3 is added to the plan on main (the plan file alone: main does not ignore .plan-runs/);
    // plan/demo still holds the two-stage plan.
    const text = THREE;
    writeFiles(repo, { "docs/demo.plan.md": text });
    git(repo, "commit", "-q", "-m", "Stage 3", "--", "docs/demo.plan.md");
    const three = await contractOf(repo, text, "demo", false);
    const before = standing(repo);
    const tip = git(repo, "rev-parse", "plan/demo");
    const result = await runPlan(three, nodeOptions(repo, ALL));
    expect(result.isErr() && result.error).toMatchObject({
      code: "branch-plan-differs",
      branch: "plan/demo",
      commit: tip,
      plan: "docs/demo.plan.md",
      recorded: three.plan_sha256,
      actual: two.plan_sha256,
    });
    const said = result.isErr() ? describeExecFault(result.error) : "";
    expect(said).toMatch(/plan\/demo .*docs\/demo\.plan\.md.*git branch -m plan\/demo plan\/demo-old/);
    expect(standing(repo)).toEqual(before);
    expect(git(repo, "rev-parse", "plan/demo")).toBe(tip);

    // The remedy it names: the new plan brought onto the branch, the run resumes and does Stage 3.
    git(repo, "switch", "-q", "plan/demo");
    git(repo, "merge", "-q", "--no-edit", "main");
    const resumed = await run(three, nodeOptions(repo, ALL));
    expect(resumed.status).toBe("green");
    expect(resumed.stages.map((s) => [s.id, s.state])).toEqual([
      ["S1", "green-at-start"],
      ["S2", "green-at-start"],
      ["S3", "green"],
    ]);
  }, 120_000);

  it("a branch that holds no plan file where the start tracks one is refused too; the same plan resumes", async () => {
    const repo = await makeRepo({ "README.md": "r\n" });
    git(repo, "branch", "plan/demo");
    const contract = await contractOf(repo, planOf([["a", [A_IS_ALPHA]]]));
    const before = standing(repo);
    const result = await runPlan(contract, nodeOptions(repo, EXECUTE_A));
    expect(result.isErr() && result.error).toMatchObject({ code: "branch-plan-differs", actual: null });
    expect(result.isErr() && describeExecFault(result.error)).toContain("it holds no such file");
    expect(standing(repo)).toEqual(before);

    git(repo, "branch", "-f", "plan/demo", "main");
    expect((await run(contract, nodeOptions(repo, EXECUTE_A))).status).toBe("green");
    git(repo, "switch", "-q", "main");
    expect((await run(contract, nodeOptions(repo, EXECUTE_A))).stages[0]?.state).toBe("green-at-start");
  }, 120_000);

  it("the same plan resumes where git checks it out with CRLF (core.autocrlf): its committed file is the branch's", async () => {
    const { repo, two } = await ranTwo();
    git(repo, "config", "core.autocrlf", "true");
    rmSync(join(repo, "docs/demo.plan.md"));
    git(repo, "checkout", "--", "docs/demo.plan.md");
    const onDisk = readFileSync(join(repo, "docs/demo.plan.md"), "utf8");
    expect(onDisk).toContain("\r\n");
    expect(git(repo, "status", "--porcelain", "--", "docs")).toBe("");
    // The contract of the file as checked out: its hash is of the CRLF bytes, the blobs hold LF.
    const crlf = await contractOf(repo, onDisk, "demo", false);
    expect(crlf.plan_sha256).not.toBe(two.plan_sha256);
    const resumed = await run(crlf, nodeOptions(repo, ALL));
    expect(resumed.stages.map((s) => s.state)).toEqual(["green-at-start", "green-at-start"]);

    // The same committed file, edited in the working tree and not committed, is another plan.
    git(repo, "switch", "-q", "main");
    writeFiles(repo, { "docs/demo.plan.md": `${onDisk}\r\nA line more.\r\n` });
    const edited = await contractOf(repo, `${onDisk}\r\nA line more.\r\n`, "demo", false);
    const refused = await runPlan(edited, nodeOptions(repo, ALL));
    expect(refused.isErr() && refused.error.code).toBe("branch-plan-differs");
  }, 120_000);

  it("a contract naming its plan by an absolute path through a link to the repository is held to the branch as well", async () => {
    const repo = await makeRepo({ "README.md": "r\n" });
    // The repository reached by another spelling, as macOS reaches /private/var through /var.
    const link = `${repo}-link`;
    symlinkSync(repo, link);
    const planPath = `${link}/docs/demo.plan.md`;
    const contractAt = async (text: string) => (await compileContract(readPlan(text)._unsafeUnwrap(), { planPath, planText: text }))._unsafeUnwrap();
    try {
      writeFiles(repo, { "docs/demo.plan.md": planOf(TWO) });
      git(repo, "add", "-A");
      git(repo, "commit", "-q", "-m", "the plan");
      expect((await run(await contractAt(planOf(TWO)), nodeOptions(repo, ALL))).status).toBe("green");
      // The plan file is placed where it lies, so each stage's pinned surface holds it.
      expect(readFileSync(join(repo, ".plan-runs/demo/freeze/S1-surface.tsv"), "utf8")).toMatch(/^unchanged\tdocs\/demo\.plan\.md\t/m);
      git(repo, "switch", "-q", "main");
      writeFiles(repo, { "docs/demo.plan.md": THREE });
      git(repo, "commit", "-q", "-m", "Stage 3", "--", "docs/demo.plan.md");
      const before = standing(repo);
      const refused = await runPlan(await contractAt(THREE), nodeOptions(repo, ALL));
      expect(refused.isErr() && refused.error).toMatchObject({ code: "branch-plan-differs", branch: "plan/demo", plan: planPath });
      expect(standing(repo)).toEqual(before);
      expect(git(repo, "show", "plan/demo:docs/demo.plan.md")).not.toContain("Stage 3");
    } finally {
      rmSync(link);
    }
  }, 120_000);

  it("a plan edited in the working tree is another plan, even where a flag makes git status call it clean", async () => {
    for (const flag of ["--assume-unchanged", "--skip-worktree"]) {
      const { repo } = await ranTwo();
      const three = THREE;
      writeFiles(repo, { "docs/demo.plan.md": three });
      git(repo, "update-index", flag, "docs/demo.plan.md");
      expect(git(repo, "status", "--porcelain", "--", "docs")).toBe("");
      const refused = await runPlan(await contractOf(repo, three, "demo", false), nodeOptions(repo, ALL));
      expect([flag, refused.isErr() && refused.error.code]).toEqual([flag, "branch-plan-differs"]);
    }
  }, 120_000);

  it("a plan file that is a link resumes; one whose target changed on main is refused", async () => {
    const repo = await makeRepo({ "README.md": "r\n", "plans/real.md": planOf(TWO) });
    mkdirSync(join(repo, "docs"), { recursive: true });
    symlinkSync("../plans/real.md", join(repo, "docs/demo.plan.md"));
    git(repo, "add", "-A");
    git(repo, "commit", "-q", "-m", "a linked plan");
    const two = await contractOf(repo, planOf(TWO), "demo", false);
    expect((await run(two, nodeOptions(repo, ALL))).status).toBe("green");
    git(repo, "switch", "-q", "main");
    expect((await run(two, nodeOptions(repo, ALL))).stages.map((s) => s.state)).toEqual(["green-at-start", "green-at-start"]);

    git(repo, "switch", "-q", "main");
    const three = planOf([...TWO, ["c", [C_IS_GAMMA]]]);
    writeFiles(repo, { "plans/real.md": three });
    git(repo, "commit", "-q", "-am", "Stage 3, through the link");
    const refused = await runPlan(await contractOf(repo, three, "demo", false), nodeOptions(repo, ALL));
    expect(refused.isErr() && refused.error).toMatchObject({ code: "branch-plan-differs", actual: two.plan_sha256 });
  }, 120_000);
});
