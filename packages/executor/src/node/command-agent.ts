// The command agent: any program that reads one JSON request on stdin and prints one JSON reply
// on stdout is an agent (docs/agent-protocol.md). The program runs once per call, as the leader
// of its own process group, so a timeout or an interruption reaches everything it started.
import { spawn } from "node:child_process";
import { jsonReply } from "../agent/call.js";
import type { Agent, AgentRequest } from "../agent/protocol.js";
import { decodeStrictUtf8 } from "@decay/portable";
import { badUtf8Said, reasonOf } from "../fault.js";
import { heldSentence, OUTPUT_GRACE_MS, releaseHeldOutput, signalGroup } from "./held-output.js";
import { tail } from "./tail.js";

/** Options of `commandAgent`. */
export interface CommandAgentOptions {
  /** The program (a path or a name on PATH); it is not run through a shell. */
  readonly command: string;
  readonly args?: readonly string[];
  /** Killed with its whole process group after this many milliseconds; default 30 minutes. */
  readonly timeoutMs?: number;
  /** Extra environment variables, merged over the base environment (`baseEnv`, default `process.env`). */
  readonly env?: Readonly<Record<string, string>>;
  readonly baseEnv?: Readonly<Record<string, string | undefined>>;
  /** Aborting kills the running call's process group; the call then returns nothing. */
  readonly signal?: AbortSignal;
  /** Bytes of stdout read as the reply; more is a failed call. Default 4 MiB. */
  readonly maxReplyBytes?: number;
  /** Bytes of stderr kept (the tail) for the reason of a failed call; default 2 KiB. */
  readonly stderrTailBytes?: number;
  /** Milliseconds between SIGTERM and SIGKILL; default 1000. */
  readonly killGraceMs?: number;
  /**
   * Milliseconds the program's pipes may stay open after it exits; default 2000. Past that the
   * call returns nothing: a process it left outside its group (a daemon) holds them.
   */
  readonly outputGraceMs?: number;
}

/** Why a call returned nothing, in one sentence naming the program and, when any, its stderr's tail. */
function why(opts: CommandAgentOptions, what: string, stderr: string): Error {
  const last = stderr.trim().split("\n").slice(-5).join(" / ");
  return new Error(`${opts.command}: ${what}${last ? `; stderr: ${last}` : ""}`);
}

function envOf(opts: CommandAgentOptions): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...(opts.baseEnv ?? process.env), ...opts.env })) if (v !== undefined) env[k] = v;
  return env;
}

/** Check what the program printed: one JSON value. The raw text is handed back; the run validates it. */
function judge(opts: CommandAgentOptions, end: { exit: number | null; signal: string | null; stdout: Uint8Array; stderr: string; overflow: boolean }): string {
  if (end.exit !== 0) throw why(opts, end.exit === null ? `ended by ${end.signal}` : `exited ${end.exit}`, end.stderr);
  if (end.overflow) throw why(opts, `printed more than ${opts.maxReplyBytes ?? 4 << 20} bytes`, end.stderr);
  // JSON text is UTF-8: a bad byte is refused, never read as U+FFFD into the reply.
  const decoded = decodeStrictUtf8(end.stdout);
  if (decoded.isErr()) throw why(opts, `printed a reply that is not UTF-8: ${badUtf8Said(end.stdout, decoded.error.start)}`, end.stderr);
  const stdout = decoded.value;
  if (stdout.trim() === "") throw why(opts, "printed no reply on stdout", end.stderr);
  const read = jsonReply(stdout);
  if ("empty" in read) throw why(opts, `printed ${read.empty}`, end.stderr);
  return stdout;
}

function callOnce(opts: CommandAgentOptions, request: AgentRequest): Promise<string> {
  if (opts.signal?.aborted) return Promise.reject(new Error(`${opts.command}: interrupted before it started`));
  const cap = opts.maxReplyBytes ?? 4 << 20;
  return new Promise((resolve, reject) => {
    const child = spawn(opts.command, [...(opts.args ?? [])], { cwd: request.cwd, env: envOf(opts), detached: true, stdio: ["pipe", "pipe", "pipe"] });
    const out: Uint8Array[] = [];
    let size = 0;
    let overflow = false;
    const errs = tail(opts.stderrTailBytes ?? 2048);
    child.stdout?.on("data", (c: Uint8Array) => {
      size += c.length;
      if (size > cap) overflow = true;
      else out.push(c);
    });
    child.stderr?.on("data", (c: Uint8Array) => errs.push(c));
    let stopped: string | null = null;
    let killer: ReturnType<typeof setTimeout> | undefined;
    const stop = (what: string) => {
      if (stopped !== null) return;
      stopped = what;
      signalGroup(child, "SIGTERM");
      killer = setTimeout(() => signalGroup(child, "SIGKILL"), opts.killGraceMs ?? 1000);
    };
    const timer = setTimeout(() => stop(`timed out after ${opts.timeoutMs ?? 1_800_000} ms`), opts.timeoutMs ?? 1_800_000);
    const onAbort = () => stop("interrupted");
    opts.signal?.addEventListener("abort", onAbort, { once: true });
    let failed = false;
    child.on("exit", () => signalGroup(child, "SIGKILL"));
    const grace = opts.outputGraceMs ?? OUTPUT_GRACE_MS;
    const output = releaseHeldOutput(child, grace);
    child.on("error", (e) => {
      failed = true;
      reject(why(opts, `could not start: ${reasonOf(e)}`, ""));
    });
    child.on("close", (exit, signal) => {
      clearTimeout(timer);
      if (killer !== undefined) clearTimeout(killer);
      opts.signal?.removeEventListener("abort", onAbort);
      if (failed) return;
      const stderr = errs.text();
      if (stopped !== null) return reject(why(opts, stopped, stderr));
      if (output.held()) return reject(why(opts, `exited ${exit ?? signal}, ${heldSentence(grace)}`, stderr));
      try {
        resolve(judge(opts, { exit, signal, stdout: Buffer.concat(out), stderr, overflow }));
      } catch (e) {
        reject(e);
      }
    });
    // A program that exits without reading its request closes the pipe: that is its business.
    child.stdin?.on("error", () => undefined);
    child.stdin?.end(`${JSON.stringify(request)}\n`);
  });
}

/**
 * An `Agent` that runs a program once per call: the JSON request on stdin, one JSON reply on
 * stdout, in the repository's directory. A non-zero exit, a timeout, an interruption, no output
 * or output that is not JSON rejects with the reason and the tail of stderr, which the run
 * records as "returned nothing"; the reply's shape is validated by the run.
 */
export function commandAgent(opts: CommandAgentOptions): Agent {
  const call = (request: AgentRequest) => callOnce(opts, request);
  return { execute: call, diagnose: call, adjudicate: call, fix: call };
}
