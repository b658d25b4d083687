// The `decay` CLI's faults and the one place they become exit codes.
import { helpHint } from "@decay/cli-kit";
import type { ExecFault } from "../fault.js";
import { describeExecFault } from "../fault.js";
import type { JournalFault } from "../journal/fault.js";
import { describeJournalFault } from "../journal/fault.js";
import { oneLine } from "@decay/portable";

/** Every way a `decay` command can fail; each exits 2. */
export type CliFault =
  | { code: "usage"; message: string }
  | { code: "file-unreadable"; path: string; reason: string }
  | { code: "file-not-utf8"; path: string }
  | { code: "file-unwritable"; path: string; reason: string }
  | { code: "journal"; path: string; fault: JournalFault }
  | { code: "exec"; fault: ExecFault }
  | { code: "stdout-write-failed"; reason: string };

/** Every CLI fault code, for exhaustive tables (docs). */
export const CLI_FAULT_CODES = [
  "usage",
  "file-unreadable",
  "file-not-utf8",
  "file-unwritable",
  "journal",
  "exec",
  "stdout-write-failed",
] as const satisfies readonly CliFault["code"][];

/** The exit code of a fault: one exhaustive switch, so a new fault cannot compile without one. */
export function exitCodeFor(fault: CliFault): 2 {
  switch (fault.code) {
    case "usage":
    case "file-unreadable":
    case "file-not-utf8":
    case "file-unwritable":
    case "journal":
    case "exec":
    case "stdout-write-failed":
      return 2;
  }
}

/** The sentence for a CLI fault; one line, even where it quotes what git, a command or a plan holds. */
export function describeCliFault(fault: CliFault): string {
  return oneLine(sentence(fault));
}

function sentence(fault: CliFault): string {
  switch (fault.code) {
    case "usage":
      return `${fault.message}${helpHint("decay")}`;
    case "file-unreadable":
      return `cannot read ${fault.path}: ${fault.reason}`;
    case "file-not-utf8":
      return `${fault.path} is not UTF-8 text`;
    case "file-unwritable":
      return `cannot write ${fault.path}: ${fault.reason}`;
    case "journal":
      return `${fault.path}: ${describeJournalFault(fault.fault)}`;
    case "exec":
      return describeExecFault(fault.fault);
    case "stdout-write-failed":
      return `cannot write to standard output: ${fault.reason}`;
  }
}
