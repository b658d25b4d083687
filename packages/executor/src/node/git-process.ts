// One git invocation: the binary with an argument array (never a shell string), no pager, no
// prompt, paths printed as they are. Shared by the Git adapter and the git clean rooms.
import { spawn } from "node:child_process";
import { errAsync, okAsync, ResultAsync } from "neverthrow";
import { type ExecFault, reasonOf } from "../fault.js";

/** What git did: its exit code and both outputs. */
export interface GitOutput {
  readonly exit: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** How git is started for one repository. */
export interface GitInvoker {
  /** Runs git in the invoker's directory with `args`; a git that cannot start is a fault, any exit a value. */
  raw(args: readonly string[], input?: string): ResultAsync<GitOutput, ExecFault>;
  /** Runs git, handing each chunk of its stdout to `onChunk` as it comes (none is kept); its exit and stderr. */
  stream(args: readonly string[], onChunk: (chunk: Uint8Array) => void): ResultAsync<GitOutput, ExecFault>;
  /** `raw`, where any exit but 0 is a `git-failed` fault naming the command and git's stderr. */
  ok(args: readonly string[], input?: string): ResultAsync<string, ExecFault>;
}

// Variables that would point git at another repository than the one asked for (set in hooks).
const REPO_VARS = ["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_COMMON_DIR", "GIT_PREFIX", "GIT_NAMESPACE"];

const BASE_ARGS = ["--no-pager", "-c", "core.quotepath=off", "-c", "log.showSignature=false", "-c", "color.ui=false"];

/** The environment git runs in: `base` without repository-redirecting variables, and never a prompt. */
export function gitEnv(base: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) if (v !== undefined && !REPO_VARS.includes(k)) env[k] = v;
  env.GIT_TERMINAL_PROMPT = "0";
  return env;
}

/** The words of a git command for a fault: its arguments without the `-c` settings. */
export function describeArgs(args: readonly string[]): string {
  const words: string[] = [];
  for (let i = 0; i < args.length; i += 1) {
    if (args[i] === "-c") i += 1;
    else words.push(args[i] ?? "");
  }
  const text = words.join(" ");
  return text.length > 200 ? `${text.slice(0, 200)}...` : text;
}

function spawnGit(
  cwd: string,
  env: Record<string, string>,
  args: readonly string[],
  input?: string,
  onChunk?: (chunk: Uint8Array) => void,
): Promise<GitOutput> {
  return new Promise((resolve, reject) => {
    const child = spawn("git", [...BASE_ARGS, ...args], { cwd, env, stdio: [input === undefined ? "ignore" : "pipe", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const errs: Buffer[] = [];
    child.stdout?.on("data", onChunk ?? ((c: Buffer) => out.push(c)));
    child.stderr?.on("data", (c: Buffer) => errs.push(c));
    child.on("error", reject);
    child.on("close", (exit) => resolve({ exit, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(errs).toString("utf8") }));
    if (input !== undefined) child.stdin?.end(input);
  });
}

/** A git invoker for the repository (or any directory) at `cwd`. */
export function gitInvoker(cwd: string, baseEnv: Readonly<Record<string, string | undefined>> = process.env): GitInvoker {
  const env = gitEnv(baseEnv);
  const raw = (args: readonly string[], input?: string, onChunk?: (chunk: Uint8Array) => void) =>
    ResultAsync.fromPromise(
      spawnGit(cwd, env, args, input, onChunk),
      (e): ExecFault => ({
        code: "git-failed",
        op: describeArgs(args),
        reason: `git could not be started in ${cwd}: ${reasonOf(e)}`,
      }),
    );
  return {
    raw: (args, input) => raw(args, input),
    stream: (args, onChunk) => raw(args, undefined, onChunk),
    ok: (args, input) => raw(args, input).andThen((o) => (o.exit === 0 ? okAsync(o.stdout) : errAsync(gitFailed(args, o)))),
  };
}

/** The `git-failed` fault for a command that exited non-zero. */
export function gitFailed(args: readonly string[], o: GitOutput): ExecFault {
  const said = o.stderr.trim() || o.stdout.trim() || "no message";
  return { code: "git-failed", op: describeArgs(args), reason: `exit ${o.exit ?? "by signal"}: ${said}` };
}
