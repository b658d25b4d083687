// `decay run --durable DIR`: the run id covers every input of the run, so a run with other
// settings or from another commit never hands back an outcome recorded for other inputs; a run that
// ended with a fault is no final answer, so the same command runs it again; and Ctrl-C with --json
// keeps stdout NDJSON, ending with the parked event (REPORT.md findings 1 and 5).
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../test-utils/tmp.js";
import { decay, SCRIPT_FILE, start } from "./cli-process.js";
import { COUNTING_AGENT, calls, gatedDurableRun, until } from "./dbos/helpers.js";
import { fixtureRepo, git } from "./harness.js";

const SETUP_FAULT = /the clean-room setup .* failed/;

describe("decay run --durable: the run's identity", () => {
  it("another --setup is another run, and a run that ended with a fault runs again", async () => {
    const work = await tempDir("decay-durable-id-");
    const repo = await fixtureRepo();
    const flag = join(work, "flag");
    const agent = ["--agent", `${process.execPath} ${COUNTING_AGENT} ${join(work, "agent.log")} ${SCRIPT_FILE}`];
    const base = ["run", "docs/stats.plan.md", "--durable", join(work, "state"), ...agent];

    const failing = await decay([...base, "--setup", "exit 1"], repo);
    expect(failing.code, failing.stderr).toBe(2);
    expect(failing.stderr).toMatch(SETUP_FAULT);
    // The same run without --setup: its own run, not the recorded setup fault.
    const plain = await decay(base, repo);
    expect(plain.stderr).not.toMatch(SETUP_FAULT);
    expect(plain.code, plain.stderr).toBe(1);
    expect(plain.stdout).toContain("decay: incomplete; green: S1, S2");

    // A setup that fails until a file exists: the fault is not final, the same command runs again.
    git(repo, "switch", "-q", "main");
    git(repo, "branch", "-D", "-q", "plan/stats");
    git(repo, "clean", "-fdxq");
    const flaky = [...base, "--setup", `test -e ${flag}`];
    const first = await decay(flaky, repo);
    expect(first.code, first.stderr).toBe(2);
    expect(first.stderr).toMatch(SETUP_FAULT);
    writeFileSync(flag, "");
    const second = await decay(flaky, repo);
    expect(second.stderr).not.toMatch(SETUP_FAULT);
    expect(second.stderr).toMatch(/ended with a fault; running it again as stats-[0-9a-f]{20}-r2/);
    expect(second.code, second.stderr).toBe(1);
    expect(second.stdout).toContain("decay: incomplete; green: S1, S2");
  }, 300_000);

  it("a new commit on a default branch decay does not know is another run", async () => {
    const work = await tempDir("decay-durable-id-trunk-");
    const repo = await fixtureRepo();
    git(repo, "branch", "-m", "main", "trunk");
    const args = [
      "run",
      "docs/stats.plan.md",
      "--durable",
      join(work, "state"),
      "--agent",
      `${process.execPath} ${COUNTING_AGENT} ${join(work, "a.log")} ${SCRIPT_FILE}`,
    ];
    const first = await decay(args, repo);
    expect(first.code, first.stderr).toBe(1);
    git(repo, "switch", "-q", "trunk");
    git(repo, "branch", "-D", "-q", "plan/stats");
    git(repo, "clean", "-fdxq");
    writeFileSync(join(repo, "README.md"), "more\n");
    git(repo, "commit", "-qam", "new work");
    const second = await decay(args, repo);
    expect(second.code, second.stderr).toBe(1);
    // It ran: its branch and REPORT.md are there again.
    expect(git(repo, "branch", "--format=%(refname:short)")).toContain("plan/stats");
    expect(existsSync(join(repo, ".plan-runs/stats/REPORT.md"))).toBe(true);
  }, 300_000);

  it("Ctrl-C with --json: stdout stays NDJSON and ends with the parked event; the sentence is on stderr", async () => {
    const { repo, gate, log, state, args } = await gatedDurableRun("decay-durable-json-int-", ["--json"]);
    const first = start(args, repo);
    await until(() => existsSync(log) && calls(log).includes("S2 fix a2"));
    first.child.kill("SIGINT");
    const stopped = await first.done;
    expect(stopped.code, stopped.stderr).toBe(1);
    const lines = stopped.stdout.split("\n").filter((l) => l !== "");
    const events = lines.map((l) => JSON.parse(l) as { type?: string; stage?: string; resume?: string });
    expect(events.at(-1)).toMatchObject({ type: "parked", stage: "S2", resume: state });
    expect(stopped.stderr).toContain(`stopped: run the same command again to resume (state in ${state})`);
    writeFileSync(gate, "");
    const second = await decay(args, repo);
    expect(second.code, second.stderr).toBe(1);
  }, 300_000);
});
