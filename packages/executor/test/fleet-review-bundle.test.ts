// A fleet run whose `--bundle` step failed after the run reported green, on a real Postgres: the
// listing shows the fault (never "green" alone), `decay runs show` prints its sentence and exits
// 2, and the worker says it on its log.
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../test-utils/tmp.js";
import type { RunSummary } from "../src/entries/dbos.js";
import { decay } from "./cli-process.js";
import { fleetRuns, fleetSuite, fleetWorker, plansRepo } from "./dbos/fleet-harness.js";
import { COUNTING_AGENT } from "./dbos/helpers.js";

const { db, started } = fleetSuite();

describe("fleet: a failed --bundle step", () => {
  it("is shown by decay runs and runs show (exit 2) and logged by the worker", async () => {
    const work = await tempDir("decay-review-bundle-");
    const repo = await plansRepo(1);
    const [log, script, blocker] = [join(work, "agent.log"), join(work, "script.json"), join(work, "not-a-dir")];
    writeFileSync(script, JSON.stringify({ "S1 execute": { edit: { "src/a.txt": "alpha\n" } }, "S2 execute": { edit: { "src/b.txt": "beta\n" } } }));
    writeFileSync(log, "");
    const agent = `${process.execPath} ${COUNTING_AGENT} ${log} ${script}`;
    const w = fleetWorker(db.url, started, work, "wb", agent, ["--bundle", join(blocker, "bundles")]);
    await w.serving();
    // The worker made its bundle directory at start; it goes away under the running worker.
    rmSync(blocker, { recursive: true });
    writeFileSync(blocker, "a file, so no directory can be made under it\n");

    const queued = await decay(["enqueue", "docs/p0.plan.md", "--repo", repo, "--database-url", db.url, "--json"], repo);
    expect(queued.code, queued.stderr).toBe(0);
    const { id } = JSON.parse(queued.stdout) as { id: string };
    let run: RunSummary | undefined;
    for (let waited = 0; waited < 180_000 && run?.status !== "SUCCESS"; waited += 1000) {
      await new Promise((r) => setTimeout(r, 1000));
      run = (await fleetRuns(db.url, work)).find((r) => r.id === id);
    }
    // The run reported green, then its bundle step failed: the fault is its outcome.
    expect(run).toMatchObject({ status: "SUCCESS", outcome: "workspace-io", green: ["S1", "S2"] });

    const listed = await decay(["runs", "--database-url", db.url], work);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(`${id}  success (workspace-io)`);
    expect(listed.stdout).not.toContain("(green)");

    const shown = await decay(["runs", "show", id, "--database-url", db.url], work);
    expect(shown.code).toBe(2);
    expect(shown.stdout).toMatch(/^fault: .*not-a-dir\/bundles: .*\(after the run reported green: the branch was not bundled\)$/m);
    expect(shown.stderr).toMatch(new RegExp(`^decay: run ${id}: .*not-a-dir/bundles: `, "m"));
    const json = await decay(["runs", "show", id, "--json", "--database-url", db.url], work);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({ outcome: "workspace-io", result: { fault: { code: "workspace-io" }, bundle: null } });

    w.child.kill("SIGINT");
    const ended = await w.done;
    expect(ended.code).toBe(0);
    const said = ended.stderr
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as { level: string; message: string })
      .filter((l) => l.level === "error" && l.message.startsWith(`run ${id}: `));
    expect(said).toHaveLength(1);
    expect(said[0]?.message).toMatch(/not-a-dir\/bundles: .* after it reported green; its branch plan\/p0 was not bundled$/);
  }, 300_000);
});

describe("fleet: the database password", () => {
  it("never reaches the worker's log, in DBOS's own lines either, whichever form the URL gives it", async () => {
    const work = await tempDir("decay-review-secret-");
    const w = fleetWorker(`${db.url}?password=s3cret-q`, started, work, "ws", `${process.execPath} ${COUNTING_AGENT} ${join(work, "a.log")}`);
    await w.serving();
    w.child.kill("SIGINT");
    const ended = await w.done;
    expect(ended.code).toBe(0);
    expect(ended.stderr).toContain("password=***");
    expect(ended.stderr).not.toContain("s3cret-q");
  }, 120_000);
});
