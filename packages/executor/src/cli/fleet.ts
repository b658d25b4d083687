// The fleet commands over one Postgres: `decay worker` serves the queue, `decay enqueue` puts a
// run on it, `decay runs` reads every run's state from DBOS (never from files on a worker).
import { execFile } from "node:child_process";
import { accessSync, constants, existsSync, mkdirSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { bestEffort } from "@decay/cli-kit";
import { renderContract } from "@decay/contract";
import { err, ok, Result } from "neverthrow";
import { describeExecFault } from "../fault.js";
import { thrown } from "../node/dbos/fault.js";
import { fleetJson } from "../node/dbos/fleet-output.js";
import type { RunDetail, RunSummary } from "../node/dbos/status.js";
import { adaptersFor, agentFor } from "./adapters.js";
import { type Dbos, loadDbos } from "./dbos-load.js";
import type { CliFault } from "./fault.js";
import { type EnqueueFlags, parseFleet, type WorkerFlags } from "./fleet-args.js";
import { type CliIo, say } from "./io.js";
import { agentProgram, loadContract } from "./load.js";

const line = (value: unknown) => `${JSON.stringify(value)}\n`;

type R = Result<number, CliFault>;

const written = (failed: string | null): R => (failed === null ? ok(0) : err({ code: "write-failed", file: "<stdout>", reason: failed }));

/**
 * The directory a worker's flag names (`--workspace`, `--bundle`), made and writable, or the fault
 * naming the flag: a worker that cannot write there would take every run off the queue and end
 * each with a fault, so it refuses to start instead.
 */
function writableDir(io: CliIo, flag: string, dir: string): Result<string, CliFault> {
  const path = resolve(io.cwd, dir);
  try {
    mkdirSync(path, { recursive: true });
    if (!statSync(path).isDirectory()) throw new Error("not a directory");
    accessSync(path, constants.W_OK | constants.X_OK);
    return ok(path);
  } catch (e) {
    return err({ code: "write-failed", file: `${flag} ${dir}`, reason: thrown(e) });
  }
}

/** Serve the queue until interrupted; each run's events go to stdout as NDJSON lines naming the run. */
async function worker(io: CliIo, dbos: Dbos, flags: WorkerFlags): Promise<R> {
  const program = agentProgram(io.cwd, io.env, flags.agent[0] as string);
  if (program.isErr()) return err(program.error);
  const dirs = Result.combine([
    writableDir(io, "--workspace", flags.workspace),
    ...(flags.bundle === undefined ? [] : [writableDir(io, "--bundle", flags.bundle)]),
  ]);
  if (dirs.isErr()) return err(dirs.error);
  const [workspace, bundles] = dirs.value;
  // The runs' adapters stop only once DBOS is shut down: a command or agent call killed by the
  // shutdown returns nothing that can be recorded, so its run resumes at that step. Handed the
  // bin's signal, they were killed while DBOS still recorded steps, and the agent not at all: the
  // worker then waited for the call to end (up to --agent-timeout-ms) before it exited.
  const stop = new AbortController();
  const warn = (message: string) => void bestEffort(io.stderr, line({ worker: flags.executorId, level: "warn", message }));
  const runner = dbos.dbosRunner({
    databaseUrl: flags.databaseUrl,
    executorId: flags.executorId,
    appVersion: flags.appVersion,
    queue: { name: flags.queue, workerConcurrency: flags.concurrency },
    checkout: dbos.gitCheckout(workspace, io.env),
    bundle: bundles === undefined ? undefined : dbos.gitBundle(bundles, io.env),
    ports: (_job, dir, run) => ({
      ...adaptersFor({ ...io, signal: stop.signal }, dir, flags, warn, false),
      agent: agentFor(program.value, flags, io.env, stop.signal),
      onEvent: (event) => void bestEffort(io.stdout, line({ run, ...event })),
    }),
    // DBOS's own log quotes the URL masking only the authority's password: every form is taken out here.
    log: (level, message) => void bestEffort(io.stderr, line({ worker: flags.executorId, level, message })),
  });
  const served = await runner.worker();
  if (served.isErr()) {
    await runner.close();
    return err({ code: "dbos", fault: served.error });
  }
  await say(io, line({ worker: flags.executorId, version: flags.appVersion, serving: flags.queue ?? dbos.DEFAULT_QUEUE }));
  await new Promise<void>((done) => (io.signal?.aborted ? done() : io.signal?.addEventListener("abort", () => done(), { once: true })));
  await runner.close();
  stop.abort();
  return ok(0);
}

/** The commit SOURCE's HEAD points at now: the run's base. */
function remoteHead(io: CliIo, source: string): Promise<Result<string, CliFault>> {
  return new Promise((done) =>
    execFile("git", ["ls-remote", "--", source, "HEAD"], { cwd: io.cwd, env: { ...io.env, GIT_TERMINAL_PROMPT: "0" } }, (e, out, stderr) => {
      const sha = /^([0-9a-f]{40})\s/.exec(String(out))?.[1];
      if (e === null && sha !== undefined) done(ok(sha));
      else done(err({ code: "repo-unreadable", repo: source, reason: `git ls-remote found no HEAD${stderr ? `: ${String(stderr).trim()}` : ""}` }));
    }),
  );
}

async function enqueue(io: CliIo, dbos: Dbos, flags: EnqueueFlags): Promise<R> {
  const local = resolve(io.cwd, flags.repo);
  const source = existsSync(local) ? local : flags.repo;
  const loaded = await loadContract(io.cwd, flags.file, source === local ? local : io.cwd, { includeOptional: flags.includeOptional });
  if (loaded.isErr()) return err(loaded.error);
  const base = await remoteHead(io, source);
  if (base.isErr()) return err(base.error);
  const { contract, planText } = loaded.value;
  const settings = Object.fromEntries(
    Object.entries({
      includeOptional: flags.includeOptional || undefined,
      executeMayEditSurface: flags.executeMayEditSurface || undefined,
      attemptBudget: flags.budget,
      setup: flags.setup,
    }).filter(([, v]) => v !== undefined),
  );
  const job = {
    contract: renderContract(contract),
    planText: planText && new TextDecoder().decode(planText),
    repo: source,
    base: base.value,
    plan: contract.plan,
    settings,
  };
  const client = await dbos.dbosClient({ databaseUrl: flags.databaseUrl, queue: flags.queue });
  if (client.isErr()) return err({ code: "dbos", fault: client.error });
  const out = await client.value.enqueue(job);
  await client.value.close();
  if (out.isErr()) return err({ code: "dbos", fault: out.error });
  const { id, existed, retried } = out.value;
  const last = retried.at(-1);
  const line = existed
    ? `${id}: already enqueued (it runs once)\n`
    : last === undefined
      ? `${id}: enqueued\n`
      : `${id}: enqueued; it runs again ${last}, which ended with a fault\n`;
  return written(await say(io, flags.json ? fleetJson({ id, existed, retried }) : line));
}

/** A run as one line for people. */
export function summaryLine(r: RunSummary): string {
  const green = r.green === null ? `${r.steps} steps` : `green: ${r.green.join(", ") || "none"}`;
  return `${r.id}  ${r.status.toLowerCase()}${r.outcome ? ` (${r.outcome})` : ""}  ${r.worker ?? "-"}  ${r.plan}  ${green}\n`;
}

/**
 * One run in full for people: where its branch is, its steps, the bundle, the fault the run ended
 * with (even after a report, when its `bundle` step failed) and REPORT.md.
 */
export function detailText(d: RunDetail): string {
  const head = [
    `run ${d.id}`,
    `plan: ${d.plan}`,
    `repository: ${d.repo}`,
    `status: ${d.status}${d.outcome ? ` (${d.outcome})` : ""}`,
    `worker: ${d.worker ?? "-"}`,
  ];
  head.push(`branch: ${d.branch ?? "-"} in ${d.dir ?? "-"}`, `steps: ${d.stepNames.length}`);
  if (d.result?.bundle) head.push(`bundle: ${d.result.bundle}`);
  if (d.result?.fault) {
    const after = d.result.report === null ? "" : ` (after the run reported ${d.result.report.status}: the branch was not bundled)`;
    head.push(`fault: ${describeExecFault(d.result.fault)}${after}`);
  } else if (d.failure !== null) head.push(`fault: ${d.failure}`);
  return `${head.join("\n")}\n${d.result?.reportMd ? `\n${d.result.reportMd}` : ""}`;
}

async function runs(io: CliIo, dbos: Dbos, databaseUrl: string, id: string | null, json: boolean): Promise<R> {
  const client = await dbos.dbosClient({ databaseUrl });
  if (client.isErr()) return err({ code: "dbos", fault: client.error });
  const out = id === null ? await client.value.runs() : await client.value.run(id);
  await client.value.close();
  if (out.isErr()) return err({ code: "dbos", fault: out.error });
  const value = out.value;
  if (Array.isArray(value)) return written(await say(io, value.map((r) => (json ? fleetJson(r) : summaryLine(r))).join("")));
  const shown = written(await say(io, json ? fleetJson(value) : detailText(value)));
  // A run that ended with a fault (or whose workflow failed or was cancelled) is shown in full, then
  // its fault decides the exit (2), never 0.
  const fault = value.result?.fault;
  const failed = fault
    ? { code: "run-fault" as const, id: value.id, fault }
    : value.failure === null
      ? null
      : { code: "run-failed" as const, id: value.id, reason: value.failure };
  return shown.andThen((code) => (failed === null ? ok(code) : err<number, CliFault>({ code: "dbos", fault: failed, shown: true })));
}

/** `decay worker|enqueue|runs …`: the exit code, or the fault (every fault is exit 2; `decay`'s main says it). */
export async function fleetCommand(argv: readonly string[], io: CliIo): Promise<R> {
  const inv = parseFleet(argv);
  if (inv.isErr()) return err(inv.error);
  const dbos = await loadDbos();
  if (dbos.isErr()) return err(dbos.error);
  const i = inv.value;
  if (i.command === "worker") return worker(io, dbos.value, i.flags);
  if (i.command === "enqueue") return enqueue(io, dbos.value, i.flags);
  return runs(io, dbos.value, i.databaseUrl, i.id, i.json);
}
