// What a `decay worker` hands the runs it serves, on a real Postgres: its --pattern-timeout-ms is
// the bound on their acceptance regexes, and a spares directory in its $TMPDIR it may not use is a
// warning on its stderr (none when the spares are used).
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../../test-utils/tmp.js";
import type { RunSummary } from "../../src/entries/dbos.js";
import { cleanEnv, decay } from "../cli-process.js";
import { git, makeRepo, planOf, roomsDir, squatSpares, writeFiles } from "../harness.js";
import { fleetRuns, fleetSuite, fleetWorker, gatedAgent, plansRepo } from "./fleet-harness.js";
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

/**
 * The warnings of a worker's log about spare rooms (DBOS warns on the same log of its own matters,
 * such as a dispatcher still finishing at shutdown).
 */
const sparesWarnings = (stderr: string) => logged(stderr, "warn").filter((l) => /spare/i.test(l.message));

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

describe("decay worker --clean-room worktree: the spares directory in its $TMPDIR", () => {
  it("when another user holds it, is never used, and the worker says so on stderr once for each run; the runs still go green", async () => {
    const work = await tempDir("decay-worker-spares-");
    const repo = await plansRepo(2);
    const tmp = await roomsDir();
    const squat = squatSpares(tmp);
    const { gate, agent } = gatedAgent(work);
    writeFileSync(gate, "");
    const w = fleetWorker(db.url, started, work, "wsq", agent, ["--queue", "q-squat", "--clean-room", "worktree"], cleanEnv({ TMPDIR: tmp }));
    await w.serving();

    for (const plan of ["docs/p0.plan.md", "docs/p1.plan.md"]) {
      const id = await enqueued(repo, plan, "q-squat");
      expect(await ended(id, work)).toMatchObject({ status: "SUCCESS", outcome: "green", green: ["S1", "S2"] });
    }
    expect(readdirSync(squat.dir)).toEqual([]);

    w.child.kill("SIGINT");
    const done = await w.done;
    expect(done.code).toBe(0);
    // Each run builds its rooms on the worker afresh, so each says it once.
    const warning = {
      worker: "wsq",
      level: "warn",
      message: `${squat.dir} cannot hold spare worktree rooms: ${squat.why}; each worktree room is checked out afresh instead; to keep spares, set $TMPDIR to a directory of your own`,
    };
    expect(sparesWarnings(done.stderr)).toEqual([warning, warning]);
  }, 300_000);

  it("when it is the worker's own, holds the run's spare afterwards, and the worker warns of nothing", async () => {
    const work = await tempDir("decay-worker-spares-");
    const repo = await plansRepo(1);
    const tmp = await roomsDir();
    const { gate, agent } = gatedAgent(work);
    writeFileSync(gate, "");
    const w = fleetWorker(db.url, started, work, "wown", agent, ["--queue", "q-own", "--clean-room", "worktree"], cleanEnv({ TMPDIR: tmp }));
    await w.serving();

    const id = await enqueued(repo, "docs/p0.plan.md", "q-own");
    expect(await ended(id, work)).toMatchObject({ status: "SUCCESS", outcome: "green", green: ["S1", "S2"] });
    w.child.kill("SIGINT");
    const done = await w.done;
    expect(done.code).toBe(0);
    expect(sparesWarnings(done.stderr)).toEqual([]);
    // The run's rooms were parked and claimed there: its last room is the spare it leaves.
    const spares = join(tmp, `decay-spares-${process.getuid?.()}`);
    const [kept, ...more] = readdirSync(spares);
    expect(more).toEqual([]);
    expect(readdirSync(join(spares, kept as string))).toEqual(["spare-0"]);
  }, 300_000);
});
