// `decay run --durable DIR`: killed with SIGKILL while an agent call is in flight and started again
// with the same flags, the run resumes; every finished step ran once (the interrupted agent call
// runs again) and the run ends with the report an uninterrupted run writes.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ended } from "../../../../test-utils/process.js";
import { tempDir } from "../../../../test-utils/tmp.js";
import { decay, SCRIPT_FILE, start } from "../cli-process.js";
import { fixtureRepo, git } from "../harness.js";

const AGENT = fileURLToPath(new URL("./counting-agent.mjs", import.meta.url));

/** report.json without what depends on when the run ran: commit ids and times. */
function comparable(repo: string): unknown {
  const text = readFileSync(join(repo, ".plan-runs/stats/report.json"), "utf8");
  const report = JSON.parse(text.replace(/[0-9a-f]{40}/g, "<commit>"));
  return { ...report, cost: { ...report.cost, wall_ms: 0 } };
}

/** The Decay-Step markers of the commits the run made on its branch, oldest first. */
function stepCommits(repo: string): string[] {
  return git(repo, "log", "--reverse", "--format=%(trailers:key=Decay-Step,valueonly)", "main..plan/stats").split("\n").filter((l) => l.trim() !== "");
}

const calls = (log: string) => readFileSync(log, "utf8").trim().split("\n").map((l) => l.split(" ").slice(1).join(" "));

async function until(what: () => boolean, ms = 120_000): Promise<void> {
  for (let waited = 0; !what(); waited += 50) {
    if (waited > ms) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 50));
  }
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
    await until(() => existsSync(log) && readFileSync(log, "utf8").includes("S2 fix a2"));
    const agentPid = Number(readFileSync(log, "utf8").trim().split("\n").at(-1)?.split(" ")[0]);
    first.child.kill("SIGKILL");
    await first.done;
    // A crash takes the agent with it: its process group is killed too.
    process.kill(-agentPid, "SIGKILL");
    expect(await ended(agentPid)).toBe(true);
    const before = stepCommits(repo);
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
    const commits = stepCommits(repo);
    expect(commits.slice(0, before.length)).toEqual(before);
    expect(new Set(commits).size).toBe(commits.length);
    expect(commits).toEqual(stepCommits(plainRepo));
  }, 300_000);
});
