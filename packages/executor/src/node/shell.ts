// Shell over child_process: `sh -c command` as the leader of its own process group, so a timeout
// (or the end of the command) can reach every process it started.
import { type ChildProcess, spawn } from "node:child_process";
import { stat } from "node:fs/promises";
import { err, ok, ResultAsync, type Result } from "neverthrow";
import { type ExecFault, reasonOf } from "../fault.js";
import type { Shell, ShellRequest, ShellResult } from "../ports.js";
import { tail } from "./tail.js";

/** Options of `nodeShell`. */
export interface NodeShellOptions {
  /** The base environment every command starts from (default `process.env`); undefined values are left out. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Milliseconds between SIGTERM and SIGKILL when a command times out (default 1000). */
  readonly killGraceMs?: number;
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
  const grace = options.killGraceMs ?? 1000;
  return {
    run: (request) => new ResultAsync(runOnce(base, grace, request)),
  };
}

function mergeEnv(base: NodeShellOptions["env"], extra: ShellRequest["env"]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...base, ...extra })) if (v !== undefined) env[k] = v;
  return env;
}

/** Sends `signal` to the process group led by `child`; a group already gone is no error. */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // ESRCH: every process of the group has ended already.
  }
}

async function spawnFault(request: ShellRequest, e: unknown): Promise<ExecFault> {
  const gone = await stat(request.cwd).then(
    (s) => (s.isDirectory() ? undefined : "the working directory is not a directory"),
    () => "the working directory does not exist",
  );
  return { code: "shell-failed", command: request.command, cwd: request.cwd, reason: gone ?? reasonOf(e) };
}

function runOnce(base: NodeShellOptions["env"], grace: number, request: ShellRequest): Promise<Result<ShellResult, ExecFault>> {
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
  return collect(child, grace, request, started);
}

/** Signals the group SIGTERM after `timeoutMs`, then SIGKILL after `grace`; `stop` cancels both. */
function deadline(child: ChildProcess, timeoutMs: number, grace: number): { readonly hit: () => boolean; stop(): void } {
  let hit = false;
  let killer: ReturnType<typeof setTimeout> | undefined;
  const timer = setTimeout(() => {
    hit = true;
    signalGroup(child, "SIGTERM");
    killer = setTimeout(() => signalGroup(child, "SIGKILL"), grace);
  }, timeoutMs);
  return {
    hit: () => hit,
    stop: () => {
      clearTimeout(timer);
      if (killer !== undefined) clearTimeout(killer);
    },
  };
}

function collect(child: ChildProcess, grace: number, request: ShellRequest, started: number): Promise<Result<ShellResult, ExecFault>> {
  const cap = request.maxOutputBytes ?? DEFAULT_CAP;
  const out = tail(cap);
  const errs = tail(cap);
  child.stdout?.on("data", (c: Uint8Array) => out.push(c));
  child.stderr?.on("data", (c: Uint8Array) => errs.push(c));
  const clock = deadline(child, request.timeoutMs, grace);
  // The leader is gone: whatever it left running in its group would hold the pipes open.
  child.on("exit", () => signalGroup(child, "SIGKILL"));
  return new Promise((resolve) => {
    let failed = false;
    child.on("error", (e) => {
      failed = true;
      clock.stop();
      void spawnFault(request, e).then((f) => resolve(err(f)));
    });
    child.on("close", (exit, signal) => {
      clock.stop();
      if (failed) return;
      const durationMs = Math.round(performance.now() - started);
      const truncated = out.dropped || errs.dropped;
      resolve(ok({ exit, signal, stdout: out.text(), stderr: errs.text(), durationMs, timedOut: clock.hit(), truncated }));
    });
  });
}
