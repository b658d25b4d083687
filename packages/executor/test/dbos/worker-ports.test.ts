// What a `decay worker` hands the runs it serves, on a real Postgres: its --pattern-timeout-ms is
// the bound on their acceptance regexes.
import { writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../../test-utils/tmp.js";
import type { RunSummary } from "../../src/entries/dbos.js";
import { decay } from "../cli-process.js";
import { git, makeRepo, planOf, writeFiles } from "../harness.js";
import { fleetRuns, fleetSuite, fleetWorker, gatedAgent } from "./fleet-harness.js";
import { eventually } from "./helpers.js";

const { db, started } = fleetSuite();

/** Enqueue `plan` of `repo` on `queue`; its run id. */
async function enqueued(repo: string, plan: string, queue: string): Promise<string> {
  const out = await decay(["enqueue", plan, "--repo", repo, "--queue", queue, "--database-url", db.url, "--json"], repo);
  expect(out.code, out.stderr).toBe(0);
  return (JSON.parse(out.stdout) as { id: string }).id;
}

/** The run `id` once it has ended (no longer ENQUEUED or PENDING). */
async function ended(id: string, cwd: string): Promise<RunSummary> {
  let run: RunSummary | undefined;
  await eventually(async () => {
    run = (await fleetRuns(db.url, cwd)).find((r) => r.id === id);
    return run !== undefined && run.status !== "ENQUEUED" && run.status !== "PENDING";
  });
  return run as RunSummary;
}

/** The lines of a worker's stderr log at `level`. */
const logged = (stderr: string, level: string) =>
  stderr
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as { worker: string; level: string; message: string })
    .filter((l) => l.level === level);

const EVIL = "^(a|a)*$";

describe("decay worker --pattern-timeout-ms", () => {
  it("stops a backtracking acceptance regex of a run it serves at that bound: the run's fault names it", async () => {
    const work = await tempDir("decay-worker-pattern-");
    const repo = await makeRepo({});
    writeFiles(repo, { "docs/evil.plan.md": planOf([["evil", [`\`printf ${"a".repeat(40)}b\` exits 0 and matches /${EVIL}/`]]]) });
    git(repo, "add", "-A");
    git(repo, "commit", "-q", "-m", "evil plan");
    const { gate, agent } = gatedAgent(work);
    writeFileSync(gate, "");
    const w = fleetWorker(db.url, started, work, "wp", agent, ["--queue", "q-pattern", "--pattern-timeout-ms", "300"]);
    await w.serving();

    const id = await enqueued(repo, "docs/evil.plan.md", "q-pattern");
    expect(await ended(id, work)).toMatchObject({ status: "SUCCESS", outcome: "pattern-timeout", worker: "wp" });
    const sentence = `acceptance row S1.1: matching /${EVIL}/ against the command's output took longer than 300 ms and was stopped, so the row has no verdict; simplify the pattern (it backtracks)`;
    const shown = await decay(["runs", "show", id, "--database-url", db.url], work);
    expect(shown.code).toBe(2);
    expect(shown.stdout).toContain(`\nfault: ${sentence}\n`);

    w.child.kill("SIGINT");
    const done = await w.done;
    expect(done.code).toBe(0);
    expect(logged(done.stderr, "error").filter((l) => l.message.startsWith(`run ${id}: `))).toEqual([
      { worker: "wp", level: "error", message: `run ${id}: ${sentence}` },
    ]);
  }, 300_000);
});
