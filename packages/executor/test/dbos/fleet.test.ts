// Fleet mode on a real Postgres: two workers serve one queue; ten runs are enqueued (one of them
// twice); a worker is SIGKILLed while its runs are inside an agent call and restarted with its id.
// Every run completes once, every stage commit is made exactly once, an agent call runs again only
// after the copy in flight was killed, and a second worker with a live worker's id refuses to start.
import { appendFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../../test-utils/tmp.js";
import type { RunSummary } from "../../src/entries/dbos.js";
import { decay } from "../cli-process.js";
import { git } from "../harness.js";
import { expectSchemaValid, fleetRuns, fleetSuite, fleetWorker, gatedAgent, killAgents, plansRepo } from "./fleet-harness.js";
import { entries, stepCommits, until } from "./helpers.js";

const RUNS = 10;

const { db, started } = fleetSuite();

const worker = (work: string, id: string, agent: string, extra: string[] = []) => fleetWorker(db.url, started, work, id, agent, extra);
const runs = (cwd: string) => fleetRuns(db.url, cwd);

describe("fleet: workers on one Postgres", () => {
  it("ten runs over two workers survive a killed worker restarted with its id, each stage commit once", async () => {
    const work = await tempDir("decay-fleet-");
    const repo = await plansRepo(RUNS);
    const { log, gate, agent } = gatedAgent(work);
    const w1 = worker(work, "w1", agent);
    const w2 = worker(work, "w2", agent, ["--bundle", join(work, "bundles")]);
    await Promise.all([w1.serving(), w2.serving()]);

    const twin = await decay(w1.args, work);
    expect(twin.code).toBe(2);
    expect(twin.stderr).toMatch(/executor id "w1" is held by another live worker/);

    for (let k = 0; k < RUNS; k++) {
      const out = await decay(["enqueue", `docs/p${k}.plan.md`, "--repo", repo, "--database-url", db.url, "--json"], repo);
      expect(JSON.parse(out.stdout), out.stderr).toMatchObject({ existed: false });
      expectSchemaValid(JSON.parse(out.stdout));
    }
    const again = await decay(["enqueue", "docs/p0.plan.md", "--repo", repo, "--database-url", db.url, "--json"], repo);
    expect(JSON.parse(again.stdout)).toMatchObject({ existed: true });

    // Both workers are inside S2's agent call on two runs each: kill w1 and the agents it started.
    await until(() => entries(log).filter((e) => e.at === "start" && e.key === "S2 execute a1").length >= 4);
    const owned = new Set(readdirSync(join(work, "w1")));
    expect(owned.size).toBeGreaterThan(0);
    w1.child.kill("SIGKILL");
    await w1.done;
    await killAgents(entries(log).filter((e) => e.at === "start" && owned.has(e.dir)));
    appendFileSync(log, `${JSON.stringify({ pid: 0, at: "kill", dir: "", key: "" })}\n`);

    const back = worker(work, "w1", agent);
    await back.serving();
    writeFileSync(gate, "");
    let all: RunSummary[] = [];
    for (let waited = 0; waited < 240_000; waited += 1000) {
      all = await runs(work);
      if (all.length === RUNS && all.every((r) => r.status === "SUCCESS")) break;
      await new Promise((r) => setTimeout(r, 1000));
    }
    expect(all).toHaveLength(RUNS);
    for (const r of all) expect(r).toMatchObject({ status: "SUCCESS", outcome: "green", green: ["S1", "S2"] });
    // The runs w1 held when it was killed finished on w1 again, from the steps it had recorded.
    for (const r of all.filter((r) => owned.has(r.id))) expect(r.worker).toBe("w1");

    // Every stage commit exactly once, in every run's clone on the worker that ran it.
    for (const r of all) {
      const dir = join(work, r.worker as string, r.id);
      const commits = stepCommits(dir, `plan/${r.plan.replace(/^docs\/|\.plan\.md$/g, "")}`);
      expect(new Set(commits).size, r.id).toBe(commits.length);
      expect(commits.map((c) => c.replace(/^p\d+\//, ""))).toEqual(["S1/a1/commit", "S2/a1/commit"]);
    }
    // w2 writes each run's branch as a git bundle; runs show names the worker, the branch and where it is.
    const onW2 = all.find((r) => r.worker === "w2") as RunSummary;
    const slug = onW2.plan.replace(/^docs\/|\.plan\.md$/g, "");
    expect(git(work, "bundle", "list-heads", join(work, "bundles", `${onW2.id}.bundle`))).toContain(`refs/heads/plan/${slug}`);
    const shown = await decay(["runs", "show", onW2.id, "--database-url", db.url], work);
    expect(shown.stdout).toContain(`worker: w2\nbranch: plan/${slug} in ${join(work, "w2", onW2.id)}\n`);
    expect(shown.stdout).toContain(`bundle: ${join(work, "bundles", `${onW2.id}.bundle`)}`);
    expect(shown.stdout).toContain("# Run report");
    // Each agent call once per run; a second copy only of a call killed in flight, started after the kill.
    const log2 = entries(log);
    const killedAt = log2.findIndex((e) => e.at === "kill");
    const starts = new Map<string, number[]>();
    log2.forEach((e, i) => e.at === "start" && starts.set(`${e.dir} ${e.key}`, [...(starts.get(`${e.dir} ${e.key}`) ?? []), i]));
    for (const [call, at] of starts) {
      if (at.length === 1) continue;
      expect(at, call).toHaveLength(2);
      expect(owned.has(call.split(" ")[0] as string), call).toBe(true);
      expect(at[0] as number).toBeLessThan(killedAt);
      expect(at[1] as number).toBeGreaterThan(killedAt);
      expect(
        log2.some((e, i) => i < killedAt && e.at === "end" && `${e.dir} ${e.key}` === call),
        call,
      ).toBe(false);
    }
    expect([...starts.values()].filter((at) => at.length === 2).length, "calls killed in flight and run again").toBeGreaterThan(0);
    back.child.kill("SIGINT");
    w2.child.kill("SIGINT");
    expect((await back.done).code).toBe(0);
    expect((await w2.done).code).toBe(0);
  }, 400_000);

  it("a database it cannot reach is a fault (exit 2) naming the URL without its password", async () => {
    const r = await decay(["runs", "--database-url", "postgresql://decay:s3cret@127.0.0.1:1/none"], await tempDir("decay-fleet-"));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/decay: database postgresql:\/\/decay:\*\*\*@127\.0\.0\.1:1\/none: /);
    expect(r.stderr).not.toContain("s3cret");
  });
});
