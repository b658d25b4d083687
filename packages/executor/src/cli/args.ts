// The `decay` command line turned into one invocation, or a usage fault naming the flag.
import {
  describeArgFault,
  onlyFlags,
  parseArgv,
  versionAfterCommand,
  type ArgFault,
  type FlagSpecs,
  type FlagValues,
  byteLimit,
  MAX_INPUT_CEILING,
} from "@decay/cli-kit";
import { err, ok, type Result } from "neverthrow";

/** A bad command line; `flag` is the flag (or argument) at fault. */
export interface UsageFault {
  readonly code: "usage";
  readonly flag: string;
  readonly message: string;
}

/** The clean rooms `--clean-room` names. */
export type RoomKind = "clone" | "worktree" | "isomorphic";

/** What every command that verifies takes. */
export interface VerifyFlags {
  readonly file: string;
  readonly repo: string | undefined;
  readonly includeOptional: boolean;
  readonly cleanRoom: RoomKind;
  readonly setup: string | undefined;
  readonly assumptions: string | undefined;
  readonly json: boolean;
  /** `--max-input-bytes`: the bound on the plan, the contract and the assumptions file (default 64 MiB). */
  readonly maxInputBytes?: number;
  /** `--pattern-timeout-ms`: how long one acceptance regex may run (`nodePatterns`' `timeoutMs`, default 10 s). */
  readonly patternTimeoutMs?: number;
}

/** What `decay run` takes beyond that. */
export interface RunFlags extends VerifyFlags {
  /** The agent's program and its arguments, split as a shell would split the flag's text. */
  readonly agent: readonly string[];
  readonly budget: number | undefined;
  readonly tokenTarget: number | undefined;
  /** `--durable DIR`: run as a DBOS workflow over PGlite in DIR, so a killed run resumes (experimental). */
  readonly durable?: string;
  /** `--execute-may-edit-surface`: the library's `executeMayEditSurface`. */
  readonly executeMayEditSurface: boolean;
  /** `--agent-timeout-ms`: how long one agent call may run (`commandAgent`'s `timeoutMs`, default 30 minutes). */
  readonly agentTimeoutMs?: number;
}

/** One invocation of `decay`. */
export type Invocation =
  | { readonly command: "help" | "version" }
  | { readonly command: "run"; readonly flags: RunFlags }
  | { readonly command: "preflight" | "verify"; readonly flags: VerifyFlags }
  | { readonly command: "report"; readonly dir: string; readonly json: boolean };

/** The flags of `run`, `preflight`, `verify` and `report` (`decay --help` explains each under Options). */
export const OPTIONS = {
  repo: { type: "string" },
  agent: { type: "string" },
  assumptions: { type: "string" },
  "include-optional": { type: "boolean" },
  budget: { type: "string" },
  "token-target": { type: "string" },
  "clean-room": { type: "string" },
  setup: { type: "string" },
  json: { type: "boolean" },
  durable: { type: "string" },
  "execute-may-edit-surface": { type: "boolean" },
  "max-input-bytes": { type: "string" },
  "pattern-timeout-ms": { type: "string" },
  "agent-timeout-ms": { type: "string" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "V" },
} as const satisfies FlagSpecs;

type Values = FlagValues<typeof OPTIONS>;

const VERIFY_FLAGS = ["repo", "include-optional", "clean-room", "setup", "json", "max-input-bytes", "pattern-timeout-ms"];
const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  run: [...VERIFY_FLAGS, "assumptions", "agent", "budget", "token-target", "durable", "execute-may-edit-surface", "agent-timeout-ms"],
  preflight: VERIFY_FLAGS,
  verify: VERIFY_FLAGS,
  report: ["json"],
};

/** The fleet commands (docs/fleet.md), which `fleet-args.ts` reads. */
export const FLEET_COMMANDS: readonly string[] = ["worker", "enqueue", "runs"];

// Every command, as the messages list them.
const COMMANDS = "run, preflight, verify, report, journal, worker, enqueue or runs";

const usage = (flag: string, message: string): Result<never, UsageFault> => err({ code: "usage", flag, message });

/** Split a command's text into words as `sh` would: quotes and backslashes, no expansion. */
export function splitCommand(text: string): Result<string[], string> {
  const words: string[] = [];
  let word: string | null = null;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quote === "'") {
      if (c === "'") quote = null;
      else word += c;
    } else if (c === "\\" && i + 1 < text.length && (quote === null || /["\\$`]/.test(text[i + 1] as string))) {
      word = (word ?? "") + text[++i];
    } else if (quote === '"') {
      if (c === '"') quote = null;
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      word ??= "";
    } else if (/\s/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
    } else word = (word ?? "") + c;
  }
  if (quote !== null) return err(`an unclosed ${quote} quote`);
  if (word !== null) words.push(word);
  return words.length === 0 ? err("no command") : ok(words);
}

/** A count flag's value (`--budget`, `--concurrency` …): a positive integer of at most 9 digits, else a usage fault naming `flag`. */
export function count(flag: string, text: string | undefined): Result<number | undefined, UsageFault> {
  if (text === undefined) return ok(undefined);
  return /^[1-9][0-9]{0,8}$/.test(text) ? ok(Number(text)) : usage(flag, `${flag} must be a positive integer, not ${JSON.stringify(text)}`);
}

/**
 * `--pattern-timeout-ms`, read alike by every command that judges acceptance (`run`, `preflight`,
 * `verify`, `worker`): given, the matcher's bound (`patternTimeoutMs`); not given, nothing, so the
 * adapter's default stands.
 */
export function patternTimeoutOf(text: string | undefined): Result<Pick<VerifyFlags, "patternTimeoutMs">, UsageFault> {
  return count("--pattern-timeout-ms", text).map((ms) => (ms === undefined ? {} : { patternTimeoutMs: ms }));
}

function verifyFlags(v: Values, file: string): Result<VerifyFlags, UsageFault> {
  const room = v["clean-room"] ?? "clone";
  if (room !== "clone" && room !== "worktree" && room !== "isomorphic") {
    return usage("--clean-room", `--clean-room must be clone, worktree or isomorphic, not ${JSON.stringify(room)}`);
  }
  const limit = v["max-input-bytes"];
  const maxInputBytes = limit === undefined ? undefined : byteLimit(limit);
  if (limit !== undefined && maxInputBytes === undefined) {
    return usage("--max-input-bytes", `--max-input-bytes must be a whole number of bytes from 1 to ${MAX_INPUT_CEILING}, not ${JSON.stringify(limit)}`);
  }
  const patternTimeout = patternTimeoutOf(v["pattern-timeout-ms"]);
  if (patternTimeout.isErr()) return err(patternTimeout.error);
  return ok({
    ...(maxInputBytes === undefined ? {} : { maxInputBytes }),
    ...patternTimeout.value,
    file,
    repo: v.repo,
    includeOptional: v["include-optional"] === true,
    cleanRoom: room,
    setup: v.setup,
    assumptions: v.assumptions,
    json: v.json === true,
  });
}

function runFlags(v: Values, file: string): Result<RunFlags, UsageFault> {
  if (v.agent === undefined) return usage("--agent", 'decay run needs --agent "CMD ARGS…": the program that answers the agent protocol');
  const agent = splitCommand(v.agent);
  if (agent.isErr()) return usage("--agent", `--agent ${JSON.stringify(v.agent)}: ${agent.error}`);
  return verifyFlags(v, file).andThen((base) =>
    count("--budget", v.budget).andThen((budget) =>
      count("--token-target", v["token-target"]).andThen((tokenTarget) =>
        count("--agent-timeout-ms", v["agent-timeout-ms"]).map(
          (agentTimeoutMs): RunFlags => ({
            ...base,
            agent: agent.value,
            budget,
            tokenTarget,
            executeMayEditSurface: v["execute-may-edit-surface"] === true,
            ...(v.durable === undefined ? {} : { durable: v.durable }),
            ...(agentTimeoutMs === undefined ? {} : { agentTimeoutMs }),
          }),
        ),
      ),
    ),
  );
}

/** A fault of the shared parser as `decay`'s usage fault, naming the flag (or the argument) at fault. */
export function usageOf(f: ArgFault): UsageFault {
  return { code: "usage", flag: "flag" in f ? f.flag : f.value, message: describeArgFault(f) };
}

function parsed(argv: readonly string[]): Result<{ values: Values; positionals: readonly string[] }, UsageFault> {
  return parseArgv(argv, { flags: OPTIONS }).mapErr(usageOf);
}

/** Read `decay`'s arguments (after the program name). */
export function parseInvocation(argv: readonly string[]): Result<Invocation, UsageFault> {
  return parsed(argv).andThen(({ values, positionals }): Result<Invocation, UsageFault> => {
    const [command, ...rest] = positionals;
    if (values.help || command === "help") return ok({ command: "help" });
    // `--version` alone (after a command word at most): `decay --version extra` is refused, not answered.
    if (values.version)
      return versionAfterCommand({ values, positionals }, ALLOWED, "decay")
        .mapErr(usageOf)
        .map(() => ({ command: "version" }) as const);
    if (command === undefined) return usage("command", `no command given: ${COMMANDS}`);
    // Own keys only: a command named like an Object method ("constructor") is unknown, not a crash.
    const allowed = Object.hasOwn(ALLOWED, command) ? ALLOWED[command] : undefined;
    if (allowed === undefined) return usage("command", `unknown command ${JSON.stringify(command)}: ${COMMANDS}`);
    const stray = onlyFlags(values, allowed, `decay ${command}`).mapErr(usageOf);
    if (stray.isErr()) return err(stray.error);
    if (rest.length > 1) return err(usageOf({ code: "unexpected-argument", value: rest[1] as string }));
    const what = command === "report" ? "DIR" : "PLAN.md or contract.md";
    if (rest.length === 0) return usage(command, `decay ${command} takes one ${what}, given none`);
    const file = rest[0] as string;
    // An empty argument names nothing: read, it would be the current directory, or a fault naming "".
    if (file === "") return usage(command, `decay ${command} takes one ${what}, given an empty argument ("")`);
    if (command === "report") return ok({ command, dir: file, json: values.json === true });
    // The plan's path names its workspace and branch, and the run reads the plan again from there.
    if (file === "-")
      return usage(
        command,
        `decay ${command} reads its plan from a file, never standard input (-): the plan's path names its workspace .plan-runs/<slug>/ and branch plan/<slug>; give the plan's path (./- for a file named -)`,
      );
    if (command === "run") return runFlags(values, file).map((flags) => ({ command, flags }));
    return verifyFlags(values, file).map((flags) => ({ command: command as "preflight" | "verify", flags }));
  });
}
