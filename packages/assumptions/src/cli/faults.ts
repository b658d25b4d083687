import { describeArgFault, helpHint, shown, type ArgFault } from "@decay/cli-kit";

/**
 * A file the plan `author` writes names, for naming it when `-o` would replace or make it: the
 * option that named it, the path as given there, the file's path under `--root` (as the run
 * opened it, or would), and the `--ref` its digest was read from instead of this file, if any.
 */
export interface PlanFile {
  readonly option: "--reads" | "--edits" | "--creates";
  readonly given: string;
  readonly file: string;
  readonly ref?: string;
}

/** The plan-decay fault code of each argument fault the shared parser reports. */
export const ARG_FAULT_CODE = {
  "unknown-flag": "usage-unknown-flag",
  "missing-value": "usage-missing-value",
  "unexpected-value": "usage-unexpected-value",
  "repeated-flag": "usage-repeated-flag",
  "unexpected-argument": "usage-extra-argument",
  "not-for-command": "usage-not-for-command",
  "equals-after-short": "usage-equals-after-short",
} as const satisfies Record<ArgFault["code"], string>;

type ArgFaultCode = (typeof ARG_FAULT_CODE)[ArgFault["code"]];

/** An argument fault of the shared parser, under its plan-decay code. */
export function argFault(arg: ArgFault): CliFault {
  return { code: ARG_FAULT_CODE[arg.code], arg };
}

/**
 * Faults of the plan-decay CLI itself (usage, its own files and streams). Faults of the gate
 * come from the core as `AssumptionsFault`; both leave through exit 2.
 */
export type CliFault =
  | { readonly code: ArgFaultCode; readonly arg: ArgFault }
  | { readonly code: "usage-bad-value"; readonly flag: string; readonly value: string; readonly expected: string }
  | { readonly code: "usage-missing-root" }
  | { readonly code: "usage-empty-root" }
  | { readonly code: "usage-missing-input" }
  | { readonly code: "usage-conflict"; readonly first: string; readonly second: string }
  | { readonly code: "usage-nothing-to-author" }
  | { readonly code: "root-unusable"; readonly root: string; readonly reason: string }
  | { readonly code: "input-unreadable"; readonly path: string; readonly reason: string }
  | { readonly code: "output-unwritable"; readonly path: string; readonly reason: string }
  | ({ readonly code: "output-is-input"; readonly path: string } & PlanFile)
  | ({ readonly code: "output-in-plan"; readonly path: string } & PlanFile)
  | { readonly code: "stdout-write-failed"; readonly reason: string }
  | { readonly code: "report-invalid"; readonly reason: string }
  | { readonly code: "report-too-large"; readonly rows: number; readonly reason: string }
  | { readonly code: "internal"; readonly reason: string };

/** Every CLI fault code, in one tuple (the exit-code switch covers each). */
export const CLI_FAULT_CODES = [
  "usage-unknown-flag",
  "usage-missing-value",
  "usage-unexpected-value",
  "usage-bad-value",
  "usage-repeated-flag",
  "usage-not-for-command",
  "usage-equals-after-short",
  "usage-missing-root",
  "usage-empty-root",
  "usage-missing-input",
  "usage-extra-argument",
  "usage-conflict",
  "usage-nothing-to-author",
  "root-unusable",
  "input-unreadable",
  "output-unwritable",
  "output-is-input",
  "output-in-plan",
  "stdout-write-failed",
  "report-invalid",
  "report-too-large",
  "internal",
] as const satisfies readonly CliFault["code"][];

const HINT = helpHint("plan-decay");

/** How a file of the plan was named: the option, the path as given, and the file under `--root`. */
function namedBy(file: PlanFile): string {
  return `${file.option} ${shown(file.given)} (${shown(file.file)})`;
}

/** Why `-o` may not write a file of the plan that this run did not read from disk. */
function inPlan(file: PlanFile): string {
  if (file.option === "--creates") return "a path the plan says is absent; writing the plan there would make its own absent row false before the work starts";
  const ref = file.ref === undefined ? "" : ` (its digest taken from --ref ${shown(file.ref)})`;
  return `a file the plan pins as unchanged${ref}; writing it would replace the working copy of a file the plan describes`;
}

/** The one place a CLI fault becomes a sentence. */
export function describeCliFault(fault: CliFault): string {
  switch (fault.code) {
    case "usage-unknown-flag":
    case "usage-missing-value":
    case "usage-unexpected-value":
    case "usage-repeated-flag":
    case "usage-extra-argument":
    case "usage-not-for-command":
    case "usage-equals-after-short":
      return `${describeArgFault(fault.arg)}${HINT}`;
    case "usage-bad-value":
      return `${fault.flag} ${JSON.stringify(fault.value)} is not accepted: expected ${fault.expected}`;
    case "usage-missing-root":
      return `--root DIR is required: the gate never guesses which tree to check${HINT}`;
    case "usage-empty-root":
      return "--root is empty: name the directory to check";
    case "usage-missing-input":
      return `no assumptions file given (a path, or - for standard input)${HINT}`;
    case "usage-conflict":
      return `${fault.first} cannot be combined with ${fault.second}`;
    case "usage-nothing-to-author":
      return "author needs at least one --reads, --edits or --creates path";
    case "root-unusable":
      return `--root ${shown(fault.root)} cannot be checked: ${fault.reason}`;
    case "input-unreadable":
      return `cannot read the assumptions file ${shown(fault.path)}: ${fault.reason}`;
    case "output-unwritable":
      return `cannot write ${shown(fault.path)}: ${fault.reason} (nothing was written)`;
    case "output-is-input":
      return `cannot write ${shown(fault.path)}: -o names the same file as ${namedBy(fault)}, a file this run read; writing it would replace that file (nothing was written)`;
    case "output-in-plan":
      return `cannot write ${shown(fault.path)}: -o names the same file as ${namedBy(fault)}, ${inPlan(fault)} (nothing was written)`;
    case "stdout-write-failed":
      return `standard output could not be written (${fault.reason}); no verdict was delivered`;
    case "report-invalid":
      return `internal error: the report does not match its schema (${fault.reason})`;
    case "report-too-large":
      return `the report of ${fault.rows} rows is too large to write in this output format (${fault.reason}); no verdict was delivered: split the plan, or choose a shorter format`;
    case "internal":
      return `internal error: ${fault.reason}`;
  }
}
