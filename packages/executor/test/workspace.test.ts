// Whose `plan/<slug>` and `.plan-runs/<slug>/` these are, and what a run may set aside: two plans
// with one file name never share a branch or a report, and work left on the branch after a run
// that ended is the user's, refused, never stashed.
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Contract, compileContract, readPlan } from "@decay/contract";
import { describe, expect, it } from "vitest";
import { describeExecFault, type RunEvent, runPlan, scriptTable, verifyContract } from "../src/index.js";
import { killAfter, recordingRunner } from "../src/entries/testing.js";
import { contractOf, git, makeRepo, nodeOptions, planOf, run, writeFiles } from "./harness.js";

const A_IS_ALPHA = "`sh bin/show.sh a` exits 0 and prints `alpha`";
const B_IS_BETA = "`sh bin/show.sh b` exits 0 and prints `beta`";
const BOTH = scriptTable({ "S1 execute": { edit: { "src/a.txt": "alpha\n" } } });

/** A plan committed at `path` in `repo`, compiled with that path. */
async function planAt(repo: string, path: string, text: string): Promise<Contract> {
  writeFiles(repo, { [path]: text });
  git(repo, "add", "-A");
  git(repo, "commit", "-q", "-m", `plan ${path}`);
  const compiled = await compileContract(readPlan(text)._unsafeUnwrap(), { planPath: path, planText: text });
  return compiled._unsafeUnwrap();
}

describe("two plans whose file names give one slug", () => {
  it("the second is refused, naming both plans; the first one's branch and report are untouched, and it still resumes", async () => {
    const repo = await makeRepo({ "README.md": "r\n" });
    const billing = await planAt(repo, "plans/billing/rollout.plan.md", planOf([["a", [A_IS_ALPHA]]]));
    const search = await planAt(repo, "plans/search/rollout.plan.md", planOf([["b", [B_IS_BETA]]]));
    expect((await run(billing, nodeOptions(repo, BOTH))).status).toBe("green");
    const tip = git(repo, "rev-parse", "plan/rollout");
    const report = readFileSync(join(repo, ".plan-runs/rollout/REPORT.md"), "utf8");
    git(repo, "switch", "-q", "main");
    const main = git(repo, "rev-parse", "HEAD");

    const second = await runPlan(search, nodeOptions(repo, scriptTable({ "S1 execute": { edit: { "src/b.txt": "beta\n" } } })));
    const taken = { code: "workspace-taken", slug: "rollout", plan: "plans/search/rollout.plan.md", owner: "plans/billing/rollout.plan.md" };
    expect(second.isErr() && second.error).toEqual(taken);
    expect(describeExecFault(taken as never)).toMatch(/plans\/search\/rollout\.plan\.md.*plans\/billing\/rollout\.plan\.md.*rename/);
    // Nothing moved: no branch switch, no commit, the first plan's report as it was.
    expect(git(repo, "branch", "--show-current")).toBe("main");
    expect(git(repo, "rev-parse", "HEAD")).toBe(main);
    expect(git(repo, "rev-parse", "plan/rollout")).toBe(tip);
    expect(readFileSync(join(repo, ".plan-runs/rollout/REPORT.md"), "utf8")).toBe(report);
    // preflight and verify write into the same workspace: refused alike.
    const verified = await verifyContract(search, nodeOptions(repo, BOTH));
    expect(verified.isErr() && verified.error).toEqual(taken);

    // The same plan path is the same run: running it again resumes (green at the start).
    const again = await run(billing, nodeOptions(repo, BOTH));
    expect(again.stages.map((s) => s.state)).toEqual(["green-at-start"]);
  }, 60_000);

  it("a workspace a run made before plan.txt existed is told by its contract.md; a verification records its plan first", async () => {
    const repo = await makeRepo({ "README.md": "r\n" });
    const billing = await planAt(repo, "plans/billing/rollout.plan.md", planOf([["a", [A_IS_ALPHA]]]));
    const search = await planAt(repo, "plans/search/rollout.plan.md", planOf([["b", [B_IS_BETA]]]));
    expect((await run(billing, nodeOptions(repo, BOTH))).status).toBe("green");
    rmSync(join(repo, ".plan-runs/rollout/plan.txt"));
    git(repo, "switch", "-q", "main");
    const second = await runPlan(search, nodeOptions(repo, BOTH));
    expect(second.isErr() && second.error).toMatchObject({ code: "workspace-taken", owner: "plans/billing/rollout.plan.md" });

    const other = await makeRepo({ "README.md": "r\n" });
    const first = await planAt(other, "plans/search/rollout.plan.md", planOf([["b", [B_IS_BETA]]]));
    const later = await planAt(other, "plans/billing/rollout.plan.md", planOf([["a", [A_IS_ALPHA]]]));
    expect((await verifyContract(first, nodeOptions(other, BOTH))).isOk()).toBe(true);
    expect(readFileSync(join(other, ".plan-runs/rollout/plan.txt"), "utf8")).toBe("plans/search/rollout.plan.md\n");
    const refused = await runPlan(later, nodeOptions(other, BOTH));
    expect(refused.isErr() && refused.error).toMatchObject({ code: "workspace-taken", owner: "plans/search/rollout.plan.md" });
    expect(git(other, "branch", "--list", "plan/rollout")).toBe("");
  }, 60_000);
});

describe("uncommitted work on plan/<slug> when a run starts", () => {
  it("after a run that ended, it is the user's: the fault dirty-tree naming it, nothing stashed", async () => {
    const repo = await makeRepo({ "README.md": "r\n" });
    const contract = await contractOf(repo, planOf([["a", [A_IS_ALPHA]]]));
    expect((await run(contract, nodeOptions(repo, BOTH))).status).toBe("green");
    expect(git(repo, "branch", "--show-current")).toBe("plan/demo");
    writeFileSync(join(repo, "README.md"), "my edit\n");
    writeFileSync(join(repo, "NOTES.txt"), "my notes\n");
    const again = await runPlan(contract, nodeOptions(repo, BOTH));
    expect(again.isErr() && again.error).toEqual({ code: "dirty-tree", paths: ["README.md", "NOTES.txt"] });
    expect(git(repo, "stash", "list")).toBe("");
    expect(readFileSync(join(repo, "NOTES.txt"), "utf8")).toBe("my notes\n");
    expect(readFileSync(join(repo, "README.md"), "utf8")).toBe("my edit\n");
  }, 60_000);

  it("after a run killed in its execute step, the leftovers are set aside and a set-aside event names the stash", async () => {
    const probe = await makeRepo({ "README.md": "r\n" });
    const recorder = recordingRunner();
    await run(await contractOf(probe, planOf([["a", [A_IS_ALPHA]]])), nodeOptions(probe, BOTH, { runner: recorder }));
    const k = recorder.log.findIndex((s) => s.name === "S1/a1/execute/t1") + 1;
    expect(k).toBeGreaterThan(0);

    const repo = await makeRepo({ "README.md": "r\n" });
    const contract = await contractOf(repo, planOf([["a", [A_IS_ALPHA]]]));
    await expect(runPlan(contract, nodeOptions(repo, BOTH, { runner: killAfter(k) }))).rejects.toThrow();
    expect(git(repo, "status", "--porcelain")).toBe("?? src/");
    expect(existsSync(join(repo, ".plan-runs/demo/unfinished.txt"))).toBe(true);
    const events: RunEvent[] = [];
    const report = await run(contract, nodeOptions(repo, BOTH, { onEvent: (e) => events.push(e) }));
    const stash = git(repo, "rev-parse", "refs/stash");
    expect(events.filter((e) => e.type === "set-aside")).toEqual([{ type: "set-aside", stash, paths: ["src/a.txt"] }]);
    expect(report.set_aside).toBe(stash);
    expect(report.status).toBe("green");
    // The run ended: the marker is gone, so what is left afterwards is never taken for leftovers.
    expect(existsSync(join(repo, ".plan-runs/demo/unfinished.txt"))).toBe(false);
  }, 60_000);
});

describe("a repository below the top of its working tree", () => {
  it("runPlan and verifyContract refuse it (repo-not-top, naming the top) before they switch, write or clone anything", async () => {
    const repo = await makeRepo({ "README.md": "r\n", "pkg/README.md": "p\n" });
    const contract = await contractOf(repo, planOf([["a", [A_IS_ALPHA]]]));
    const below = join(repo, "pkg");
    const top = git(repo, "rev-parse", "--show-toplevel");
    const before = git(repo, "status", "--porcelain=v1", "--untracked-files=all");
    const ran = await runPlan(contract, nodeOptions(below, BOTH));
    expect(ran._unsafeUnwrapErr()).toEqual({ code: "repo-not-top", repo: below, top });
    expect(describeExecFault(ran._unsafeUnwrapErr())).toBe(
      `${below} is not the top of its git working tree, ${top} is: a clean room is a checkout of the whole repository and runs acceptance at its top; run in ${top}`,
    );
    const verified = await verifyContract(contract, nodeOptions(below, BOTH));
    expect(verified._unsafeUnwrapErr()).toEqual({ code: "repo-not-top", repo: below, top });
    expect(git(repo, "branch", "--show-current")).toBe("main");
    expect(git(repo, "status", "--porcelain=v1", "--untracked-files=all")).toBe(before);
    expect(existsSync(join(below, ".plan-runs"))).toBe(false);
    // At the top the same contract runs.
    expect((await run(contract, nodeOptions(repo, BOTH))).status).toBe("green");
  });
});
