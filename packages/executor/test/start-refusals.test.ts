// Refusals a run makes before anything is spent: no branch switched, no commit, no workspace
// written. Real temp repositories, runPlan over the Node adapters.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { describeExecFault, runPlan, scriptTable } from "../src/index.js";
import { contractOf, git, makeRepo, nodeOptions, planOf, writeFiles } from "./harness.js";

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
