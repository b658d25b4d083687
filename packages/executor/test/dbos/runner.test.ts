// dbosRunner in this process over a real Postgres: a run ends as under the in-memory runner, every
// runPlan step is a recorded DBOS step, and the same run started twice runs once. (Embedded mode,
// PGlite, is exercised end to end by durable-cli.test.ts.)
import { renameSync } from "node:fs";
import { renderContract } from "@decay/contract";
import { DBOS } from "@dbos-inc/dbos-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Postgres, startPostgres } from "../../../../test-utils/postgres.js";
import { scriptTable } from "../../src/index.js";
import {
  DEFAULT_QUEUE,
  DISPATCH_NAME,
  dbosClient,
  dbosRunner,
  dispatchIdOf,
  describeDbosFault,
  type RunJob,
  runIdOf,
  workerQueueOf,
} from "../../src/entries/dbos.js";
import { contractOf, makeRepo, nodeOptions, outcome, planOf, run } from "../harness.js";
import { eventually } from "./helpers.js";

const PLAN = planOf([
  ["a", ["`sh bin/show.sh a` exits 0 and prints `alpha`"]],
  ["b", ["`sh bin/show.sh b` exits 0 and prints `beta`"]],
]);
const SCRIPT = scriptTable({
  "S1 execute": { edit: { "src/a.txt": "alpha\n" } },
  "S2 execute": { edit: { "src/b.txt": "bet\n" } },
  "S2 fix": { edit: { "src/b.txt": "beta\n" } },
});

let pg: Postgres;
beforeAll(async () => {
  pg = await startPostgres();
});
afterAll(async () => {
  await pg?.stop();
});

describe("dbosRunner over Postgres", () => {
  it("runs a plan to the in-memory runner's outcome, each step recorded once, and runs a repeated start once", async () => {
    const [a, b] = [await makeRepo({ "README.md": "r\n" }), await makeRepo({ "README.md": "r\n" })];
    const expected = outcome(await run(await contractOf(a, PLAN), nodeOptions(a, SCRIPT)));
    const contract = await contractOf(b, PLAN);
    const job: RunJob = { contract: renderContract(contract), repo: b, base: null, plan: contract.plan, settings: {} };
    let built = 0;
    const runner = dbosRunner({
      databaseUrl: pg.url,
      executorId: "test-1",
      appVersion: "test",
      ports: (_job, dir) => (built++, nodeOptions(dir, SCRIPT)),
    });
    try {
      const first = await runner.run(job);
      if (first.isErr()) throw new Error(describeDbosFault(first.error));
      expect(first.value.fault).toBeNull();
      expect(outcome(first.value.report as never)).toEqual(expected);
      expect(first.value.reportMd).toContain("# ");
      const again = await runner.run(job);
      expect(again._unsafeUnwrap().report).toEqual(first.value.report);
      expect(built).toBe(1);
      const shown = (await runner.status(first.value.id))._unsafeUnwrap();
      expect(shown).toMatchObject({ status: "SUCCESS", worker: "test-1", dir: b, branch: "plan/demo", green: ["S1", "S2"] });
      expect(shown.stepNames[0]).toBe("checkout");
      expect(new Set(shown.stepNames.filter((n) => n !== "checkout")).size).toBeGreaterThan(10);
      expect((await runner.status())._unsafeUnwrap().map((r) => r.id)).toEqual([first.value.id]);
    } finally {
      await runner.close();
    }
  }, 120_000);

  it("a run that ended with a fault is no answer: run, enqueue and a client's enqueue all go on to its next attempt", async () => {
    const repo = await makeRepo({ "README.md": "r\n" });
    const contract = await contractOf(repo, PLAN);
    const job: RunJob = { contract: renderContract(contract), repo, base: null, plan: contract.plan, settings: {} };
    const first = runIdOf(job);
    const runner = dbosRunner({ databaseUrl: pg.url, executorId: "test-3", appVersion: "test", ports: (_job, dir) => nodeOptions(dir, SCRIPT) });
    try {
      // The repository is away during the first attempt: that run ends with a fault.
      renameSync(repo, `${repo}.away`);
      const faulted = await runner.run(job);
      renameSync(`${repo}.away`, repo);
      expect(faulted.isErr() || faulted.value.fault !== null).toBe(true);
      const again = (await runner.run(job))._unsafeUnwrap();
      expect(again.id).toBe(`${first}-r2`);
      expect(again.fault).toBeNull();
      expect((await runner.status(again.id))._unsafeUnwrap()).toMatchObject({ status: "SUCCESS", green: ["S1", "S2"] });
      // The finished second attempt is the answer from now on, joined, never run again.
      expect((await runner.run(job))._unsafeUnwrap().id).toBe(again.id);
      expect((await runner.enqueue(job))._unsafeUnwrap()).toEqual({ id: again.id, existed: true, retried: [first] });
      const client = (await dbosClient({ databaseUrl: pg.url }))._unsafeUnwrap();
      try {
        expect((await client.enqueue(job))._unsafeUnwrap()).toEqual({ id: again.id, existed: true, retried: [first] });
      } finally {
        await client.close();
      }
    } finally {
      await runner.close();
    }
  }, 120_000);

  it("enqueue on a worker: its dispatcher starts the run on this worker's own queue; listed once, by the run id", async () => {
    const repo = await makeRepo({ "README.md": "r\n" });
    const contract = await contractOf(repo, PLAN);
    const job: RunJob = { contract: renderContract(contract), repo, base: null, plan: contract.plan, settings: {} };
    const runner = dbosRunner({
      databaseUrl: pg.url,
      executorId: "test-2",
      appVersion: "test",
      queue: { workerConcurrency: 1 },
      ports: (_job, dir) => nodeOptions(dir, SCRIPT),
    });
    try {
      (await runner.worker())._unsafeUnwrap();
      const { id } = (await runner.enqueue(job))._unsafeUnwrap();
      expect(id).toBe(runIdOf(job));
      expect((await runner.enqueue(job))._unsafeUnwrap()).toEqual({ id, existed: true, retried: [] });
      // The dispatcher ends after the run it waits for.
      await eventually(async () => (await DBOS.getWorkflowStatus(dispatchIdOf(id)))?.status === "SUCCESS", 60_000);
      expect((await runner.status(id))._unsafeUnwrap()).toMatchObject({ status: "SUCCESS", worker: "test-2", dir: repo, green: ["S1", "S2"] });
      expect((await DBOS.getWorkflowStatus(id))?.queueName).toBe(workerQueueOf(DEFAULT_QUEUE, "test-2"));
      const listed = (await runner.status())._unsafeUnwrap().map((r) => r.id);
      expect(listed.filter((r) => r === id)).toHaveLength(1);
      // The dispatcher is a workflow of its own, never listed as a run.
      expect((await DBOS.getWorkflowStatus(dispatchIdOf(id)))?.workflowName).toBe(DISPATCH_NAME);
      expect(listed.filter((r) => !/^demo-[0-9a-f]{20}(-r[0-9]+)?$/.test(r))).toEqual([]);
    } finally {
      await runner.close();
    }
  }, 120_000);

  it("closed while a run is in flight: run() is a fault saying so, and a runner launched again finishes the run", async () => {
    const repo = await makeRepo({ "README.md": "r\n" });
    const contract = await contractOf(repo, PLAN);
    const job: RunJob = { contract: renderContract(contract), repo, base: null, plan: contract.plan, settings: {} };
    let entered = (): void => undefined;
    const inCall = new Promise<void>((done) => (entered = done));
    let release = (): void => undefined;
    const held = new Promise<void>((done) => (release = done));
    const options = {
      databaseUrl: pg.url,
      executorId: "test-close",
      appVersion: "test",
      ports: (_job: unknown, dir: string) => {
        const o = nodeOptions(dir, SCRIPT);
        const execute: typeof o.agent.execute = async (request) => {
          entered();
          await held;
          return o.agent.execute(request);
        };
        return { ...o, agent: { ...o.agent, execute } };
      },
    };
    const runner = dbosRunner(options);
    const running = runner.run(job);
    await inCall;
    const closed = runner.close();
    release();
    await closed;
    const out = await running;
    expect(out.isErr() && out.error).toMatchObject({ code: "run-failed", id: runIdOf(job) });
    expect(out.isErr() && describeDbosFault(out.error)).toContain(
      "the runner was closed while the run was in flight: it resumes when a runner of executor test-close and app version test launches",
    );
    const again = dbosRunner({ ...options, ports: (_job: unknown, dir: string) => nodeOptions(dir, SCRIPT) });
    try {
      const finished = (await again.run(job))._unsafeUnwrap();
      expect(finished.id).toBe(runIdOf(job));
      expect(finished.report?.end.green).toEqual(["S1", "S2"]);
    } finally {
      await again.close();
    }
  }, 120_000);

  it("refuses options that would strand runs: no executor id, DBOS's default id, no version, both targets", async () => {
    const ports = () => nodeOptions("/nowhere", SCRIPT);
    const bad = [
      { databaseUrl: pg.url, executorId: "", appVersion: "v1", ports },
      { databaseUrl: pg.url, executorId: "local", appVersion: "v1", ports },
      { databaseUrl: pg.url, executorId: "w1", appVersion: "", ports },
      { databaseUrl: pg.url, embedded: { dataDir: "/tmp/x" }, executorId: "w1", appVersion: "v1", ports },
    ];
    for (const options of bad) {
      const runner = dbosRunner(options as never);
      const out = await runner.worker();
      expect(out._unsafeUnwrapErr().code).toBe("dbos-option-invalid");
      await runner.close();
    }
  });
});
