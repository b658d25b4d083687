import { err, ok, type Result } from "neverthrow";
import type { CliFault } from "./faults.js";
import { asks, scan, type OptionSpec, type Scanned } from "./scan.js";

/** How a check's report is printed. */
export type OutputMode = "human" | "json" | "github";

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

const COMMON: readonly OptionSpec[] = [
  { name: "--root", value: true },
  { name: "--ref", value: true },
  { name: "--descend-submodules", value: false },
  { name: "--help", alias: "-h", value: false },
  { name: "--version", value: false },
];

const CHECK: readonly OptionSpec[] = [
  ...COMMON,
  { name: "--digest", value: true },
  { name: "--json", value: false },
  { name: "--format", value: true },
  { name: "--max-input-bytes", value: true },
];

const AUTHOR: readonly OptionSpec[] = [
  ...COMMON,
  { name: "--reads", value: true, repeat: true },
  { name: "--edits", value: true, repeat: true },
  { name: "--creates", value: true, repeat: true },
  { name: "--output", alias: "-o", value: true },
];

function one(s: Scanned, name: string): string | undefined {
  return s.options.get(name)?.[0];
}

function many(s: Scanned, name: string): readonly string[] {
  return s.options.get(name) ?? [];
}

function rootOf(s: Scanned): Result<string, CliFault> {
  const root = one(s, "--root");
  if (root === undefined) return err({ code: "usage-missing-root" });
  return root === "" ? err({ code: "usage-empty-root" }) : ok(root);
}

function outputOf(s: Scanned): Result<OutputMode, CliFault> {
  const format = one(s, "--format");
  const json = s.options.has("--json");
  if (format !== undefined && format !== "github") {
    return err({ code: "usage-bad-value", flag: "--format", value: format, expected: "github" });
  }
  if (format !== undefined && json) return err({ code: "usage-conflict", first: "--json", second: "--format github" });
  if (format !== undefined) return ok("github");
  return ok(json ? "json" : "human");
}

function withRef<T extends object>(command: T, s: Scanned): T & TreeFlags {
  const ref = one(s, "--ref");
  const tree = s.options.has("--descend-submodules") ? { ...command, descendSubmodules: true } : command;
  return ref === undefined ? tree : { ...tree, ref };
}

function digestCommand(s: Scanned, root: string, path: string): Result<Command, CliFault> {
  const [extra] = s.positionals;
  if (extra !== undefined) return err({ code: "usage-conflict", first: "--digest", second: `an assumptions file (${extra})` });
  if (s.options.has("--json")) return err({ code: "usage-conflict", first: "--digest", second: "--json" });
  if (s.options.has("--format")) return err({ code: "usage-conflict", first: "--digest", second: "--format" });
  return ok(withRef({ kind: "digest" as const, root, path }, s));
}

/**
 * The most `--max-input-bytes` may raise the bound to: 256 MiB, well under the longest string
 * the JavaScript engine makes (about 512 Mi characters), so a plan is refused, never a crash.
 */
export const MAX_INPUT_CEILING = 256 * 1024 * 1024;

/** `--max-input-bytes N`: a positive integer number of bytes, up to the ceiling, when given. */
function maxInputOf(s: Scanned): Result<{ maxInputBytes?: number }, CliFault> {
  const raw = one(s, "--max-input-bytes");
  if (raw === undefined) return ok({});
  const n = Number(raw);
  if (!/^[1-9][0-9]*$/.test(raw) || n > MAX_INPUT_CEILING) {
    return err({ code: "usage-bad-value", flag: "--max-input-bytes", value: raw, expected: `a whole number of bytes from 1 to ${MAX_INPUT_CEILING}` });
  }
  return ok({ maxInputBytes: n });
}

function checkCommand(s: Scanned): Result<Command, CliFault> {
  return rootOf(s).andThen((root): Result<Command, CliFault> => {
    const digest = one(s, "--digest");
    if (digest !== undefined) return digestCommand(s, root, digest);
    const [input, extra] = s.positionals;
    if (input === undefined) return err({ code: "usage-missing-input" });
    if (extra !== undefined) return err({ code: "usage-extra-argument", value: extra });
    return outputOf(s).andThen((output) =>
      maxInputOf(s).map((limit) => withRef({ kind: "check" as const, root, input, output, ...limit }, s)),
    );
  });
}

function authorCommand(s: Scanned): Result<Command, CliFault> {
  return rootOf(s).andThen((root): Result<Command, CliFault> => {
    const [extra] = s.positionals;
    if (extra !== undefined) return err({ code: "usage-extra-argument", value: extra });
    const reads = many(s, "--reads");
    const edits = many(s, "--edits");
    const creates = many(s, "--creates");
    if (reads.length + edits.length + creates.length === 0) return err({ code: "usage-nothing-to-author" });
    const out = one(s, "--output");
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
  const github = head.includes("--format=github") || head.some((t, i) => t === "--format" && head[i + 1] === "github");
  return github ? "github" : "human";
}

/**
 * Reads argv (without the node and script names) into a Command. `--help` and `--version`
 * anywhere before `--` win over every other flag; `author` as the first word is the authoring
 * subcommand (a plan file of that name is passed as `./author`).
 */
export function parseArgs(argv: readonly string[]): Result<Command, CliFault> {
  if (asks(argv, "--help", "-h")) return ok({ kind: "help" });
  if (asks(argv, "--version")) return ok({ kind: "version" });
  if (argv[0] === "author") return scan(argv.slice(1), AUTHOR).andThen(authorCommand);
  return scan(argv, CHECK).andThen(checkCommand);
}
