// `decay run --durable DIR` (experimental): the run is a DBOS workflow over PGlite kept in DIR, in
// this process. Killed, the same command started again resumes at the step in flight: finished
// steps are not run again. Ctrl-C stops the process the same way (nothing of the step in flight is
// recorded), so the next start resumes too.
import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { renderContract } from "@decay/contract";
import { err, ok, type Result } from "neverthrow";
import type { RunOutcome } from "../node/dbos/job.js";
import type { ExecFault } from "../fault.js";
import { commandAgent } from "../node/command-agent.js";
import { systemGit } from "../node/git.js";
import { adaptersFor } from "./adapters.js";
import type { RunFlags } from "./args.js";
import { loadDbos } from "./dbos-load.js";
import type { CliFault } from "./fault.js";
import { type CliIo, say } from "./io.js";
import { agentProgram, type Loaded } from "./load.js";
import { ended, progressFor, quoted } from "./run.js";
import { VERSION } from "./version.js";

/** The embedded worker's id: one process per data directory (a lock file), so one fixed id. */
const EMBEDDED_EXECUTOR = "decay-embedded";

/** The commit the default branch points at: where a run starts from, unmoved by the run's own commits. */
async function baseOf(io: CliIo, repo: string): Promise<string | null> {
  const branch = await systemGit({ dir: repo, env: io.env }).defaultBranch();
  if (branch.isErr() || branch.value === null) return null;
  return new Promise((done) =>
    execFile("git", ["rev-parse", "--verify", "--quiet", `refs/heads/${branch.value}^{commit}`], { cwd: repo }, (e, out) =>
      done(e === null ? out.trim() : null),
    ),
  );
}

/** `decay run … --durable DIR`: the exit code, or the fault. */
export async function durableRun(io: CliIo, flags: RunFlags, argv: readonly string[], repo: string, loaded: Loaded): Promise<Result<number, CliFault>> {
  const dbos = await loadDbos();
  if (dbos.isErr()) return err(dbos.error);
  const program = agentProgram(io.cwd, io.env, flags.agent[0] as string);
  if (program.isErr()) return err(program.error);
  const progress = progressFor(io, flags, loaded);
  // Adapters are stopped only once DBOS is shut down: what they return after that is never recorded.
  const stop = new AbortController();
  const planText = loaded.planText === undefined ? undefined : new TextDecoder().decode(loaded.planText);
  const { assumptions, includeOptional, budget: attemptBudget, tokenTarget, setup, maxInputBytes: maxReadBytes } = flags;
  const settings = Object.fromEntries(
    Object.entries({ assumptions, includeOptional, attemptBudget, tokenTarget, setup, maxReadBytes }).filter(([, v]) => v !== undefined),
  );
  const runner = dbos.value.dbosRunner({
    embedded: { dataDir: resolve(io.cwd, flags.durable as string) },
    executorId: EMBEDDED_EXECUTOR,
    appVersion: VERSION,
    ports: (_job, dir) => ({
      ...adaptersFor({ ...io, signal: stop.signal }, dir, flags.cleanRoom),
      agent: commandAgent({ command: program.value, args: flags.agent.slice(1), baseEnv: io.env, signal: stop.signal }),
      resumeCommand: `decay ${argv.map(quoted).join(" ")}`,
      onEvent: (e) => progress.event(e),
    }),
  });
  const job = { contract: renderContract(loaded.contract), planText, repo, base: await baseOf(io, repo), plan: loaded.contract.plan, settings };
  const interrupted = new Promise<"stopped">((done) => io.signal?.addEventListener("abort", () => done("stopped"), { once: true }));
  const out = await Promise.race([runner.run(job), interrupted]);
  await runner.close();
  stop.abort();
  if (out === "stopped") {
    await progress.close();
    const failed = await say(io, `stopped: run the same command again to resume (state in ${flags.durable})\n`);
    return failed === null ? ok(1) : err({ code: "write-failed", file: "<stdout>", reason: failed });
  }
  if (out.isErr()) {
    await progress.close();
    return err({ code: "dbos", fault: out.error });
  }
  return ended(io, flags, repo, progress, resultOf(out.value));
}

function resultOf(outcome: RunOutcome): Result<NonNullable<RunOutcome["report"]>, ExecFault> {
  if (outcome.report !== null) return ok(outcome.report);
  return err(outcome.fault ?? { code: "workspace-io", path: outcome.dir, reason: "the run recorded neither a report nor a fault" });
}
