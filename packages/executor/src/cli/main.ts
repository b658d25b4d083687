// `decay`: the executor's CLI. Each command is its own module; this file only dispatches.
import { bestEffort, writeText } from "@decay/cli-kit";
import { describeCliFault, exitCodeFor, type CliFault } from "./fault.js";
import { journalMain, type JournalIo } from "./journal.js";
import { VERSION } from "./version.js";

/** Everything `main` touches outside itself: the standard streams, and the adapters a command that reads git needs. */
export type DecayIo = JournalIo;

/** `decay --help`. */
export const HELP = `decay: run and resume plans

Usage:
  decay journal show|resume|next PLAN.md ...   the plan's execution record (decay journal --help)
  decay --help | --version

Exit codes: 0 ok, 2 any fault (message on stderr).
`;

async function say(io: DecayIo, text: string): Promise<number> {
  const written = await writeText(io.stdout, text, (reason): CliFault => ({ code: "stdout-write-failed", reason }));
  return written.isOk() ? 0 : fail(io, written.error);
}

async function fail(io: DecayIo, fault: CliFault): Promise<number> {
  await bestEffort(io.stderr, `decay: ${describeCliFault(fault)}\n`);
  return exitCodeFor(fault);
}

/** The `decay` CLI: dispatches `journal`, answers `--help` and `--version`; an unknown command is a usage fault (exit 2). */
export async function main(argv: readonly string[], io: DecayIo): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === "--help" || command === "-h" || command === "help") return say(io, HELP);
  if (command === "--version") return say(io, `${VERSION}\n`);
  if (command === "journal") return journalMain(rest, io);
  return fail(io, { code: "usage", message: `unknown command ${command}` });
}
