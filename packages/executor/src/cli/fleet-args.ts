// The fleet commands' command lines: `decay worker`, `decay enqueue`, `decay runs [show ID]`, read
// by the shared parser (docs/cli.md): a repeated flag, an unknown one and an empty value are
// refused with the same sentences as every other decay command.
import { type FlagSpecs, type FlagValues, onlyFlags, parseArgv } from "@decay/cli-kit";
import { err, ok, Result } from "neverthrow";
import { appVersionIssue, executorIdIssue, queueNameIssue } from "../node/dbos/affinity.js";
import { redactUrl } from "../node/dbos/fault.js";
import { count, OPTIONS as RUN_OPTIONS, patternTimeoutOf, type RoomKind, splitCommand, type UsageFault, usageOf, type VerifyFlags } from "./args.js";

/** `decay worker …`; `patternTimeoutMs` is read as `decay run` reads it (`patternTimeoutOf`). */
export interface WorkerFlags extends Pick<VerifyFlags, "patternTimeoutMs"> {
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
  readonly executeMayEditSurface: boolean;
  readonly budget: number | undefined;
  readonly setup: string | undefined;
  readonly json: boolean;
}

/** One fleet invocation. */
export type FleetInvocation =
  | { readonly command: "worker"; readonly flags: WorkerFlags }
  | { readonly command: "enqueue"; readonly flags: EnqueueFlags }
  | { readonly command: "runs"; readonly databaseUrl: string; readonly id: string | null; readonly json: boolean };

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
  "pattern-timeout-ms": RUN_OPTIONS["pattern-timeout-ms"],
  repo: { type: "string" },
  "include-optional": { type: "boolean" },
  "execute-may-edit-surface": { type: "boolean" },
  budget: { type: "string" },
  setup: { type: "string" },
  json: { type: "boolean" },
} as const satisfies FlagSpecs;

type Values = FlagValues<typeof OPTIONS>;

/** The flags each fleet command takes (`decay --help` lists each on that command's usage line). */
export const FLEET_FLAGS: Readonly<Record<string, readonly string[]>> = {
  worker: ["database-url", "executor-id", "app-version", "concurrency", "workspace", "agent", "clean-room", "bundle", "queue", "pattern-timeout-ms"],
  enqueue: ["database-url", "repo", "queue", "include-optional", "execute-may-edit-surface", "budget", "setup", "json"],
  runs: ["database-url", "json"],
};

const usage = (flag: string, message: string): Result<never, UsageFault> => err({ code: "usage", flag, message });

function needed(
  v: Values,
  flag: Exclude<keyof Values & string, "include-optional" | "execute-may-edit-surface" | "json">,
  command: string,
): Result<string, UsageFault> {
  const value = v[flag];
  return value === undefined ? usage(`--${flag}`, `decay ${command} needs --${flag}`) : ok(value);
}

/**
 * Why `url` is not a Postgres URL the driver can read, or undefined. It is read as the driver
 * (pg-connection-string) reads it: spaces and stray `%` encoded, then WHATWG URL, retried with a
 * host put in for `user@/db`; and, as `dbosRunner` asks, with a postgres:// or postgresql:// scheme.
 */
export function databaseUrlIssue(url: string): string | undefined {
  if (!/^postgres(ql)?:\/\//i.test(url)) return "must be a postgres:// or postgresql:// URL";
  const text = / |%[^a-f0-9]|%[a-f0-9][^a-f0-9]/i.test(url) ? encodeURI(url).replace(/%25(\d\d)/g, "%$1") : url;
  const readable = [text, text.replace("@/", "@___DUMMY___/")].some((t) => URL.canParse(t, "postgres://base"));
  return readable ? undefined : "is not a valid Postgres URL (postgresql://USER:PASSWORD@HOST:PORT/DATABASE)";
}

function databaseUrl(v: Values, command: string): Result<string, UsageFault> {
  return needed(v, "database-url", command).andThen((url) => {
    const issue = databaseUrlIssue(url);
    return issue === undefined ? ok(url) : usage("--database-url", `--database-url ${redactUrl(url)} ${issue}`);
  });
}

function queue(text: string | undefined): Result<string | undefined, UsageFault> {
  const issue = text === undefined ? undefined : queueNameIssue(text);
  return issue === undefined ? ok(text) : usage("--queue", `--queue ${issue}`);
}

/** A flag `decay worker` needs, held to the rule `dbosRunner` holds the same option to (`rule` says what is wrong). */
function heldTo(v: Values, flag: "executor-id" | "app-version", rule: (value: string) => string | undefined): Result<string, UsageFault> {
  return needed(v, flag, "worker").andThen((value) => {
    const issue = rule(value);
    return issue === undefined ? ok(value) : usage(`--${flag}`, `--${flag} ${issue}`);
  });
}

function workerFlags(v: Values): Result<WorkerFlags, UsageFault> {
  const room = v["clean-room"] ?? "clone";
  if (room !== "clone" && room !== "worktree" && room !== "isomorphic")
    return usage("--clean-room", `--clean-room must be clone, worktree or isomorphic, not ${JSON.stringify(room)}`);
  const agentText = needed(v, "agent", "worker");
  if (agentText.isErr()) return err(agentText.error);
  const agent = splitCommand(agentText.value);
  if (agent.isErr()) return usage("--agent", `--agent ${JSON.stringify(agentText.value)}: ${agent.error}`);
  return Result.combine([databaseUrl(v, "worker"), heldTo(v, "executor-id", executorIdIssue), heldTo(v, "app-version", appVersionIssue)]).andThen(
    ([databaseUrl, executorId, appVersion]) =>
      Result.combine([count("--concurrency", v.concurrency), queue(v.queue), patternTimeoutOf(v["pattern-timeout-ms"])]).map(
        ([concurrency, queueName, patternTimeout]): WorkerFlags => ({
          ...patternTimeout,
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
  return Result.combine([databaseUrl(v, "enqueue"), needed(v, "repo", "enqueue")]).andThen(([databaseUrl, repo]) =>
    Result.combine([count("--budget", v.budget), queue(v.queue)]).map(([budget, queueName]) => ({
      file,
      databaseUrl,
      repo,
      queue: queueName,
      includeOptional: v["include-optional"] === true,
      executeMayEditSurface: v["execute-may-edit-surface"] === true,
      budget,
      setup: v.setup,
      json: v.json === true,
    })),
  );
}

/** Read a fleet command's arguments (`argv[0]` is the command). */
export function parseFleet(argv: readonly string[]): Result<FleetInvocation, UsageFault> {
  return parseArgv(argv, { flags: OPTIONS })
    .mapErr(usageOf)
    .andThen(({ values, positionals }): Result<FleetInvocation, UsageFault> => {
      const [command, ...rest] = positionals;
      const allowed = command !== undefined && Object.hasOwn(FLEET_FLAGS, command) ? (FLEET_FLAGS[command] ?? []) : [];
      const stray = onlyFlags(values, allowed, `decay ${command}`).mapErr(usageOf);
      if (stray.isErr()) return err(stray.error);
      const extra = (n: number) => err(usageOf({ code: "unexpected-argument", value: rest[n] as string }));
      if (command === "worker") return rest.length === 0 ? workerFlags(values).map((flags) => ({ command, flags })) : extra(0);
      if (command === "enqueue") {
        if (rest.length === 0) return usage(command, "decay enqueue takes one PLAN.md or contract.md, given none");
        if (rest.length > 1) return extra(1);
        return enqueueFlags(values, rest[0] as string).map((flags) => ({ command, flags }));
      }
      const url = databaseUrl(values, "runs");
      if (url.isErr()) return err(url.error);
      const json = values.json === true;
      if (rest.length === 0) return ok({ command: "runs", databaseUrl: url.value, id: null, json });
      if (rest[0] === "show" && rest.length === 2) return ok({ command: "runs", databaseUrl: url.value, id: rest[1] as string, json });
      if (rest[0] === "show" && rest.length > 2) return extra(2);
      return usage("runs", `decay runs takes nothing or show ID, given ${rest.join(" ")}`);
    });
}
