import { describe, expect, it } from "vitest";
import { type RunReport, runPlan, scriptTable } from "../src/index.js";
import { Killed, killAfter, recordingRunner, replayRunner } from "../src/entries/testing.js";
import { contractOf, makeRepo, nodeOptions, outcome, planOf } from "./harness.js";

// One stage that goes red, is frozen, diagnosed, adjudicated and fixed: every kind of step.
const PLAN = planOf([["b", ["`sh bin/show.sh b` exits 0 and prints `beta`"]]]);
const SCRIPT = scriptTable({
  "S1 execute": { edit: { "src/b.txt": "bet\n" } },
  "S1 fix": { edit: { "src/b.txt": "beta\n" } },
});

/** The report with commit ids and wall time taken out: what must not depend on when the run ran. */
function comparable(report: RunReport): unknown {
  const text = JSON.stringify({ ...report, cost: { ...report.cost, wall_ms: 0 } });
  return JSON.parse(text.replace(/[0-9a-f]{40}/g, "<commit>"));
}

async function fresh() {
  const repo = await makeRepo({ "README.md": "r\n" });
  return { repo, contract: await contractOf(repo, PLAN) };
}

describe("runPlan under a durable runner", () => {
  it("replays recorded steps after a kill in any step and reaches the uninterrupted report", async () => {
    const base = await fresh();
    const recorder = recordingRunner();
    const straight = await runPlan(base.contract, nodeOptions(base.repo, SCRIPT, { runner: recorder }));
    expect(straight.isOk()).toBe(true);
    const expected = comparable(straight._unsafeUnwrap());
    const steps = recorder.log.length;
    expect(steps).toBeGreaterThan(15);
    for (let k = 1; k <= steps; k++) {
      const { repo, contract } = await fresh();
      const dying = killAfter(k);
      await expect(runPlan(contract, nodeOptions(repo, SCRIPT, { runner: dying }))).rejects.toBeInstanceOf(Killed);
      const again = await runPlan(contract, nodeOptions(repo, SCRIPT, { runner: replayRunner(dying.log) }));
      expect(again.isOk(), `resumed after a kill in step ${k}`).toBe(true);
      expect(comparable(again._unsafeUnwrap()), `kill in step ${k} (${recorder.log[k - 1]?.name})`).toEqual(expected);
    }
  }, 240_000);

  it("after a kill in any step, a new run with no replay derives progress by preflight and ends the same", async () => {
    const base = await fresh();
    const recorder = recordingRunner();
    const straight = (await runPlan(base.contract, nodeOptions(base.repo, SCRIPT, { runner: recorder })))._unsafeUnwrap();
    for (let k = 1; k <= recorder.log.length; k += 1) {
      const { repo, contract } = await fresh();
      await expect(runPlan(contract, nodeOptions(repo, SCRIPT, { runner: killAfter(k) }))).rejects.toBeInstanceOf(Killed);
      const again = await runPlan(contract, nodeOptions(repo, SCRIPT));
      expect(again.isOk(), `restart after a kill in step ${k}: ${JSON.stringify(again.isErr() && again.error)}`).toBe(true);
      expect(outcome(again._unsafeUnwrap()), `kill in step ${k} (${recorder.log[k - 1]?.name})`).toEqual(outcome(straight));
    }
  }, 240_000);
});
