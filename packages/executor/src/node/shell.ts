// Shell over child_process: `sh -c command` as the leader of its own process group, so a timeout
// (or the end of the command) can reach every process it started.
import { type ChildProcess, spawn } from "node:child_process";
import { stat } from "node:fs/promises";
import { err, ok, ResultAsync, type Result } from "neverthrow";
import { type ExecFault, reasonOf } from "../fault.js";
import type { Shell, ShellRequest, ShellResult } from "../ports.js";
import { heldSentence, OUTPUT_GRACE_MS, releaseHeldOutput, signalGroup } from "./held-output.js";
import { tail } from "./tail.js";

/** Options of `nodeShell`. */
export interface NodeShellOptions {
  /** The base environment every command starts from (default `process.env`); undefined values are left out. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Milliseconds between SIGTERM and SIGKILL when a command times out (default 1000). */
  readonly killGraceMs?: number;
  /** Aborting kills the running command's process group (SIGTERM, then SIGKILL after the grace); no command starts after it. */
  readonly signal?: AbortSignal;
  /**
   * Milliseconds a command's pipes may stay open after it exits (default 2000). Past that the run
   * is a `shell-failed` fault, never a result: a process it left outside its group holds them.
   */
  readonly outputGraceMs?: number;
}

/** The two graces of a run: SIGTERM to SIGKILL, and exit to the pipes' close. */
interface Graces {
  readonly kill: number;
  readonly output: number;
}

const DEFAULT_CAP = 64 * 1024;

/**
 * A `Shell` that runs `sh -c command` through child_process. A timed-out command's whole process
 * group gets SIGTERM, then SIGKILL after a grace; processes a command leaves running in its group
 * when it exits are killed too, so nothing outlives the command. A command that cannot start is a
 * `shell-failed` fault.
 */
export function nodeShell(options: NodeShellOptions = {}): Shell {
  const base = options.env ?? process.env;
  const grace: Graces = { kill: options.killGraceMs ?? 1000, output: options.outputGraceMs ?? OUTPUT_GRACE_MS };
  return {
    run: (request) => new ResultAsync(runOnce(base, grace, request, options.signal)),
  };
}

function mergeEnv(base: NodeShellOptions["env"], extra: ShellRequest["env"]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...base, ...extra })) if (v !== undefined) env[k] = v;
  return env;
}

async function spawnFault(request: ShellRequest, e: unknown): Promise<ExecFault> {
  const gone = await stat(request.cwd).then(
    (s) => (s.isDirectory() ? undefined : "the working directory is not a directory"),
    () => "the working directory does not exist",
  );
  return { code: "shell-failed", command: request.command, cwd: request.cwd, reason: gone ?? reasonOf(e) };
}

function runOnce(
  base: NodeShellOptions["env"],
  grace: Graces,
  request: ShellRequest,
  signal: AbortSignal | undefined,
): Promise<Result<ShellResult, ExecFault>> {
  if (signal?.aborted)
    return Promise.resolve(err({ code: "shell-failed", command: request.command, cwd: request.cwd, reason: "interrupted before it started" }));
  const started = performance.now();
  let child: ChildProcess;
  try {
    child = spawn("sh", ["-c", request.command], {
      cwd: request.cwd,
      env: mergeEnv(base, request.env),
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
  } catch (e) {
    return spawnFault(request, e).then((f) => err<ShellResult, ExecFault>(f));
  }
  return collect(child, grace, request, started, signal);
}

function collect(
  child: ChildProcess,
  grace: Graces,
  request: ShellRequest,
  started: number,
  signal: AbortSignal | undefined,
): Promise<Result<ShellResult, ExecFault>> {
  const cap = request.maxOutputBytes ?? DEFAULT_CAP;
  const out = tail(cap);
  const errs = tail(cap);
  child.stdout?.on("data", (c: Uint8Array) => out.push(c));
  child.stderr?.on("data", (c: Uint8Array) => errs.push(c));
  let timedOut = false;
  let killer: ReturnType<typeof setTimeout> | undefined;
  const stop = () => {
    signalGroup(child, "SIGTERM");
    killer ??= setTimeout(() => signalGroup(child, "SIGKILL"), grace.kill);
  };
  const timer = setTimeout(() => {
    timedOut = true;
    stop();
  }, request.timeoutMs);
  signal?.addEventListener("abort", stop, { once: true });
  // The leader is gone: whatever it left running in its group would hold the pipes open.
  child.on("exit", () => signalGroup(child, "SIGKILL"));
  const output = releaseHeldOutput(child, grace.output);
  return new Promise((resolve) => {
    let failed = false;
    child.on("error", (e) => {
      failed = true;
      clearTimeout(timer);
      void spawnFault(request, e).then((f) => resolve(err(f)));
    });
    child.on("close", (exit, ended) => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", stop);
      if (killer !== undefined) clearTimeout(killer);
      if (failed) return;
      // Output cut short by a process out of the group's reach is no result to judge a row by.
      if (output.held() && !timedOut && !signal?.aborted) {
        const reason = `it exited ${exit ?? ended}, ${heldSentence(grace.output)}`;
        return resolve(err({ code: "shell-failed", command: request.command, cwd: request.cwd, reason }));
      }
      resolve(
        ok({
          exit,
          signal: ended,
          stdout: out.text(),
          stderr: errs.text(),
          durationMs: Math.round(performance.now() - started),
          timedOut,
          truncated: out.dropped || errs.dropped,
        }),
      );
    });
  });
}
