// `decay run --assumptions FILE`: the file is read and parsed before the run changes anything, and
// a relative path is taken from the current directory, like every other path argument.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../test-utils/tmp.js";
import { RunReport } from "../src/index.js";
import { agentFlag, decay } from "./cli-process.js";
import { fixtureRepo, git } from "./harness.js";

/** What a refused run must leave as it was: the branch, the branches, HEAD, and every file. */
const state = (repo: string) => ({
  branch: git(repo, "branch", "--show-current"),
  branches: git(repo, "branch", "--list"),
  head: git(repo, "rev-parse", "HEAD"),
  files: git(repo, "status", "--porcelain", "--ignored", "--untracked-files=all"),
});

/** The fixture repository with `files` committed: a clean tree the run would otherwise start on. */
async function repoWith(files: Record<string, string>): Promise<string> {
  const repo = await fixtureRepo();
  for (const [name, text] of Object.entries(files)) writeFileSync(join(repo, name), text);
  git(repo, "add", "-A");
  git(repo, "commit", "-qm", "assumptions");
  return repo;
}

describe("decay run --assumptions", () => {
  it.each([
    ["a missing file", {}, "nothere.tsv", "decay: --assumptions nothere.tsv: cannot read: no such file or directory\n"],
    [
      "a malformed file",
      { "bad.tsv": "exists\tsrc/stats.mjs\ngarbage line\n" },
      "bad.tsv",
      'decay: --assumptions bad.tsv: line 2: unknown kind "garbage line" (expected exists, absent, contains, lacks or unchanged)\n',
    ],
  ])("%s is a fault naming the flag and the path as typed, exit 2, the repository untouched", async (_, files, file, message) => {
    const repo = await repoWith({ "ok.tsv": "exists\tsrc/stats.mjs\n", ...files });
    const before = state(repo);
    const r = await decay(["run", "docs/stats.plan.md", "--assumptions", file, "--agent", agentFlag()], repo);
    expect(r).toEqual({ code: 2, stdout: "", stderr: message });
    expect(state(repo)).toEqual(before);
  });

  it("a relative path is taken from the current directory, not from --repo", async () => {
    // The same name in the repository holds; the one in the current directory diverges.
    const repo = await repoWith({ "a.tsv": "exists\tsrc/stats.mjs\n" });
    const here = await tempDir();
    writeFileSync(join(here, "a.tsv"), "absent\tsrc/stats.mjs\n");
    const r = await decay(["run", join(repo, "docs/stats.plan.md"), "--repo", repo, "--assumptions", "a.tsv", "--agent", agentFlag(), "--json"], here);
    expect(r.code).toBe(1);
    const report = RunReport.parse(JSON.parse(r.stdout.trim().split("\n").at(-1) ?? ""));
    expect(report.status).toBe("stale-plan");
    expect(report.stale).toMatchObject({ assumptions: join(here, "a.tsv"), diverged: [expect.stringMatching(/^line 1: absent src\/stats\.mjs/)] });
  });

  it("a file inside the repository is handed to the run by its path in the repository", async () => {
    const repo = await repoWith({ "a.tsv": "absent\tsrc/stats.mjs\n" });
    const r = await decay(["run", "docs/stats.plan.md", "--assumptions", "./a.tsv", "--agent", agentFlag(), "--json"], repo);
    expect(r.code).toBe(1);
    expect(RunReport.parse(JSON.parse(r.stdout.trim().split("\n").at(-1) ?? "")).stale?.assumptions).toBe("a.tsv");
  });
});
