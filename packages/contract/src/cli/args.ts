import { err, ok, type Result } from "neverthrow";

/** A parsed command line. */
export type Command =
  | { kind: "help"; topic: Topic }
  | { kind: "version" }
  | { kind: "compile"; plan: string; output?: string; json: boolean; quiet: boolean; maxInputBytes?: number }
  | { kind: "import"; plan: string; output?: string; maxInputBytes?: number }
  | { kind: "check"; file: string; plan?: string; json: boolean; maxInputBytes?: number };

/** The subcommands, each with its help. */
export type Topic = "top" | "compile" | "check" | "import";

/** A command line the CLI cannot use. */
export type UsageFault = { code: "usage"; message: string };

type Flags = { json: boolean; quiet: boolean; help: boolean; version: boolean; values: Map<string, string>; positional: string[] };

function readFlags(args: string[], valued: string[], switches: string[]): Result<Flags, UsageFault> {
  const flags: Flags = { json: false, quiet: false, help: false, version: false, values: new Map(), positional: [] };
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? "";
    const [name, inline] = a.startsWith("--") && a.includes("=") ? [a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1)] : [a, undefined];
    if (switches.includes(name) && name === "--json") flags.json = true;
    else if (switches.includes(name) && (name === "--quiet" || name === "-q")) flags.quiet = true;
    else if (name === "--help" || name === "-h") flags.help = true;
    else if (name === "--version") flags.version = true;
    else if (valued.includes(name)) {
      const value = inline ?? args[++i];
      if (value === undefined || value === "") return err({ code: "usage", message: `${name} needs a value` });
      flags.values.set(name === "-o" ? "--output" : name, value);
    } else if (name.startsWith("-") && name !== "-") return err({ code: "usage", message: `unknown option ${name}` });
    else flags.positional.push(a);
  }
  return ok(flags);
}

/** The most `--max-input-bytes` accepts: 256 MiB, far below the longest string the engine makes. */
export const MAX_INPUT_CEILING = 256 * 1024 * 1024;

function maxInput(raw: string | undefined): Result<{ maxInputBytes?: number }, UsageFault> {
  if (raw === undefined) return ok({});
  const n = Number(raw);
  if (!/^[1-9][0-9]*$/.test(raw) || n > MAX_INPUT_CEILING) {
    return err({ code: "usage", message: `--max-input-bytes must be a whole number of bytes from 1 to ${MAX_INPUT_CEILING}` });
  }
  return ok({ maxInputBytes: n });
}

/** Parse `decay-contract compile|check …`. */
export function parseArgs(argv: string[]): Result<Command, UsageFault> {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === "--help" || sub === "-h" || sub === "help") return ok({ kind: "help", topic: "top" });
  if (sub === "--version") return ok({ kind: "version" });
  if (sub !== "compile" && sub !== "check" && sub !== "import") return err({ code: "usage", message: `unknown command ${sub}` });
  const valued = sub === "check" ? ["--plan", "--max-input-bytes"] : ["-o", "--output", "--max-input-bytes"];
  const switches = { compile: ["--json", "--quiet", "-q"], check: ["--json"], import: [] }[sub];
  return readFlags(rest, valued, switches).andThen((f): Result<Command, UsageFault> => {
    if (f.help) return ok({ kind: "help", topic: sub });
    if (f.version) return ok({ kind: "version" });
    const [file, extra] = f.positional;
    if (file === undefined || extra !== undefined) {
      return err({ code: "usage", message: `${sub} takes exactly one file` });
    }
    const output = f.values.get("--output");
    const plan = f.values.get("--plan");
    return maxInput(f.values.get("--max-input-bytes")).andThen((limit): Result<Command, UsageFault> => {
      if (sub === "compile") return ok({ kind: "compile", plan: file, json: f.json, quiet: f.quiet, ...(output ? { output } : {}), ...limit });
      if (sub === "import") return ok({ kind: "import", plan: file, ...(output ? { output } : {}), ...limit });
      return ok({ kind: "check", file, json: f.json, ...(plan ? { plan } : {}), ...limit });
    });
  });
}

/** Help text per topic. */
export const HELP: Record<Topic, string> = {
  top: `decay-contract: compile a staged plan into an acceptance contract, and refuse a contract that would lie

Usage:
  decay-contract compile PLAN.md [-o contract.md] [--json] [--quiet] [--max-input-bytes N]
  decay-contract check FILE [--plan PLAN.md] [--json] [--max-input-bytes N]
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
  check: `Usage: decay-contract check FILE [--plan PLAN.md] [--json] [--max-input-bytes N]

Self-check a contract before anything is spent. FILE is a contract.md, or a plan (a file without
the contract front matter), which is compiled first. --plan gives the plan the contract was
compiled from: its ordering constraints are checked and a changed plan is reported.
Findings go to stdout (--json: an array of {code, severity, stage, row, message}); warnings are
printed either way.
Exit: 0 no refusals, 1 refusals, 2 fault.
`,
};
