// `decay`'s main: parse, dispatch to the command, and turn a fault into its message and exit code.
import { bestEffort, inputName, jsonAsked, jsonFaultLine, versionLine } from "@decay/cli-kit";
import { oneLine } from "@decay/portable";
import { err, type Result } from "neverthrow";
import { FLEET_COMMANDS, parseInvocation } from "./args.js";
import { CLI_FAULT_SCHEMA_ID } from "../schema.js";
import { type CliFault, causeOf, describeCliFault, exitCodeFor, saidOnStdout } from "./fault.js";
import { type CliIo, say } from "./io.js";
import { fleetCommand } from "./fleet.js";
import { journalMain } from "./journal.js";
import { parseJournalArgs } from "./journal-args.js";
import { reportCommand } from "./report.js";
import { runCommand } from "./run.js";
import { HELP } from "./usage.js";
import { verifyCommand } from "./verify.js";
import { VERSION } from "./version.js";

async function dispatch(argv: readonly string[], io: CliIo): Promise<Result<number, CliFault> | number> {
  const invocation = parseInvocation(argv);
  if (invocation.isErr()) return err(invocation.error);
  const inv = invocation.value;
  switch (inv.command) {
    case "help":
      return (await say(io, HELP)) === null ? 0 : 2;
    case "version":
      return (await say(io, versionLine("decay", VERSION))) === null ? 0 : 2;
    case "run":
      return runCommand(io, inv.flags, argv);
    case "preflight":
    case "verify":
      return verifyCommand(io, inv.command, inv.flags);
    case "report":
      return reportCommand(io, inv.dir, inv.json);
  }
}

/**
 * Run `decay` with `argv` (after the program name); resolves to the exit code (0, 1 or 2). An
 * exception a command throws (a bug) is exit 2 with one line on stderr naming the input, never lost.
 */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    return await command(argv, io);
  } catch (e) {
    const input = inputOf(argv);
    return fail(io, argv, "internal", oneLine(`${input === null ? "" : `${input}: `}internal error: ${thrown(e)}`), 2);
  }
}

/**
 * Says a fault: `decay: <message>` on stderr and, when the command line asks for `--json`, the
 * fault object on stdout (docs/executor-cli.md), unless `toStdout` is false (`saidOnStdout`).
 */
async function fail(io: CliIo, argv: readonly string[], code: string, message: string, exit: number, toStdout = true, cause?: string): Promise<number> {
  await bestEffort(io.stderr, `decay: ${message}\n`);
  if (toStdout && jsonAsked(argv))
    await bestEffort(io.stdout, jsonFaultLine(CLI_FAULT_SCHEMA_ID, { code, message, ...(cause === undefined ? {} : { cause }) }));
  return exit;
}

async function command(argv: readonly string[], io: CliIo): Promise<number> {
  // The journal commands parse and fail on their own (decay journal --help).
  if (argv[0] === "journal") return journalMain(argv.slice(1), io);
  // The fleet commands (docs/fleet.md) parse on their own too.
  const fleet = FLEET_COMMANDS.includes(argv[0] ?? "");
  const out = fleet ? await fleetCommand(argv, io) : await dispatch(argv, io);
  if (typeof out === "number") return out;
  if (out.isOk()) return out.value;
  const f = out.error;
  return fail(io, argv, f.code, `${describeCliFault(f)}${f.code === "usage" && !fleet ? misplaced(argv) : ""}`, exitCodeFor(f), !saidOnStdout(f), causeOf(f));
}

/** What was thrown, as `RangeError: Maximum call stack size exceeded` (its name and message, no stack). */
function thrown(e: unknown): string {
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}

/** The input a command line names (the plan, or report's DIR), as faults name it; null when it names none. */
function inputOf(argv: readonly string[]): string | null {
  if (argv[0] === "journal") {
    const cmd = parseJournalArgs(argv.slice(1));
    return cmd.isOk() && cmd.value.kind !== "help" ? inputName(cmd.value.plan) : null;
  }
  const inv = parseInvocation(argv);
  if (inv.isErr()) return null;
  const named = inv.value;
  switch (named.command) {
    case "report":
      return named.dir;
    case "help":
    case "version":
      return null;
    default:
      return named.flags.file;
  }
}

/** A hint when options came before a command that parses its own (`decay --json journal show`). */
function misplaced(argv: readonly string[]): string {
  const own = argv.slice(1).find((a) => a === "journal" || FLEET_COMMANDS.includes(a));
  return own === undefined ? "" : ` (options of decay ${own} go after it: decay ${own} [options])`;
}
