// Shared by the fleet tests: `decay worker` processes on one Postgres, `decay runs --json` read
// back (every line checked against the shipped JSON Schemas), and killing what a killed worker's
// agents left running.
import type { ChildProcess } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { outputProblems } from "../../../../test-utils/json-schema.js";
import { type Postgres, startPostgres } from "../../../../test-utils/postgres.js";
import { ended } from "../../../../test-utils/process.js";
import type { RunSummary } from "../../src/entries/dbos.js";
import { decay, type Ran, start } from "../cli-process.js";
import { git, makeRepo, planOf, writeFiles } from "../harness.js";
import { COUNTING_AGENT, type Entry, until } from "./helpers.js";

const PLAN = planOf([
  ["a", ["`sh bin/show.sh a` exits 0 and prints `alpha`"]],
  ["b", ["`sh bin/show.sh b` exits 0 and prints `beta`"]],
]);

/**
 * Registers a fleet test file's fixtures: one Postgres for its tests (`db.url` once started) and
 * `started`, the workers a test starts, each killed after that test whatever its outcome.
 */
export function fleetSuite(): { db: { readonly url: string }; started: ChildProcess[] } {
  let pg: Postgres | undefined;
  const db = {
    get url(): string {
      if (pg === undefined) throw new Error("the fleet suite's Postgres is not started yet");
      return pg.url;
    },
  };
  const started: ChildProcess[] = [];
  beforeAll(async () => {
    pg = await startPostgres();
  });
  afterAll(async () => {
    await pg?.stop();
  });
  afterEach(() => {
    for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  });
  return { db, started };
}

/** A source repository holding `count` copies of a two-stage plan, `docs/p0.plan.md`…, committed. */
export async function plansRepo(count: number): Promise<string> {
  const repo = await makeRepo({ "README.md": "r\n" });
  writeFiles(repo, Object.fromEntries(Array.from({ length: count }, (_, k) => [`docs/p${k}.plan.md`, PLAN])));
  git(repo, "add", "-A");
  git(repo, "commit", "-q", "-m", `${count} plans`);
  return repo;
}

/**
 * The counting agent (log `<work>/agent.log`) answering the plan's two stages, S2's execute call
 * blocked until the file `gate` exists: workers can be killed inside it.
 */
export function gatedAgent(work: string): { readonly log: string; readonly gate: string; readonly agent: string } {
  const [log, gate, script] = [join(work, "agent.log"), join(work, "gate"), join(work, "script.json")];
  writeFileSync(
    script,
    JSON.stringify({ "S1 execute": { edit: { "src/a.txt": "alpha\n" } }, "S2 execute": { edit: { "src/b.txt": "beta\n" }, waitForFile: gate } }),
  );
  writeFileSync(log, "");
  return { log, gate, agent: `${process.execPath} ${COUNTING_AGENT} ${log} ${script}` };
}

/** The package's shipped JSON Schemas: every --json line names one of them in `$schema`. */
const SCHEMAS = fileURLToPath(new URL("../../schemas", import.meta.url));

/** `value` (a --json line) has no problem against the schema its `$schema` names. */
export function expectSchemaValid(value: unknown): void {
  expect(outputProblems(value, SCHEMAS)).toEqual([]);
}

/** A `decay worker` process: its command line, its stdout lines, and a wait until it serves. */
export interface FleetWorker {
  readonly child: ChildProcess;
  readonly done: Promise<Ran>;
  readonly args: string[];
  readonly lines: string[];
  serving(): Promise<void>;
}

/**
 * Start `decay worker` with executor id `id` on the database at `url` (workspace `<work>/<id>`,
 * concurrency 2, app version `version`), in `env` (default `cleanEnv()`); `started` collects the
 * child so the test can kill it whatever the outcome.
 */
export function fleetWorker(
  url: string,
  started: ChildProcess[],
  work: string,
  id: string,
  agent: string,
  extra: string[] = [],
  env?: Record<string, string>,
  version = "v1",
): FleetWorker {
  const lines: string[] = [];
  const args = [
    "worker",
    "--database-url",
    url,
    "--executor-id",
    id,
    "--app-version",
    version,
    "--workspace",
    join(work, id),
    "--concurrency",
    "2",
    "--agent",
    agent,
    ...extra,
  ];
  const w = start(args, work, (l) => lines.push(l), env);
  started.push(w.child);
  let exit: Ran | null = null;
  let stderr = "";
  w.child.stderr?.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
  void w.done.then((r) => (exit = r));
  const serving = async () => {
    await until(() => exit !== null || lines.some((l) => l.includes('"serving"')), 60_000).catch(() => {
      const shown = stderr
        .split("\n")
        .filter((l) => !l.includes("Ignoring migration"))
        .join("\n");
      throw new Error(`worker ${id} is not serving after 60 s: ${shown}`);
    });
    if (exit !== null) throw new Error(`worker ${id} exited ${(exit as Ran).code}: ${(exit as Ran).stderr}`);
  };
  return { ...w, args, lines, serving };
}

/** Every run `decay runs --json` lists, each line valid against its schema. */
export async function fleetRuns(url: string, cwd: string): Promise<RunSummary[]> {
  const out = await decay(["runs", "--json", "--database-url", url], cwd);
  if (out.code !== 0) throw new Error(out.stderr);
  return out.stdout
    .trim()
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => {
      const run: unknown = JSON.parse(l);
      expectSchemaValid(run);
      return run as RunSummary;
    });
}

/** A SIGKILL takes a machine's agents with it: kill the process group of every agent call `calls` started. */
export async function killAgents(calls: readonly Entry[]): Promise<void> {
  for (const e of calls) {
    try {
      process.kill(-e.pid, "SIGKILL");
    } catch {
      // That call had ended.
    }
    expect(await ended(e.pid)).toBe(true);
  }
}

/** The lines of a worker's stderr log at `level` (DBOS's own lines included). */
export function logged(stderr: string, level: string): Array<{ worker: string; level: string; message: string }> {
  return stderr
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as { worker: string; level: string; message: string })
    .filter((l) => l.level === level);
}
