// The built `decay` bin on what a run is pointed at: --repo below the top of a working tree, the
// plan `-`, and leftovers of an unfinished run, said on stderr when they are set aside.
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../test-utils/tmp.js";
import { runPlan, scriptTable } from "../src/index.js";
import { killAfter, recordingRunner } from "../src/entries/testing.js";
import { agentFlag, decay } from "./cli-process.js";
import { contractOf, git, makeRepo, nodeOptions, planOf, run } from "./harness.js";

const A_IS_ALPHA = "`sh bin/show.sh a` exits 0 and prints `alpha`";
const EDIT_A = { "S1 execute": { edit: { "src/a.txt": "alpha\n" } } };

describe("decay --repo names the top of a git working tree", () => {
  it.each(["worktree", "clone", "isomorphic"])(
    "a subdirectory is refused with --clean-room %s, naming --repo and the top, before anything runs",
    async (room) => {
      const repo = await makeRepo({ "pkg/test/ok.mjs": 'console.log("ok")\n' });
      writeFileSync(join(repo, "pkg/p.plan.md"), planOf([["s", ["`node test/ok.mjs` exits 0 and prints `ok`"]]]));
      git(repo, "add", "-A");
      git(repo, "commit", "-q", "-m", "plan");
      const r = await decay(["preflight", "p.plan.md", "--repo", ".", "--clean-room", room], join(repo, "pkg"));
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        `decay: --repo .: is not the top of its git working tree, ${git(repo, "rev-parse", "--show-toplevel")} is: a clean room is a checkout of the whole repository and runs acceptance at its top; pass --repo ${git(repo, "rev-parse", "--show-toplevel")}\n`,
      );
      expect(r.stdout).toBe("");
      expect(existsSync(join(repo, "pkg/.plan-runs"))).toBe(false);
    },
  );

  it("a plan reached through the repository's real path is inside a --repo given as a symbolic link", async () => {
    const repo = await makeRepo({ "README.md": "r\n" });
    await contractOf(repo, planOf([["a", [A_IS_ALPHA]]]));
    const outside = await tempDir();
    symlinkSync(repo, join(outside, "linked"));
    // The workspace is made by a run from inside the repository; one through the link is the same plan.
    expect((await decay(["preflight", "docs/demo.plan.md"], repo)).code).toBe(1);
    const r = await decay(["preflight", join(repo, "docs/demo.plan.md"), "--repo", "linked"], outside);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("S1 red");
  });

  it("a directory in no git working tree is refused, naming --repo", async () => {
    const dir = await tempDir();
    writeFileSync(join(dir, "p.plan.md"), planOf([["s", ["`true` exits 0"]]]));
    const r = await decay(["verify", "p.plan.md", "--repo", dir], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^decay: --repo ${dir}: is not in a git working tree \\(fatal: not a git repository.*\\)\\n$`));
  });
});

describe("decay run|preflight|verify -", () => {
  it.each([["run", "--agent", "node"], ["preflight"], ["verify"]])(
    "decay %s - is a usage fault: the plan is never read from standard input",
    async (command, ...flags) => {
      const repo = await makeRepo({ "README.md": "r\n" });
      mkdirSync(join(repo, "docs"), { recursive: true });
      const r = await decay([command, "-", ...flags], repo);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        `decay: decay ${command} reads its plan from a file, never standard input (-): the plan's path names its workspace .plan-runs/<slug>/ and branch plan/<slug>; give the plan's path (./- for a file named -) (see decay --help)\n`,
      );
      expect(existsSync(join(repo, ".plan-runs"))).toBe(false);
    },
  );
});

describe("decay run after a run that did not end", () => {
  it("says on stderr, and in the progress, which leftovers it set aside and in which stash", async () => {
    const probe = await makeRepo({ "README.md": "r\n" });
    const recorder = recordingRunner();
    await run(await contractOf(probe, planOf([["a", [A_IS_ALPHA]]])), nodeOptions(probe, scriptTable(EDIT_A), { runner: recorder }));
    const k = recorder.log.findIndex((s) => s.name === "S1/a1/execute/t1") + 1;

    const repo = await makeRepo({ "README.md": "r\n" });
    const contract = await contractOf(repo, planOf([["a", [A_IS_ALPHA]]]));
    await expect(runPlan(contract, nodeOptions(repo, scriptTable(EDIT_A), { runner: killAfter(k) }))).rejects.toThrow();
    const script = join(await tempDir(), "script.json");
    writeFileSync(script, JSON.stringify(EDIT_A));
    const r = await decay(["run", "docs/demo.plan.md", "--agent", agentFlag(script)], repo);
    expect(r.code).toBe(0);
    const stash = git(repo, "rev-parse", "refs/stash");
    const line = `set aside the leftovers of an interrupted run (src/a.txt) in stash ${stash.slice(0, 12)}; git stash apply ${stash} brings them back`;
    expect(r.stderr).toBe(`decay: ${line}\n`);
    expect(r.stdout).toContain(`] ${line}\n`);
  }, 60_000);
});
