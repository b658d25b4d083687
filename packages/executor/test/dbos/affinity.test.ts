// Worker affinity on a real Postgres: a run w1 started is resumed by w1 only. w1 is killed inside
// the run's agent call; w2 is idle and listening on the shared queue; w1's id launches again and
// runs DBOS's recovery sweep before it serves (the window in which a restarted worker's recovered
// runs are up for grabs), then serves. The run must finish on w1 from its recorded steps, each stage
// commit once, with w2 never running a step of it.
import type { ChildProcess } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { DBOSClient } from "@dbos-inc/dbos-sdk";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type Postgres, startPostgres } from "../../../../test-utils/postgres.js";
import { tempDir } from "../../../../test-utils/tmp.js";
import { DEFAULT_QUEUE, type DbosRunner, dbosRunner, describeDbosFault, dispatchIdOf } from "../../src/entries/dbos.js";
import { decay } from "../cli-process.js";
import { expectSchemaValid, fleetRuns, fleetWorker, gatedAgent, killAgents, plansRepo } from "./fleet-harness.js";
import { entries, eventually, stepCommits, until } from "./helpers.js";

let pg: Postgres;
let client: DBOSClient;
beforeAll(async () => {
  pg = await startPostgres();
});
afterAll(async () => {
  await client?.destroy();
  await pg?.stop();
});

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

/** This process launched with executor id `id`, serving no queue: DBOS's launch recovers that id's runs. */
async function launchAs(id: string): Promise<DbosRunner> {
  for (let tries = 0; ; tries++) {
    const runner = dbosRunner({
      databaseUrl: pg.url,
      executorId: id,
      appVersion: "v1",
      ports: () => {
        throw new Error("no run executes in the test's process");
      },
    });
    const launched = await runner.status();
    if (launched.isOk()) return runner;
    await runner.close();
    // The killed worker's session (and with it the lock on its id) may outlive it by a moment.
    if (launched.error.code !== "executor-id-taken" || tries > 50) throw new Error(describeDbosFault(launched.error));
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe("fleet: worker affinity", () => {
  it("a run resumes on the worker that started it, never on an idle worker of the same queue", async () => {
    const work = await tempDir("decay-affinity-");
    const repo = await plansRepo(1);
    const { log, gate, agent } = gatedAgent(work);
    const worker = (id: string) => fleetWorker(pg.url, started, work, id, agent);
    const runs = () => fleetRuns(pg.url, work);
    const enqueue = async () => {
      const out = await decay(["enqueue", "docs/p0.plan.md", "--repo", repo, "--database-url", pg.url, "--json"], repo);
      expect(out.code, out.stderr).toBe(0);
      const value = JSON.parse(out.stdout);
      expectSchemaValid(value);
      return value as { id: string; existed: boolean };
    };

    // On a database no worker or runner has launched on, there are no tables to queue in: enqueue
    // refuses (exit 2) and says what to do; the listing is empty, not a fault.
    const early = await decay(["enqueue", "docs/p0.plan.md", "--repo", repo, "--database-url", pg.url], repo);
    expect(early.code).toBe(2);
    expect(early.stderr).toMatch(/no worker has started on it yet.*start a worker/);
    expect(await runs()).toEqual([]);

    // Enqueued with no worker up (a launch made the system tables): listed once, by its run id, as queued.
    await (await launchAs("operator")).close();
    const { id, existed } = await enqueue();
    expect(existed).toBe(false);
    expect(await runs()).toEqual([expect.objectContaining({ id, status: "ENQUEUED", worker: null, steps: 0 })]);
    const queued = await decay(["runs", "show", id, "--json", "--database-url", pg.url], work);
    expect(JSON.parse(queued.stdout)).toMatchObject({ id, status: "ENQUEUED", worker: null, stepNames: [] });

    // w1 takes the run and is killed inside S2's agent call, with the agent it started.
    const w1 = worker("w1");
    await w1.serving();
    await until(() => entries(log).some((e) => e.at === "start" && e.key === "S2 execute a1"));
    w1.child.kill("SIGKILL");
    await w1.done;
    await killAgents(entries(log).filter((e) => e.at === "start"));

    // w2 is idle and listening; w1's id launches and recovers its runs before it serves. Wait until
    // w2 has taken everything the shared queue held: the recovered run is up for grabs there, or not.
    const w2 = worker("w2");
    await w2.serving();
    const sweep = await launchAs("w1");
    client = await DBOSClient.create({ systemDatabaseUrl: pg.url, applicationName: "decay" });
    await eventually(async () => {
      const shared = await client.listWorkflows({ queueName: DEFAULT_QUEUE });
      return shared.every((w) => w.status !== "ENQUEUED") && shared.some((w) => w.executorId === "w2" && w.status === "PENDING");
    }, 60_000);
    // The run waits for w1: listed once, queued, owned by w1.
    expect.soft(await runs()).toEqual([expect.objectContaining({ id, status: "ENQUEUED", worker: "w1" })]);
    await sweep.close();

    // w1 serves again: the run finishes there, from the steps it recorded.
    writeFileSync(gate, "");
    const back = worker("w1");
    await back.serving();
    let [run] = await runs();
    await eventually(async () => {
      [run] = await runs();
      return run !== undefined && run.status !== "ENQUEUED" && run.status !== "PENDING";
    });
    expect(run).toMatchObject({ id, status: "SUCCESS", outcome: "green", worker: "w1", green: ["S1", "S2"] });
    expect(stepCommits(join(work, "w1", id), "plan/p0").map((c) => c.replace(/^p0\//, ""))).toEqual(["S1/a1/commit", "S2/a1/commit"]);
    // w2 never ran a step of it: no event of the run on its stdout. The dispatcher w2 took after
    // the recovery only waited for the run, and ends once it has.
    expect(w2.lines.filter((l) => l.includes(id))).toEqual([]);
    await eventually(async () => (await client.getWorkflow(dispatchIdOf(id)))?.status === "SUCCESS", 60_000);
    expect(await client.getWorkflow(dispatchIdOf(id))).toMatchObject({ executorId: "w2", output: id });
    // Enqueued again, it is the same run, listed once.
    expect(await enqueue()).toEqual(expect.objectContaining({ id, existed: true }));
    expect((await runs()).map((r) => r.id)).toEqual([id]);

    back.child.kill("SIGINT");
    w2.child.kill("SIGINT");
    expect((await back.done).code).toBe(0);
    expect((await w2.done).code).toBe(0);
  }, 300_000);

  it("a run whose dispatcher was cancelled is enqueued again as its next attempt, and decay enqueue names the run it follows", async () => {
    const repo = await plansRepo(1);
    await (await launchAs("operator")).close();
    const enqueue = (...json: string[]) => decay(["enqueue", "docs/p0.plan.md", "--repo", repo, "--database-url", pg.url, ...json], repo);
    const first = await enqueue("--json");
    expect(first.code, first.stderr).toBe(0);
    const { id } = JSON.parse(first.stdout) as { id: string };
    const operator = await DBOSClient.create({ systemDatabaseUrl: pg.url });
    try {
      await operator.cancelWorkflow(dispatchIdOf(id));
    } finally {
      await operator.destroy();
    }
    const again = await enqueue();
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toBe(`${id}-r2: enqueued; it runs again ${id}, which ended with a fault\n`);
    const json = await enqueue("--json");
    const value: unknown = JSON.parse(json.stdout);
    expectSchemaValid(value);
    expect(value).toMatchObject({ id: `${id}-r2`, existed: true, retried: [id] });
  }, 120_000);
});
