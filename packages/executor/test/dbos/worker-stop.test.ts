// A `decay worker` stopped (SIGTERM: docker stop, a Kubernetes rollout) while a run it serves is
// inside an agent call, on a real Postgres: the worker exits at once, the agent call dies with it,
// and the same worker started again resumes the run at that call; the run ends with the report an
// uninterrupted run of the same plan ends with.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ended } from "../../../../test-utils/process.js";
import { tempDir } from "../../../../test-utils/tmp.js";
import type { RunDetail } from "../../src/entries/dbos.js";
import { decay } from "../cli-process.js";
import { fleetRuns, fleetSuite, fleetWorker, gatedAgent, logged, plansRepo } from "./fleet-harness.js";
import { calls, entries, eventually, stepCommits, until } from "./helpers.js";

const { db, started } = fleetSuite();

/** The parts of a finished run's report that an interruption must not change: no ids, no times. */
async function reportOf(id: string, cwd: string) {
  const shown = await decay(["runs", "show", id, "--json", "--database-url", db.url], cwd);
  expect(shown.code, shown.stderr).toBe(0);
  const { result } = JSON.parse(shown.stdout) as RunDetail;
  const report = result?.report;
  if (report == null) throw new Error(`run ${id} has no report: ${shown.stdout}`);
  const { wall_ms: _, ...cost } = report.cost;
  return { status: report.status, green: report.end.green, stages: report.stages.map((s) => [s.id, s.final, s.attempts]), cost };
}

describe("decay worker stopped with a run in flight", () => {
  it("exits at once, ends the agent call, and its restart resumes the run to an uninterrupted run's report", async () => {
    const work = await tempDir("decay-worker-stop-");
    const repo = await plansRepo(2);
    const { log, gate, agent } = gatedAgent(work);
    const enqueue = async (plan: string) => {
      const out = await decay(["enqueue", plan, "--repo", repo, "--database-url", db.url, "--json"], repo);
      expect(out.code, out.stderr).toBe(0);
      return (JSON.parse(out.stdout) as { id: string }).id;
    };
    const w1 = fleetWorker(db.url, started, work, "w1", agent);
    await w1.serving();
    const id = await enqueue("docs/p0.plan.md");
    await until(() => entries(log).some((e) => e.at === "start" && e.key === "S2 execute a1"));
    const [inFlight] = entries(log).filter((e) => e.key === "S2 execute a1");

    const stopped = Date.now();
    w1.child.kill("SIGTERM");
    const done = await Promise.race([w1.done, new Promise<null>((r) => setTimeout(() => r(null), 20_000))]);
    if (done === null) throw new Error("the worker still runs 20 s after SIGTERM");
    expect(done.code, done.stderr).toBe(0);
    expect(Date.now() - stopped).toBeLessThan(15_000);
    expect(await ended(inFlight?.pid as number)).toBe(true);
    expect((await fleetRuns(db.url, work)).find((r) => r.id === id)).toMatchObject({ status: "PENDING", worker: "w1" });

    writeFileSync(gate, "");
    const back = fleetWorker(db.url, started, work, "w1", agent);
    await back.serving();
    const other = await enqueue("docs/p1.plan.md");
    await eventually(async () => (await fleetRuns(db.url, work)).filter((r) => r.status === "SUCCESS").length === 2);
    // The call in flight ran once more, after the stop; nothing before it ran again.
    const mine = entries(log).filter((e) => e.dir === id && e.at === "start");
    expect(mine.map((e) => e.key)).toEqual(["S1 execute a1", "S2 execute a1", "S2 execute a1"]);
    expect(calls(log).filter((k) => k === "S1 execute a1")).toHaveLength(2);
    expect(stepCommits(join(work, "w1", id), "plan/p0").map((c) => c.replace(/^p0\//, ""))).toEqual(["S1/a1/commit", "S2/a1/commit"]);
    expect(await reportOf(id, work)).toEqual(await reportOf(other, work));
    expect((await reportOf(id, work)).status).toBe("green");

    back.child.kill("SIGINT");
    expect((await back.done).code).toBe(0);
  }, 300_000);

  it("restarted under another app version, says which runs it holds wait for their own version; that version finishes them", async () => {
    const work = await tempDir("decay-worker-version-");
    const repo = await plansRepo(1);
    const { log, gate, agent } = gatedAgent(work);
    const w1 = fleetWorker(db.url, started, work, "w1", agent);
    await w1.serving();
    const out = await decay(["enqueue", "docs/p0.plan.md", "--repo", repo, "--database-url", db.url, "--json"], repo);
    const { id } = JSON.parse(out.stdout) as { id: string };
    await until(() => entries(log).some((e) => e.at === "start" && e.key === "S2 execute a1"));
    w1.child.kill("SIGTERM");
    expect((await w1.done).code).toBe(0);
    writeFileSync(gate, "");

    // A deploy: the same id, a new version. The run is not resumed there, and the worker says so.
    const deployed = fleetWorker(db.url, started, work, "w1", agent, [], undefined, "v2");
    await deployed.serving();
    deployed.child.kill("SIGINT");
    const said = await deployed.done;
    expect(said.code).toBe(0);
    const warned = logged(said.stderr, "warn").filter((l) => l.message.startsWith(`run ${id} `));
    expect(warned.map((l) => l.message)).toEqual([
      `run ${id} of executor w1 started under app version v1, not v2: it resumes only on this executor id launched with version v1`,
    ]);
    expect((await fleetRuns(db.url, work)).find((r) => r.id === id)).toMatchObject({ status: "PENDING", worker: "w1" });

    // Its own version finishes it, from the steps it recorded.
    const old = fleetWorker(db.url, started, work, "w1", agent);
    await old.serving();
    await eventually(async () => (await fleetRuns(db.url, work)).find((r) => r.id === id)?.status === "SUCCESS");
    expect(await reportOf(id, work)).toMatchObject({ status: "green", green: ["S1", "S2"] });
    old.child.kill("SIGINT");
    expect((await old.done).code).toBe(0);
  }, 300_000);
});
