// `decay run --durable DIR` (experimental): the run is a DBOS workflow over PGlite kept in DIR, in
// this process. Killed, the same command started again resumes at the step in flight: finished
// steps are not run again. Ctrl-C stops the process the same way (nothing of the step in flight is
// recorded), so the next start resumes too.
import { resolve } from "node:path";
import { renderContract } from "@decay/contract";
import { bestEffort } from "@decay/cli-kit";
import { err, ok, type Result } from "neverthrow";
import type { ExecFault } from "../fault.js";
import type { DbosFault } from "../node/dbos/fault.js";
import { attemptOf, type RecordedRun, type RunJob, type RunOutcome, recordedRun, runIdOf } from "../node/dbos/job.js";
import type { DbosRunner } from "../node/dbos/runner.js";
import { slugOf } from "../run/paths.js";
import { type GitInvoker, gitInvoker } from "../node/git-process.js";
import { adaptersFor, agentFor } from "./adapters.js";
import type { RunFlags } from "./args.js";
import { loadDbos } from "./dbos-load.js";
import type { CliFault } from "./fault.js";
import { type CliIo, say } from "./io.js";
import { agentProgram, type Loaded } from "./load.js";
import type { Progress, RunProgress } from "./progress.js";
import { ended, progressFor, quoted } from "./run.js";
import { VERSION } from "./version.js";

/** The embedded worker's id: one process per data directory (a lock file), so one fixed id. */
const EMBEDDED_EXECUTOR = "decay-embedded";

/** `git ARGS` in `repo`, through the one git runner: its stdout trimmed, or null when it fails. */
function gitOut(git: GitInvoker, args: readonly string[]): Promise<string | null> {
  return git
    .raw(args)
    .map((o) => (o.exit === 0 ? o.stdout.trim() : null))
    .unwrapOr(null);
}

/**
 * The commit the run starts from, unmoved by the run's own commits: HEAD, unless HEAD is on the
 * run's own branch `own` (a run resumed after a kill or Ctrl-C, or run again); then the commit that
 * branch forked from (the parent of its oldest commit on no other branch; HEAD when it has none).
 * Null when the repository has no commit.
 */
async function baseOf(git: GitInvoker, own: string): Promise<string | null> {
  const head = await gitOut(git, ["rev-parse", "--verify", "--quiet", "HEAD^{commit}"]);
  if (head === null || (await gitOut(git, ["symbolic-ref", "--quiet", "HEAD"])) !== `refs/heads/${own}`) return head;
  const mine = await gitOut(git, ["rev-list", "--first-parent", "--reverse", "HEAD", "--not", `--exclude=${own}`, "--branches"]);
  const oldest = mine?.split("\n").find((l) => l !== "");
  return oldest === undefined ? head : gitOut(git, ["rev-parse", "--verify", "--quiet", `${oldest}^1^{commit}`]);
}

/**
 * The job to start or join: one whose run has not ended with a fault (a faulted run is no final
 * answer, so the same command runs it again as its next attempt, said on stderr).
 */
async function attemptFor(io: CliIo, runner: DbosRunner, job: RunJob): Promise<Result<RunJob, CliFault>> {
  let fault: DbosFault | null = null;
  const look = async (id: string): Promise<RecordedRun> => {
    const detail = await runner.status(id);
    if (detail.isOk()) return recordedRun({ status: detail.value.status, output: detail.value.result });
    if (detail.error.code === "run-unknown") return "absent";
    fault = detail.error;
    // Stops the search: the fault is returned below.
    return "live";
  };
  const tried = await attemptOf(job, look).catch((e: unknown) => e as Error);
  if (tried instanceof Error) return err({ code: "dbos", fault: { code: "run-failed", id: runIdOf(job), reason: tried.message } });
  if (fault !== null) return err({ code: "dbos", fault });
  const last = tried.faulted.at(-1);
  if (last !== undefined) await bestEffort(io.stderr, `decay: the recorded run ${last} ended with a fault; running it again as ${tried.id}\n`);
  return ok(tried.job);
}

/** `decay run … --durable DIR`: the exit code, or the fault. */
export async function durableRun(io: CliIo, flags: RunFlags, argv: readonly string[], repo: string, loaded: Loaded): Promise<Result<number, CliFault>> {
  const dbos = await loadDbos();
  if (dbos.isErr()) return err(dbos.error);
  const program = agentProgram(io.cwd, io.env, flags.agent[0] as string);
  if (program.isErr()) return err(program.error);
  const shown = progressFor(io, flags, loaded);
  // The stage in flight, for the parked event of a Ctrl-C; nothing is shown once it is written.
  let stage = loaded.contract.stages[0]?.id ?? "";
  let showing = true;
  const progress: RunProgress = {
    event(e) {
      if (!showing) return;
      if ("stage" in e) stage = e.stage;
      shown.event(e);
    },
    warn: (text) => shown.warn(text),
    close: () => shown.close(),
  };
  // Adapters are stopped only once DBOS is shut down: what they return after that is never recorded.
  const stop = new AbortController();
  const planText = loaded.planText === undefined ? undefined : new TextDecoder().decode(loaded.planText);
  const { assumptions, includeOptional, budget: attemptBudget, tokenTarget, setup, maxInputBytes: maxReadBytes } = flags;
  // Off is left out, so a run started before the flag existed keeps its identity.
  const executeMayEditSurface = flags.executeMayEditSurface || undefined;
  const settings = Object.fromEntries(
    Object.entries({ assumptions, includeOptional, executeMayEditSurface, attemptBudget, tokenTarget, setup, maxReadBytes }).filter(([, v]) => v !== undefined),
  );
  const runner = dbos.value.dbosRunner({
    embedded: { dataDir: resolve(io.cwd, flags.durable as string) },
    executorId: EMBEDDED_EXECUTOR,
    appVersion: VERSION,
    ports: (_job, dir) => ({
      ...adaptersFor({ ...io, signal: stop.signal }, dir, flags, (text) => progress.warn(text)),
      agent: agentFor(program.value, flags, io.env, stop.signal),
      resumeCommand: `decay ${argv.map(quoted).join(" ")}`,
      onEvent: (e) => progress.event(e),
    }),
  });
  const contract = loaded.contract;
  const base = await baseOf(gitInvoker(repo, io.env), `plan/${slugOf(contract.plan)}`);
  // The agent command and the clean room are inputs of the run as much as its settings are.
  const identity = { agent: JSON.stringify(flags.agent), cleanRoom: flags.cleanRoom };
  const asked: RunJob = { contract: renderContract(contract), planText, repo, base, plan: contract.plan, settings, identity };
  const interrupted = new Promise<"stopped">((done) => io.signal?.addEventListener("abort", () => done("stopped"), { once: true }));
  const job = await Promise.race([attemptFor(io, runner, asked), interrupted]);
  const out =
    job === "stopped" || job.isErr() ? job : await Promise.race([runner.run(job.value).mapErr((fault): CliFault => ({ code: "dbos", fault })), interrupted]);
  await runner.close();
  stop.abort();
  if (out === "stopped") return parked(io, flags, progress, () => (showing = false), stage);
  if (out.isErr()) {
    await progress.close();
    return err(out.error);
  }
  return ended(io, flags, repo, progress, resultOf(out.value));
}

/**
 * Ctrl-C: nothing of the step in flight is recorded and the same command resumes. As without
 * `--durable`, with `--json` stdout ends with a `parked` event (its `resume`: the state directory)
 * and the sentence goes to stderr.
 */
async function parked(io: CliIo, flags: RunFlags, progress: Progress, quiet: () => void, stage: string): Promise<Result<number, CliFault>> {
  const dir = flags.durable as string;
  if (flags.json) progress.event({ type: "parked", stage, resume: dir });
  quiet();
  const broken = await progress.close();
  if (broken !== null) return err({ code: "write-failed", file: "<stdout>", reason: broken });
  const line = `stopped: run the same command again to resume (state in ${dir})\n`;
  if (flags.json) return ok((await bestEffort(io.stderr, line), 1));
  const failed = await say(io, line);
  return failed === null ? ok(1) : err({ code: "write-failed", file: "<stdout>", reason: failed });
}

function resultOf(outcome: RunOutcome): Result<NonNullable<RunOutcome["report"]>, ExecFault> {
  if (outcome.report !== null) return ok(outcome.report);
  return err(outcome.fault ?? { code: "workspace-io", path: outcome.dir, reason: "the run recorded neither a report nor a fault" });
}
