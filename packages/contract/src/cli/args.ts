import { asks, describeArgFault, parseArgv, shown, versionAsked, type ArgFault, type ArgSpec, type FlagSpecs } from "@decay/cli-kit";
import { err, ok, type Result } from "neverthrow";

/** How `check` prints its findings: text, JSON, or a CI format. */
export type CheckFormat = "text" | "json" | "github" | "sarif" | "junit";

/** A parsed command line. */
export type Command =
  | { kind: "help"; topic: Topic }
  | { kind: "version" }
  | { kind: "compile"; plan: string; output?: string; json: boolean; quiet: boolean; maxInputBytes?: number }
  | { kind: "import"; plan: string; output?: string; maxInputBytes?: number }
  | { kind: "check"; file: string; plan?: string; json: boolean; format: CheckFormat; includeOptional: boolean; maxInputBytes?: number };

/** The subcommands, each with its help. */
export type Topic = "top" | "compile" | "check" | "import";

/** A command line the CLI cannot use. */
export type UsageFault = { code: "usage"; message: string };

const COMMON = {
  help: { type: "boolean", short: "h" },
  version: { type: "boolean" },
  "max-input-bytes": { type: "string" },
} as const satisfies FlagSpecs;

const SPECS = {
  compile: {
    flags: { ...COMMON, output: { type: "string", short: "o" }, json: { type: "boolean" }, quiet: { type: "boolean", short: "q" } },
    maxPositionals: 1,
  },
  import: { flags: { ...COMMON, output: { type: "string", short: "o" } }, maxPositionals: 1 },
  check: {
    flags: { ...COMMON, plan: { type: "string" }, json: { type: "boolean" }, format: { type: "string" }, "include-optional": { type: "boolean" } },
    maxPositionals: 1,
  },
} as const satisfies Record<Exclude<Topic, "top">, ArgSpec<FlagSpecs>>;

/** The formats `check --format` takes. */
const FORMATS = ["github", "sarif", "junit"] as const;

const usage = (message: string): UsageFault => ({ code: "usage", message });
const argFault = (f: ArgFault): UsageFault => usage(describeArgFault(f));

/** The most `--max-input-bytes` accepts: 256 MiB, far below the longest string the engine makes. */
export const MAX_INPUT_CEILING = 256 * 1024 * 1024;

function maxInput(raw: string | undefined): Result<{ maxInputBytes?: number }, UsageFault> {
  if (raw === undefined) return ok({});
  const n = Number(raw);
  if (!/^[1-9][0-9]*$/.test(raw) || n > MAX_INPUT_CEILING) {
    return err(usage(`--max-input-bytes must be a whole number of bytes from 1 to ${MAX_INPUT_CEILING}`));
  }
  return ok({ maxInputBytes: n });
}

function checkFormat(json: boolean, format: string | undefined): Result<CheckFormat, UsageFault> {
  if (format === undefined) return ok(json ? "json" : "text");
  const known = FORMATS.find((f) => f === format);
  if (known === undefined) return err(usage(`--format ${JSON.stringify(format)} is not accepted: expected ${FORMATS.join(", ")}`));
  return json ? err(usage(`--json cannot be combined with --format ${known}`)) : ok(known);
}

function compile(rest: readonly string[]): Result<Command, UsageFault> {
  return parseArgv(rest, SPECS.compile)
    .mapErr(argFault)
    .andThen(({ values: v, positionals: [plan] }): Result<Command, UsageFault> => {
      if (plan === undefined) return err(usage("compile takes exactly one file"));
      const output = v.output === undefined ? {} : { output: v.output };
      return maxInput(v["max-input-bytes"]).map(
        (limit): Command => ({ kind: "compile", plan, json: v.json === true, quiet: v.quiet === true, ...output, ...limit }),
      );
    });
}

function importPlan(rest: readonly string[]): Result<Command, UsageFault> {
  return parseArgv(rest, SPECS.import)
    .mapErr(argFault)
    .andThen(({ values: v, positionals: [plan] }): Result<Command, UsageFault> => {
      if (plan === undefined) return err(usage("import takes exactly one file"));
      const output = v.output === undefined ? {} : { output: v.output };
      return maxInput(v["max-input-bytes"]).map((limit): Command => ({ kind: "import", plan, ...output, ...limit }));
    });
}

function check(rest: readonly string[]): Result<Command, UsageFault> {
  return parseArgv(rest, SPECS.check)
    .mapErr(argFault)
    .andThen(({ values: v, positionals: [file] }): Result<Command, UsageFault> => {
      if (file === undefined) return err(usage("check takes exactly one file"));
      // Standard input can be read once: refused here, before either read.
      if (file === "-" && v.plan === "-") return err(usage("standard input (-) is named twice: as FILE and as --plan; give one of them as a file"));
      const plan = v.plan === undefined ? {} : { plan: v.plan };
      return checkFormat(v.json === true, v.format).andThen((format) =>
        maxInput(v["max-input-bytes"]).map(
          (limit): Command => ({ kind: "check", file, json: format === "json", format, includeOptional: v["include-optional"] === true, ...plan, ...limit }),
        ),
      );
    });
}

/** `--help` or `--version` asked for (and `--version` alone: `versionAsked`), else null. */
function helpOrVersion(args: readonly string[], flags: FlagSpecs, topic: Topic): Result<Command | null, UsageFault> {
  if (asks(args, flags, "--help", "-h")) return ok({ kind: "help", topic });
  return versionAsked(args, flags, "decay-contract")
    .mapErr(argFault)
    .map((asked): Command | null => (asked ? { kind: "version" } : null));
}

/**
 * Parse `decay-contract compile|check|import …`; `--help` wins over the rest, before or after the
 * command, and `--version` too when it is given alone (`--version extra` is refused).
 */
export function parseArgs(argv: string[]): Result<Command, UsageFault> {
  const [sub, ...rest] = argv;
  // No command is a usage fault (exit 2), as in the other decay CLIs: a CI line whose command word
  // came out empty must not pass. `help` asks for the usage.
  if (sub === undefined) return err(usage("a command is required: compile, check or import"));
  if (sub === "help") return ok({ kind: "help", topic: "top" });
  if (sub !== "compile" && sub !== "check" && sub !== "import") {
    const asked = sub.startsWith("-") ? helpOrVersion(argv, COMMON, "top") : ok(null);
    // A dash word that is no flag (`-hotfix.md`) is refused naming its first unknown letter.
    const flag = (): Result<unknown, UsageFault> => (sub.startsWith("-") ? parseArgv([sub], { flags: COMMON }).mapErr(argFault) : ok(null));
    return asked.andThen((cmd) => (cmd === null ? flag().andThen(() => err(usage(`unknown command ${shown(sub)}`))) : ok(cmd)));
  }
  return helpOrVersion(rest, SPECS[sub].flags, sub).andThen((cmd) => (cmd === null ? { check, compile, import: importPlan }[sub](rest) : ok(cmd)));
}

/** Help text per topic. */
export const HELP: Record<Topic, string> = {
  top: `decay-contract: compile a staged plan into an acceptance contract, and refuse a contract that would lie

Usage:
  decay-contract compile PLAN.md [-o contract.md] [--json] [--quiet] [--max-input-bytes N]
  decay-contract check FILE [--plan PLAN.md] [--include-optional] [--json | --format github|sarif|junit] [--max-input-bytes N]
  decay-contract import PLAN.md [-o staged.plan.md] [--max-input-bytes N]
  decay-contract --help | --version

A file named - is standard input. Every input is refused past --max-input-bytes (default
67108864, 64 MiB); a FIFO, device or socket is refused before it is opened. -o writes atomically
(-o - is standard output) and never over an existing target that is not a regular file.
Limits: docs/limits.md.

Exit codes: compile and import 0 written, 2 fault; check 0 no refusals, 1 refusals, 2 fault.
Formats: docs/plan-format.md, docs/contract-format.md.
`,
  compile: `Usage: decay-contract compile PLAN.md [-o contract.md] [--json] [--quiet] [--max-input-bytes N]

Read PLAN.md's staged recommendation and write its acceptance contract: contract.md to stdout,
or to the file given with -o; --json writes the Contract as JSON instead. A one-line summary
(stages with their plan labels, rows, guardrails, falsifiers) goes to stderr; --quiet turns it off.
Exit: 0 written, 2 fault (the message names the line).
`,
  import: `Usage: decay-contract import PLAN.md [-o staged.plan.md] [--max-input-bytes N]

Convert a task plan (### Task N with Run:/Expected: steps), a spec-kit tasks.md (## Phase N,
T001 checkboxes, Checkpoint:) or an OpenSpec tasks.md (## 1. Group, - [ ] 1.1 task) into a plan
in the staged format: one stage per task or phase, instructions verbatim, each Run: + Expected:
pair an Acceptance: line. What could not be converted is listed under "## Not converted" in the
output and on stderr. Then run decay-contract check on the result.
Exit: 0 written, 2 fault.
`,
  check: `Usage: decay-contract check FILE [--plan PLAN.md] [--include-optional] [--json | --format F] [--max-input-bytes N]

Self-check a contract before anything is spent. FILE is a contract.md, or a plan (a file without
the contract front matter), which is compiled first. --plan gives the plan the contract was
compiled from: its ordering constraints are checked and a changed plan is reported.
--include-optional checks the contract as a run with optional stages included (decay run
--include-optional) sees it: those then need acceptance rows, and a plan whose every stage is
optional is no longer a run that verifies nothing.
Findings go to stdout (--json: {$schema, version, findings: [{code, severity, stage, row, message}]}); warnings are
printed either way. --format github prints one ::error (refusal) or ::warning per finding before
the text; --format sarif prints a SARIF 2.1.0 log (a result per finding at its line of FILE, named
from its repository root); --format junit prints JUnit XML (a test case per finding and per
acceptance row with none; a failure per refusal). See docs/contract-format.md.
Exit: 0 no refusals, 1 refusals, 2 fault.
`,
};
