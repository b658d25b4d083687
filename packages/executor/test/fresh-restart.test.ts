// A run killed at any step and then started afresh (no replay: progress derived by preflight) must
// never count a stage done whose execute rewrote its own acceptance and was killed before the run
// checked it (or reverted it).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Killed, killAfter, recordingRunner } from "../src/entries/testing.js";
import { runPlan, scriptTable } from "../src/index.js";
import { contractOf, git, makeRepo, nodeOptions, planOf } from "./harness.js";

const CHECK = "grep -q alpha src/a.txt\n";
const PLAN = planOf([["a", ["`sh test/check.sh` exits 0"]]]);
// The execute writes the wrong word and guts the test that would catch it.
const SCRIPT = scriptTable({ "S1 execute": { edit: { "src/a.txt": "wrong\n", "test/check.sh": "exit 0\n" } } });

describe("a fresh start after a kill at any step", () => {
  it("never reports a stage green whose execute rewrote its acceptance and was not yet checked", async () => {
    const straightRepo = await makeRepo({ "test/check.sh": CHECK });
    const recorder = recordingRunner();
    const straight = await runPlan(await contractOf(straightRepo, PLAN), nodeOptions(straightRepo, SCRIPT, { runner: recorder }));
    expect(straight._unsafeUnwrap().status).not.toBe("green");
    const wrong: string[] = [];
    let escalatedAtStart = 0;
    for (let k = 1; k <= recorder.log.length; k += 1) {
      const repo = await makeRepo({ "test/check.sh": CHECK });
      const contract = await contractOf(repo, PLAN);
      await expect(runPlan(contract, nodeOptions(repo, SCRIPT, { runner: killAfter(k) }))).rejects.toBeInstanceOf(Killed);
      const again = (await runPlan(contract, nodeOptions(repo, SCRIPT)))._unsafeUnwrap();
      const s1 = again.stages[0];
      if (again.status === "green" || s1?.state === "green-at-start" || s1?.state === "green") {
        wrong.push(`killed after step ${k} (${recorder.log[k - 1]?.name}): ${again.status}, S1 ${s1?.state}`);
      }
      if (s1?.state === "escalated" && s1.reason?.includes("in commits no run checked")) escalatedAtStart += 1;
    }
    expect(wrong).toEqual([]);
    // The kills that left the gutted test committed and unchecked are the ones this guards.
    expect(escalatedAtStart).toBeGreaterThan(0);
  }, 600_000);

  it("a stage still red at the start is escalated, not resumed over the test its killed execute weakened", async () => {
    const strict = 'grep -qx "sum 3" out.txt\n';
    const weak = "grep -q sum out.txt\n";
    const plan = planOf([["sum", ["`sh test/sum.sh` exits 0"]]]);
    // The first execute weakens the test and writes a wrong answer that fails even the weak one;
    // the second writes an answer only the weak test takes.
    const first = scriptTable({ "S1 execute": { edit: { "test/sum.sh": weak, "out.txt": "nothing\n" } } });
    const second = scriptTable({ "S1 execute": { edit: { "out.txt": "sum 42\n" } } });
    const probeRepo = await makeRepo({ "test/sum.sh": strict });
    const probe = recordingRunner();
    await runPlan(await contractOf(probeRepo, plan), nodeOptions(probeRepo, first, { runner: probe }));
    const k = probe.log.findIndex((s) => s.name === "S1/a1/surface");
    expect(k).toBeGreaterThan(0);
    const repo = await makeRepo({ "test/sum.sh": strict });
    const contract = await contractOf(repo, plan);
    // Killed after the execute's commit, before its surface check.
    await expect(runPlan(contract, nodeOptions(repo, first, { runner: killAfter(k) }))).rejects.toBeInstanceOf(Killed);
    expect(git(repo, "show", "HEAD:test/sum.sh")).toBe(weak.trim());
    const again = (await runPlan(contract, nodeOptions(repo, second)))._unsafeUnwrap();
    expect(again.status).not.toBe("green");
    expect(again.stages[0]?.state).toBe("escalated");
    expect(again.stages[0]?.reason).toMatch(/in commits no run checked \(1 file: test\/sum\.sh: edited\): its work is not resumed/);
  });

  it("a test fixed by hand after a run that ended is not held against a stage when a later run is killed early", async () => {
    const plan = planOf([
      ["one", ["`sh test/one.sh` exits 0"]],
      ["sum", ["`sh test/sum.sh` exits 0"]],
    ]);
    const files = { "test/one.sh": "grep -q one one.txt\n", "test/sum.sh": 'grep -qx "sum 3" out.txt\n' };
    // The first run ends: S1 green, S2's execute writes 4 and nothing makes it 3.
    const first = scriptTable({ "S1 execute": { edit: { "one.txt": "one\n" } }, "S2 execute": { edit: { "out.txt": "sum 4\n" } } });
    const then = scriptTable({ "S2 execute": { edit: { "out.txt": "sum 4\n" } } });
    const endedThenEdited = async () => {
      const repo = await makeRepo(files);
      const contract = await contractOf(repo, plan);
      expect((await runPlan(contract, nodeOptions(repo, first)))._unsafeUnwrap().status).not.toBe("green");
      // The person decides the plan was wrong: the answer is 4. Their commit, on the run's branch.
      writeFileSync(join(repo, "test/sum.sh"), 'grep -qx "sum 4" out.txt\n');
      git(repo, "commit", "-qam", "the sum is 4");
      return { repo, contract };
    };
    const probed = await endedThenEdited();
    const probe = recordingRunner();
    await runPlan(probed.contract, nodeOptions(probed.repo, then, { runner: probe }));
    // Every kill from the claim to the preflight, where the next run decides what counts.
    const from = probe.log.findIndex((s) => s.name === "claim") + 1;
    const to = probe.log.findIndex((s) => s.name === "preflight-surface");
    expect(to).toBeGreaterThan(from);
    for (let k = from; k <= to; k += 1) {
      const { repo, contract } = await endedThenEdited();
      await expect(runPlan(contract, nodeOptions(repo, then, { runner: killAfter(k) }))).rejects.toBeInstanceOf(Killed);
      const again = (await runPlan(contract, nodeOptions(repo, then)))._unsafeUnwrap();
      expect([k, again.status, again.stages.map((s) => s.state)]).toEqual([k, "green", ["green-at-start", "green-at-start"]]);
    }
  }, 600_000);

  it("after a run that ended, a test edited since is someone's own work: the stage counts green at the start", async () => {
    const repo = await makeRepo({ "test/check.sh": CHECK });
    const contract = await contractOf(repo, PLAN);
    const good = scriptTable({ "S1 execute": { edit: { "src/a.txt": "alpha\n" } } });
    expect((await runPlan(contract, nodeOptions(repo, good)))._unsafeUnwrap().status).toBe("green");
    const again = (await runPlan(contract, nodeOptions(repo, good)))._unsafeUnwrap();
    expect([again.status, again.stages[0]?.state]).toEqual(["green", "green-at-start"]);
    // A person tightens the test on the run's branch and runs the plan again.
    writeFileSync(join(repo, "test/check.sh"), "grep -qx alpha src/a.txt\n");
    git(repo, "commit", "-qam", "tighten the check");
    const third = (await runPlan(contract, nodeOptions(repo, good)))._unsafeUnwrap();
    expect([third.status, third.stages[0]?.state]).toEqual(["green", "green-at-start"]);
  });
});
