// `decay run`: compile or read the contract, run it with a command agent, show progress, and
// end with the summary (exit 0 green, 1 not green with the reason last, a fault 2).
import { bestEffort } from "@decay/cli-kit";
import { err, ok, type Result } from "neverthrow";
import type { ExecFault } from "../fault.js";
import { nodeRunLock } from "../node/run-lock.js";
import { runPlan } from "../run/run-plan.js";
import type { RunReport } from "../schema.js";
import { oneLine } from "@decay/portable";
import { adaptersFor, agentFor } from "./adapters.js";
import type { RunFlags } from "./args.js";
import type { CliFault } from "./fault.js";
import { type CliIo, REPORT_SCHEMA, say } from "./io.js";
import { durableRun } from "./durable.js";
import { agentProgram, assumptionsPath, atTop, insideRepo, type Loaded, loadContract, repoDir } from "./load.js";
import { jsonProgress, liveProgress, plainProgress, type Progress, type RunProgress, setAsideLine, warnOnStderr } from "./progress.js";

export const quoted = (word: string) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`);

/** Where `decay run` shows progress: NDJSON, the live view on a terminal, or plain lines. */
export function progressFor(io: CliIo, flags: RunFlags, loaded: Loaded): RunProgress {
  const ci = io.env.CI !== undefined && io.env.CI !== "" && io.env.CI !== "false";
  if (io.live !== undefined && !ci && !flags.json)
    return liveProgress(
      io.live,
      loaded.contract.stages.map((s) => ({ id: s.id, title: s.title })),
    );
  return noticed(io, flags.json ? jsonProgress(io.stdout) : plainProgress(io.stdout));
}

/**
 * Leftovers set aside are the user's files: said on stderr as well (the live view keeps its own
 * line); warnings go to stderr only, so stdout stays progress (or NDJSON).
 */
function noticed(io: CliIo, progress: Progress): RunProgress {
  const writes: Promise<unknown>[] = [];
  return {
    event(e) {
      progress.event(e);
      if (e.type === "set-aside") writes.push(bestEffort(io.stderr, `decay: ${setAsideLine(e)}\n`));
    },
    warn: (text) => writes.push(warnOnStderr(io.stderr, text)),
    close: async () => {
      await Promise.all(writes);
      return progress.close();
    },
  };
}

/** The closing lines for people: the outcome, where REPORT.md is, and the reason last (one line) when not green. */
export function summaryOf(report: RunReport, repo: string): string {
  const green = report.end.green;
  const others = report.stages.filter((s) => !green.includes(s.id) && s.final !== "not-run").map((s) => `${s.id} (${s.state})`);
  const lines = [
    `decay: ${report.status}; green: ${green.join(", ") || "none"}${others.length ? `; not green: ${others.join(", ")}` : ""}`,
    `report: ${repo}/${report.workspace}/REPORT.md`,
  ];
  if (report.status !== "green") lines.push(`${report.status}: ${oneLine(report.reason ?? "some required stage is not green")}`);
  return `${lines.join("\n")}\n`;
}

async function execute(io: CliIo, flags: RunFlags, argv: readonly string[], repo: string, loaded: Loaded): Promise<Result<number, CliFault>> {
  const program = agentProgram(io.cwd, io.env, flags.agent[0] as string);
  if (program.isErr()) return err(program.error);
  const progress = progressFor(io, flags, loaded);
  const result = await runPlan(loaded.contract, {
    ...adaptersFor(io, repo, flags, (text) => progress.warn(text)),
    agent: agentFor(program.value, flags, io.env, io.signal),
    planText: loaded.planText,
    assumptions: flags.assumptions,
    includeOptional: flags.includeOptional,
    executeMayEditSurface: flags.executeMayEditSurface,
    attemptBudget: flags.budget,
    tokenTarget: flags.tokenTarget,
    setup: flags.setup,
    // The bound on the files given (--max-input-bytes) is the bound on what the run reads back.
    ...(flags.maxInputBytes === undefined ? {} : { maxReadBytes: flags.maxInputBytes }),
    resumeCommand: `decay ${argv.map(quoted).join(" ")}`,
    onEvent: (e) => progress.event(e),
    signal: io.signal,
    lock: nodeRunLock({ env: io.env }),
  });
  return ended(io, flags, repo, progress, result);
}

/** The end of a run for people or programs: the summary or the report, and the exit code. */
export async function ended(
  io: CliIo,
  flags: RunFlags,
  repo: string,
  progress: Progress,
  result: Result<RunReport, ExecFault>,
): Promise<Result<number, CliFault>> {
  const broken = await progress.close();
  if (broken !== null) return err({ code: "write-failed", file: "<stdout>", reason: broken });
  if (result.isErr()) {
    const fault = result.error;
    if (fault.code !== "interrupted") return err({ code: "exec", input: flags.file, fault });
    // With --json stdout stays NDJSON (its last line is the parked event); the sentence goes to stderr.
    const line = `parked: interrupted at step ${fault.step}; RESUME.md written; run the same command again to resume\n`;
    if (flags.json) return ok((await bestEffort(io.stderr, line), 1));
    const failed = await say(io, line);
    return failed === null ? ok(1) : err({ code: "write-failed", file: "<stdout>", reason: failed });
  }
  const report = result.value;
  const text = flags.json ? `${JSON.stringify({ $schema: REPORT_SCHEMA, ...report })}\n` : summaryOf(report, repo);
  const failed = await say(io, text);
  if (failed !== null) return err({ code: "write-failed", file: "<stdout>", reason: failed });
  return ok(report.status === "green" ? 0 : 1);
}

/** `decay run FILE --repo DIR --agent "CMD ARGS…" …`: the exit code, or the fault. */
export async function runCommand(io: CliIo, flags: RunFlags, argv: readonly string[]): Promise<Result<number, CliFault>> {
  const repo = repoDir(io.cwd, flags.repo);
  if (repo.isErr()) return err(repo.error);
  const loaded = await loadContract(io.cwd, flags.file, repo.value, { maxBytes: flags.maxInputBytes, includeOptional: flags.includeOptional });
  if (loaded.isErr()) return err(loaded.error);
  // After the plan is read, so a fault of the plan is named first; before anything runs.
  const top = await atTop(repo.value, flags.repo, io.env);
  if (top.isErr()) return err(top.error);
  // The run reads --assumptions at its start and before every stage, after it has switched
  // branch: a file that is missing, no regular file, too large or malformed is refused now,
  // before anything changes. The run is handed the path it reads it at, from the repository.
  const assumptions = flags.assumptions === undefined ? ok(undefined) : await assumptionsPath(io.cwd, repo.value, flags.assumptions, flags.maxInputBytes);
  if (assumptions.isErr()) return err(assumptions.error);
  const resolved: RunFlags = { ...flags, assumptions: assumptions.value };
  if (flags.durable !== undefined) {
    // The state directory is written while the run checks the working tree is clean: never inside it.
    if (insideRepo(io.cwd, repo.value, flags.durable))
      return err({
        code: "usage",
        flag: "--durable",
        message: `--durable ${flags.durable}: the state directory is inside the repository; give one outside it`,
      });
    return durableRun(io, resolved, argv, repo.value, loaded.value);
  }
  return execute(io, resolved, argv, repo.value, loaded.value);
}
