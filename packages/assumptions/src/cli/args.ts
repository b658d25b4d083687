import { asks, parseArgv, versionAsked, type ArgSpec, type FlagSpecs, type ParsedArgs } from "@decay/cli-kit";
import { err, ok, type Result } from "neverthrow";
import { argFault, type CliFault } from "./faults.js";

/** How a check's report is printed. */
export type OutputMode = "human" | "json" | "github" | "sarif" | "junit";

/** Where the tree is read: `--ref` (a commit) and `--descend-submodules`, when given. */
export interface TreeFlags {
  readonly ref?: string;
  /** `--descend-submodules`: read a checked-out nested repository as ordinary directories. */
  readonly descendSubmodules?: boolean;
}

/** What one invocation of plan-decay asks for, after its flags were read. */
export type Command =
  | { readonly kind: "help" }
  | { readonly kind: "version" }
  | (TreeFlags & {
      readonly kind: "check";
      readonly root: string;
      /** The assumptions file as given; `-` is standard input. */
      readonly input: string;
      readonly output: OutputMode;
      /** `--max-input-bytes`: the bound on the assumptions file (default 64 MiB). */
      readonly maxInputBytes?: number;
    })
  | (TreeFlags & { readonly kind: "digest"; readonly root: string; readonly path: string })
  | (TreeFlags & {
      readonly kind: "author";
      readonly root: string;
      readonly reads: readonly string[];
      readonly edits: readonly string[];
      readonly creates: readonly string[];
      readonly out?: string;
    });

const COMMON = {
  root: { type: "string", allowEmpty: true },
  ref: { type: "string" },
  "descend-submodules": { type: "boolean" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean" },
} as const satisfies FlagSpecs;

const CHECK = {
  flags: {
    ...COMMON,
    digest: { type: "string" },
    json: { type: "boolean" },
    format: { type: "string" },
    "max-input-bytes": { type: "string" },
  },
  maxPositionals: 1,
} as const satisfies ArgSpec<FlagSpecs>;

const AUTHOR = {
  flags: {
    ...COMMON,
    reads: { type: "string", repeat: true },
    edits: { type: "string", repeat: true },
    creates: { type: "string", repeat: true },
    output: { type: "string", short: "o" },
  },
  maxPositionals: 0,
} as const satisfies ArgSpec<FlagSpecs>;

type Check = ParsedArgs<typeof CHECK.flags>;
type Author = ParsedArgs<typeof AUTHOR.flags>;

/** The formats `--format` takes. */
const FORMATS = ["github", "sarif", "junit"] as const;

function rootOf(s: Check | Author): Result<string, CliFault> {
  const root = s.values.root;
  if (root === undefined) return err({ code: "usage-missing-root" });
  return root === "" ? err({ code: "usage-empty-root" }) : ok(root);
}

function outputOf(s: Check): Result<OutputMode, CliFault> {
  const { format, json } = s.values;
  if (format === undefined) return ok(json === true ? "json" : "human");
  const known = FORMATS.find((f) => f === format);
  if (known === undefined) return err({ code: "usage-bad-value", flag: "--format", value: format, expected: FORMATS.join(", ") });
  return json === true ? err({ code: "usage-conflict", first: "--json", second: `--format ${known}` }) : ok(known);
}

function withRef<T extends object>(command: T, s: Check | Author): T & TreeFlags {
  const ref = s.values.ref;
  const tree = s.values["descend-submodules"] === true ? { ...command, descendSubmodules: true } : command;
  return ref === undefined ? tree : { ...tree, ref };
}

function digestCommand(s: Check, root: string, path: string): Result<Command, CliFault> {
  const [extra] = s.positionals;
  if (extra !== undefined) return err({ code: "usage-conflict", first: "--digest", second: `an assumptions file (${extra})` });
  if (s.values.json !== undefined) return err({ code: "usage-conflict", first: "--digest", second: "--json" });
  if (s.values.format !== undefined) return err({ code: "usage-conflict", first: "--digest", second: "--format" });
  return ok(withRef({ kind: "digest" as const, root, path }, s));
}

/**
 * The most `--max-input-bytes` may raise the bound to: 256 MiB, well under the longest string
 * the JavaScript engine makes (about 512 Mi characters), so a plan is refused, never a crash.
 */
export const MAX_INPUT_CEILING = 256 * 1024 * 1024;

/** `--max-input-bytes N`: a positive integer number of bytes, up to the ceiling, when given. */
function maxInputOf(s: Check): Result<{ maxInputBytes?: number }, CliFault> {
  const raw = s.values["max-input-bytes"];
  if (raw === undefined) return ok({});
  const n = Number(raw);
  if (!/^[1-9][0-9]*$/.test(raw) || n > MAX_INPUT_CEILING) {
    return err({ code: "usage-bad-value", flag: "--max-input-bytes", value: raw, expected: `a whole number of bytes from 1 to ${MAX_INPUT_CEILING}` });
  }
  return ok({ maxInputBytes: n });
}

function checkCommand(s: Check): Result<Command, CliFault> {
  return rootOf(s).andThen((root): Result<Command, CliFault> => {
    const digest = s.values.digest;
    if (digest !== undefined) return digestCommand(s, root, digest);
    const [input] = s.positionals;
    if (input === undefined) return err({ code: "usage-missing-input" });
    return outputOf(s).andThen((output) => maxInputOf(s).map((limit) => withRef({ kind: "check" as const, root, input, output, ...limit }, s)));
  });
}

function authorCommand(s: Author): Result<Command, CliFault> {
  return rootOf(s).andThen((root): Result<Command, CliFault> => {
    const { reads = [], edits = [], creates = [], output: out } = s.values;
    if (reads.length + edits.length + creates.length === 0) return err({ code: "usage-nothing-to-author" });
    const base = { kind: "author" as const, root, reads, edits, creates };
    return ok(withRef(out === undefined ? base : { ...base, out }, s));
  });
}

/**
 * The output a command line asked for, read without parsing it, so that even its usage fault is
 * shown that way (a `--json` caller reads `{"fault": …}` on stdout). `author` prints text only.
 */
export function askedOutput(argv: readonly string[]): OutputMode {
  const end = argv.indexOf("--");
  const head = end === -1 ? argv : argv.slice(0, end);
  if (head[0] === "author") return "human";
  if (head.includes("--json")) return "json";
  const format = head.find((_t, i) => i > 0 && head[i - 1] === "--format") ?? head.find((t) => t.startsWith("--format="))?.slice(9);
  // A fault is never shown as SARIF or JUnit: those formats carry verdicts, and a fault has none.
  return format === "github" ? "github" : "human";
}

/**
 * Reads argv (without the node and script names) into a Command. `--help` anywhere
 * before `--` wins over every other flag, and so does `--version` given alone (`versionAsked`); `author` as the first word is the authoring
 * subcommand (a plan file of that name is passed as `./author`).
 */
export function parseArgs(argv: readonly string[]): Result<Command, CliFault> {
  const flags = (argv[0] === "author" ? AUTHOR : CHECK).flags;
  if (asks(argv, flags, "--help", "-h")) return ok({ kind: "help" });
  // `--version` alone: `--version extra` is refused, not answered (`author --version` is alone).
  const version = versionAsked(argv[0] === "author" ? argv.slice(1) : argv, flags, "plan-decay");
  if (version.isErr()) return err(argFault(version.error));
  if (version.value) return ok({ kind: "version" });
  if (argv[0] === "author") return parseArgv(argv.slice(1), AUTHOR).mapErr(argFault).andThen(authorCommand);
  return parseArgv(argv, CHECK).mapErr(argFault).andThen(checkCommand);
}
