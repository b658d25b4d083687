// `decay run --durable DIR`: killed with SIGKILL while an agent call is in flight and started again
// with the same flags, the run resumes; every finished step ran once (the interrupted agent call
// runs again) and the run ends with the report an uninterrupted run writes.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ended } from "../../../../test-utils/process.js";
import { tempDir } from "../../../../test-utils/tmp.js";
import { decay, SCRIPT_FILE, start } from "../cli-process.js";
import { fixtureRepo } from "../harness.js";
import { COUNTING_AGENT, calls, entries, gatedDurableRun, stepCommits, until } from "./helpers.js";

const AGENT = COUNTING_AGENT;

/** report.json without what depends on when the run ran: commit ids and times. */
function comparable(repo: string): unknown {
  const text = readFileSync(join(repo, ".plan-runs/stats/report.json"), "utf8");
  const report = JSON.parse(text.replace(/[0-9a-f]{40}/g, "<commit>"));
  return { ...report, cost: { ...report.cost, wall_ms: 0 } };
}

describe("decay run --durable", () => {
  it("resumes after SIGKILL during an agent call: finished steps once, the uninterrupted report", async () => {
    const work = await tempDir("decay-durable-");
    const [plainRepo, repo] = [await fixtureRepo(), await fixtureRepo()];
    const plainLog = join(work, "plain.log");
    const plain = await decay(["run", "docs/stats.plan.md", "--agent", `${process.execPath} ${AGENT} ${plainLog} ${SCRIPT_FILE}`], plainRepo);
    expect(plain.code, plain.stderr).toBe(1);

    // The same script, except that S2's fix blocks until a gate file exists.
    const gate = join(work, "gate");
    const script = JSON.parse(readFileSync(SCRIPT_FILE, "utf8"));
    script["S2 fix"] = { ...script["S2 fix"], waitForFile: gate };
    writeFileSync(join(work, "script.json"), JSON.stringify(script));
    const log = join(work, "durable.log");
    const args = ["run", "docs/stats.plan.md", "--durable", join(work, "state"), "--agent", `${process.execPath} ${AGENT} ${log} ${join(work, "script.json")}`];
    const first = start(args, repo);
    await until(() => existsSync(log) && calls(log).includes("S2 fix a2"));
    const agentPid = entries(log).at(-1)?.pid as number;
    first.child.kill("SIGKILL");
    await first.done;
    // A crash takes the agent with it: its process group is killed too.
    process.kill(-agentPid, "SIGKILL");
    expect(await ended(agentPid)).toBe(true);
    const before = stepCommits(repo, "plan/stats");
    writeFileSync(gate, "");

    const second = await decay(args, repo);
    expect(second.code, second.stderr).toBe(1);
    expect(second.stdout).toContain("decay: incomplete; green: S1, S2");
    expect(comparable(repo)).toEqual(comparable(plainRepo));
    // Each agent call once, but the one killed in flight, which ran again.
    const expected = calls(plainLog);
    const got = calls(log);
    const fix = expected.indexOf("S2 fix a2");
    expect(got).toEqual([...expected.slice(0, fix + 1), ...expected.slice(fix)]);
    // Each stage commit exactly once: the commits before the kill are kept, none is made twice.
    const commits = stepCommits(repo, "plan/stats");
    expect(commits.slice(0, before.length)).toEqual(before);
    expect(new Set(commits).size).toBe(commits.length);
    expect(commits).toEqual(stepCommits(plainRepo, "plan/stats"));
  }, 300_000);

  it("Ctrl-C during an agent call stops it, kills the agent, frees the state; the same command resumes", async () => {
    const { repo, gate, log, state, args } = await gatedDurableRun("decay-durable-int-");
    const first = start(args, repo);
    await until(() => existsSync(log) && calls(log).includes("S2 fix a2"));
    const agentPid = entries(log).at(-1)?.pid as number;
    first.child.kill("SIGINT");
    const stopped = await first.done;
    expect(stopped.code, stopped.stderr).toBe(1);
    expect(stopped.stdout).toContain(`stopped: run the same command again to resume (state in ${state})`);
    // The agent in flight is not left running, and the state directory is not left locked.
    expect(await ended(agentPid)).toBe(true);
    writeFileSync(gate, "");
    const second = await decay(args, repo);
    expect(second.code, second.stderr).toBe(1);
    expect(second.stdout).toContain("decay: incomplete; green: S1, S2");
    // Each agent call once, but the one stopped in flight, which ran again.
    const got = calls(log);
    expect(got.filter((k) => k === "S2 fix a2")).toHaveLength(2);
    expect(new Set(got.filter((k) => k !== "S2 fix a2")).size).toBe(got.length - 2);
  }, 300_000);
});
