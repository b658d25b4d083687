// The fleet commands' command lines: `decay worker`, `decay enqueue`, `decay runs [show ID]`.
import { parseArgs } from "node:util";
import { err, ok, Result } from "neverthrow";
import { queueNameIssue } from "../node/dbos/affinity.js";
import { type RoomKind, splitCommand, type UsageFault } from "./args.js";

/** `decay worker …`. */
export interface WorkerFlags {
  readonly databaseUrl: string;
  readonly executorId: string;
  readonly appVersion: string;
  readonly concurrency: number | undefined;
  readonly workspace: string;
  readonly agent: readonly string[];
  readonly cleanRoom: RoomKind;
  readonly bundle: string | undefined;
  readonly queue: string | undefined;
}

/** `decay enqueue PLAN --repo SOURCE …`. */
export interface EnqueueFlags {
  readonly file: string;
  readonly databaseUrl: string;
  readonly repo: string;
  readonly queue: string | undefined;
  readonly includeOptional: boolean;
  readonly budget: number | undefined;
  readonly setup: string | undefined;
  readonly json: boolean;
}

/** One fleet invocation. */
export type FleetInvocation =
  | { readonly command: "worker"; readonly flags: WorkerFlags }
  | { readonly command: "enqueue"; readonly flags: EnqueueFlags }
  | { readonly command: "runs"; readonly databaseUrl: string; readonly id: string | null; readonly json: boolean };

/** The commands this file reads. */
export const FLEET_COMMANDS: readonly string[] = ["worker", "enqueue", "runs"];

const OPTIONS = {
  "database-url": { type: "string" },
  "executor-id": { type: "string" },
  "app-version": { type: "string" },
  concurrency: { type: "string" },
  workspace: { type: "string" },
  agent: { type: "string" },
  "clean-room": { type: "string" },
  bundle: { type: "string" },
  queue: { type: "string" },
  repo: { type: "string" },
  "include-optional": { type: "boolean" },
  budget: { type: "string" },
  setup: { type: "string" },
  json: { type: "boolean" },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true; strict: true }>>["values"];

const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  worker: ["database-url", "executor-id", "app-version", "concurrency", "workspace", "agent", "clean-room", "bundle", "queue"],
  enqueue: ["database-url", "repo", "queue", "include-optional", "budget", "setup", "json"],
  runs: ["database-url", "json"],
};

const usage = (flag: string, message: string): Result<never, UsageFault> => err({ code: "usage", flag, message });

function needed(v: Values, flag: keyof Values & string, command: string): Result<string, UsageFault> {
  const value = v[flag];
  return typeof value === "string" && value !== "" ? ok(value) : usage(`--${flag}`, `decay ${command} needs --${flag}`);
}

function count(flag: string, text: string | undefined): Result<number | undefined, UsageFault> {
  if (text === undefined) return ok(undefined);
  return /^[1-9][0-9]{0,8}$/.test(text) ? ok(Number(text)) : usage(flag, `${flag} must be a positive integer, not ${JSON.stringify(text)}`);
}

function queue(text: string | undefined): Result<string | undefined, UsageFault> {
  const issue = text === undefined ? undefined : queueNameIssue(text);
  return issue === undefined ? ok(text) : usage("--queue", `--queue ${issue}`);
}

function workerFlags(v: Values): Result<WorkerFlags, UsageFault> {
  const room = v["clean-room"] ?? "clone";
  if (room !== "clone" && room !== "worktree" && room !== "isomorphic")
    return usage("--clean-room", `--clean-room must be clone, worktree or isomorphic, not ${JSON.stringify(room)}`);
  const agentText = needed(v, "agent", "worker");
  if (agentText.isErr()) return err(agentText.error);
  const agent = splitCommand(agentText.value);
  if (agent.isErr()) return usage("--agent", `--agent ${JSON.stringify(agentText.value)}: ${agent.error}`);
  return Result.combine([needed(v, "database-url", "worker"), needed(v, "executor-id", "worker"), needed(v, "app-version", "worker")]).andThen(
    ([databaseUrl, executorId, appVersion]) =>
      Result.combine([count("--concurrency", v.concurrency), queue(v.queue)]).map(
        ([concurrency, queueName]): WorkerFlags => ({
          databaseUrl,
          executorId,
          appVersion,
          concurrency,
          workspace: v.workspace ?? "decay-work",
          agent: agent.value,
          cleanRoom: room as RoomKind,
          bundle: v.bundle,
          queue: queueName,
        }),
      ),
  );
}

function enqueueFlags(v: Values, file: string): Result<EnqueueFlags, UsageFault> {
  return Result.combine([needed(v, "database-url", "enqueue"), needed(v, "repo", "enqueue")]).andThen(([databaseUrl, repo]) =>
    Result.combine([count("--budget", v.budget), queue(v.queue)]).map(([budget, queueName]) => ({
      file,
      databaseUrl,
      repo,
      queue: queueName,
      includeOptional: v["include-optional"] === true,
      budget,
      setup: v.setup,
      json: v.json === true,
    })),
  );
}

function parsed(argv: readonly string[]): Result<{ values: Values; positionals: string[] }, UsageFault> {
  try {
    return ok(parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true }));
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    return usage(/'(-[^' ]+)/.exec(message)?.[1] ?? "arguments", message.replace(/\. To specify a positional argument.*$/s, ""));
  }
}

/** Read a fleet command's arguments (`argv[0]` is the command). */
export function parseFleet(argv: readonly string[]): Result<FleetInvocation, UsageFault> {
  return parsed(argv).andThen(({ values, positionals }): Result<FleetInvocation, UsageFault> => {
    const [command, ...rest] = positionals;
    const allowed = command !== undefined && Object.hasOwn(ALLOWED, command) ? (ALLOWED[command] ?? []) : [];
    const stray = Object.keys(values).find((k) => !allowed.includes(k));
    if (stray !== undefined) return usage(`--${stray}`, `--${stray} is not an option of decay ${command}`);
    if (command === "worker")
      return rest.length === 0
        ? workerFlags(values).map((flags) => ({ command, flags }))
        : usage(command, `decay worker takes no arguments, given ${rest.join(" ")}`);
    if (command === "enqueue") {
      if (rest.length !== 1) return usage(command, `decay enqueue takes one PLAN.md or contract.md, given ${rest.length === 0 ? "none" : rest.join(" ")}`);
      return enqueueFlags(values, rest[0] as string).map((flags) => ({ command, flags }));
    }
    const url = needed(values, "database-url", "runs");
    if (url.isErr()) return err(url.error);
    const json = values.json === true;
    if (rest.length === 0) return ok({ command: "runs", databaseUrl: url.value, id: null, json });
    if (rest[0] === "show" && rest.length === 2) return ok({ command: "runs", databaseUrl: url.value, id: rest[1] as string, json });
    return usage("runs", `decay runs takes nothing or show ID, given ${rest.join(" ")}`);
  });
}
