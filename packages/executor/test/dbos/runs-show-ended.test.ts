// `decay runs show ID` of a run that ended with no outcome of its own, on a real Postgres: its
// workflow failed (a worker's ports threw), or it was cancelled before a worker started it. Each is
// a fault (exit 2) with its reason, as a run that ended with a fault is, never a quiet exit 0.
import { renderContract } from "@decay/contract";
import { DBOSClient } from "@dbos-inc/dbos-sdk";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../../test-utils/tmp.js";
import { dbosRunner, dispatchIdOf, type RunJob, runIdOf } from "../../src/entries/dbos.js";
import { decay } from "../cli-process.js";
import { contractOf, makeRepo, planOf } from "../harness.js";
import { expectSchemaValid, fleetSuite } from "./fleet-harness.js";

const { db } = fleetSuite();

const PLAN = planOf([["a", ["`sh bin/show.sh a` exits 0 and prints `alpha`"]]]);

/** `decay runs show ID`, for people and with --json. */
async function shown(id: string, cwd: string) {
  return {
    text: await decay(["runs", "show", id, "--database-url", db.url], cwd),
    json: await decay(["runs", "show", id, "--json", "--database-url", db.url], cwd),
  };
}

describe("decay runs show of a run that ended with no outcome", () => {
  it("says why its workflow failed or that it was cancelled, and exits 2", async () => {
    const work = await tempDir("decay-runs-ended-");
    const repo = await makeRepo({ "README.md": "r\n" });
    const contract = await contractOf(repo, PLAN);
    const job: RunJob = { contract: renderContract(contract), repo, base: null, plan: contract.plan, settings: {} };
    // A worker whose ports cannot be built: the run's workflow throws.
    const cannot = (): never => {
      throw new Error("this worker cannot build ports");
    };
    const runner = dbosRunner({ databaseUrl: db.url, executorId: "broken", appVersion: "v1", ports: cannot });
    const failed = await runner.run(job);
    await runner.close();
    const id = runIdOf(job);
    expect(failed._unsafeUnwrapErr()).toMatchObject({ code: "run-failed", id });

    const errored = await shown(id, work);
    expect(errored.text.code).toBe(2);
    expect(errored.text.stdout).toContain("status: ERROR\n");
    expect(errored.text.stdout).toContain("fault: its workflow failed: this worker cannot build ports\n");
    expect(errored.text.stderr).toContain(`decay: run ${id} failed: its workflow failed: this worker cannot build ports\n`);
    expect(errored.json.code).toBe(2);
    const lines = errored.json.stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    const value: unknown = JSON.parse(lines[0] as string);
    expectSchemaValid(value);
    expect(value).toMatchObject({ id, status: "ERROR", result: null, failure: "its workflow failed: this worker cannot build ports" });

    // Enqueued, then its dispatcher cancelled before any worker took it.
    const out = await decay(["enqueue", "docs/demo.plan.md", "--repo", repo, "--budget", "2", "--database-url", db.url, "--json"], repo);
    expect(out.code, out.stderr).toBe(0);
    const queued = (JSON.parse(out.stdout) as { id: string }).id;
    const client = await DBOSClient.create({ systemDatabaseUrl: db.url });
    try {
      await client.cancelWorkflow(dispatchIdOf(queued));
    } finally {
      await client.destroy();
    }
    const cancelled = await shown(queued, work);
    expect(cancelled.text.code).toBe(2);
    expect(cancelled.text.stdout).toContain("status: CANCELLED\n");
    expect(cancelled.text.stdout).toContain("fault: it was cancelled before a worker started it\n");
    expect(cancelled.json.code).toBe(2);
    expect(JSON.parse(cancelled.json.stdout)).toMatchObject({ id: queued, status: "CANCELLED", failure: "it was cancelled before a worker started it" });

    // The listing reads both, as ever: it judges no run.
    const listed = await decay(["runs", "--database-url", db.url], work);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain(`${id}  error  broken`);
    expect(listed.stdout).toContain(`${queued}  cancelled  -`);
  }, 120_000);
});
