// The one argument parser of the decay CLIs: node:util parseArgs reads the tokens, and a thin
// layer checks them against a declarative spec, so every CLI refuses a bad command line with the
// same faults and the same sentences.
import { type NodeOptions, tokensOf } from "./args-tokens.js";
import { err, ok, type Result } from "neverthrow";

/** One flag: a string or a boolean, an optional one-letter alias, whether it may repeat or be empty. */
export interface FlagSpec {
  readonly type: "string" | "boolean";
  /** The one-letter alias, without its dash (`"o"` for `-o`). */
  readonly short?: string;
  /** May be given more than once (its values are kept in order); otherwise a repeat is a fault. */
  readonly repeat?: boolean;
  /** Accept an empty value (`--root ""`); otherwise an empty value is a missing one. */
  readonly allowEmpty?: boolean;
}

/** The flags of a command, by long name without the dashes. */
export type FlagSpecs = Readonly<Record<string, FlagSpec>>;

/** What a command accepts: its flags and at most how many positional arguments (default: any). */
export interface ArgSpec<F extends FlagSpecs> {
  readonly flags: F;
  readonly maxPositionals?: number;
}

type ValueOf<S extends FlagSpec> = S extends { readonly type: "boolean" } ? true : S extends { readonly repeat: true } ? string[] : string;

/** The flags given, by long name: `true` for a boolean, the value, or the values of a repeatable flag. */
export type FlagValues<F extends FlagSpecs> = { readonly [K in keyof F]?: ValueOf<F[K]> };

/** A command line read against its spec: the flags given and the positional arguments in order. */
export interface ParsedArgs<F extends FlagSpecs> {
  readonly values: FlagValues<F>;
  readonly positionals: readonly string[];
}

/** A command line the spec refuses; `flag` is the flag as it was spelled (or the canonical `--name`). */
export type ArgFault =
  | { readonly code: "unknown-flag"; readonly flag: string; readonly group?: string }
  | { readonly code: "missing-value"; readonly flag: string }
  | { readonly code: "unexpected-value"; readonly flag: string; readonly value: string }
  | { readonly code: "repeated-flag"; readonly flag: string }
  | { readonly code: "unexpected-argument"; readonly value: string }
  | { readonly code: "not-for-command"; readonly flag: string; readonly command: string }
  /** `-o=FILE`: a one-letter flag's value written after `=`, which would be taken as `=FILE`. */
  | { readonly code: "equals-after-short"; readonly flag: string; readonly long: string; readonly value: string };

/** Every argument fault code, in one tuple. */
export const ARG_FAULT_CODES = [
  "unknown-flag",
  "missing-value",
  "unexpected-value",
  "repeated-flag",
  "unexpected-argument",
  "not-for-command",
  "equals-after-short",
] as const satisfies readonly ArgFault["code"][];

/** Text from the command line, safe on one line: quoted with every control or line-breaking character escaped. */
export function quoted(text: string): string {
  return JSON.stringify(text).replace(/[\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/**
 * A name from the command line (a file, a command word) as a message shows it: as typed when
 * `quoted` would escape nothing in it, else `quoted`, so a line break or a control character in
 * it never splits or redraws the message's one line. An empty name is `""`, never nothing.
 */
export function shown(text: string): string {
  const q = quoted(text);
  return text !== "" && q.slice(1, -1) === text ? text : q;
}

/** A flag as typed, shown raw when it is plain printable ASCII, quoted otherwise. */
function shownFlag(flag: string): string {
  return /^[\x21-\x7e]+$/.test(flag) ? flag : quoted(flag);
}

/** The one sentence for each argument fault, the same in every decay CLI; always one line. */
export function describeArgFault(fault: ArgFault): string {
  switch (fault.code) {
    case "unknown-flag":
      return `unknown option ${shownFlag(fault.flag)}${fault.group === undefined ? "" : ` (the "-" among the one-letter flags of ${shownFlag(fault.group)})`}`;
    case "missing-value":
      return `${fault.flag} needs a value`;
    case "unexpected-value":
      return `${fault.flag} takes no value, but was given ${quoted(fault.value)}`;
    case "repeated-flag":
      return `${fault.flag} was given more than once`;
    case "unexpected-argument":
      return `unexpected argument ${quoted(fault.value)}`;
    case "not-for-command":
      return `${fault.flag} is not an option of ${fault.command}`;
    case "equals-after-short": {
      // `-o -h` would ask for help and `-o --x` need a value: a value that looks like a flag is offered only in the `=` form.
      const separate = looksLikeFlag(fault.value) ? "" : `${fault.flag} ${shown(fault.value)} or `;
      return `${fault.flag}=${shown(fault.value)} would be read as the value ${quoted(`=${fault.value}`)}: write ${separate}${fault.long}=${shown(fault.value)}`;
    }
  }
}

/** The hint every usage fault of a CLI ends with. */
export function helpHint(program: string): string {
  return ` (see ${program} --help)`;
}

/** What `--version` prints in every decay CLI: `<name> <version>` and a newline. */
export function versionLine(name: string, version: string): string {
  return `${name} ${version}\n`;
}

/**
 * True when argv holds one of `flags` (as spelled: `--help`, `-h`) before any `--`, alone or in a
 * group of short flags (`-hq`), read as `parseArgv` reads it against `spec` (which says whose
 * short flag takes a value: `-oh` is `-o h`), so `--help` can win over every other fault. A word
 * that is not made only of the spec's flags (`-hotfix.tsv` where `-o` is unknown, `-xh`, `-o=h`,
 * `--help=x`) asks for nothing: `parseArgv` refuses it, naming its first unknown letter.
 */
export function asks(argv: readonly string[], spec: FlagSpecs, ...flags: readonly string[]): boolean {
  const tokens = tokensOf(argv, nodeOptions(spec));
  const known = (t: OptionToken) => (specOf(spec, t) !== undefined || flags.includes(t.rawName)) && !equalsAfterShort(t);
  const misspelled = new Set(tokens.filter((t) => (t.kind === "option" && !known(t)) || dashInGroup(argv, t)).map((t) => t.index));
  for (const t of tokens) {
    if (t.kind === "option-terminator") return false;
    if (t.kind !== "option" || misspelled.has(t.index)) continue;
    if (flags.includes(t.rawName) && t.inlineValue !== true) return true;
    // A separate argument taken as a value is no value to parseArgv when it looks like a flag:
    // `-o -h` asks for help, and `-o --` ends the options there.
    if (t.inlineValue === false && t.value === "--") return false;
    const taken = t.inlineValue === false ? (t.value ?? "") : "";
    if (flags.includes(taken) || (/^-[^-]/.test(taken) && asks([taken], spec, ...flags))) return true;
  }
  return false;
}

/**
 * Whether a token is the `-` of a group of short flags (`-h-x`): node reads `-h-x` as `-h -- -x`, an
 * end of options no one typed. It is an unknown letter of the group, never the end of the options.
 */
const dashInGroup = (argv: readonly string[], t: { kind: string; index: number }): boolean => t.kind === "option-terminator" && argv[t.index] !== "--";

type OptionToken = { readonly name: string; readonly rawName: string; readonly value?: string | undefined; readonly inlineValue?: boolean | undefined };

/** The spec of a token's flag, or undefined when the flag is not in the spec as spelled. */
function specOf(flags: FlagSpecs, t: OptionToken): FlagSpec | undefined {
  if (!Object.hasOwn(flags, t.name)) return undefined;
  const spec = flags[t.name] as FlagSpec;
  const spelled = t.rawName.startsWith("--") ? t.rawName === `--${t.name}` : spec.short !== undefined && t.rawName === `-${spec.short}`;
  return spelled ? spec : undefined;
}

/** Whether a separate argument is read as a flag rather than as the value before it: `-h`, `--x`, not `-` alone. */
const looksLikeFlag = (arg: string): boolean => arg.length > 1 && arg.startsWith("-");

/** A one-letter flag's value glued on with `=` (`-o=FILE`, `-o=`): `-o` and `=FILE` to node, never meant so. */
function equalsAfterShort(t: OptionToken): boolean {
  return !t.rawName.startsWith("--") && t.inlineValue === true && t.value?.startsWith("=") === true;
}

/** The value of an option token, or the fault in it. */
function valueOf(spec: FlagSpec, t: OptionToken): Result<string | true, ArgFault> {
  if (spec.type === "boolean") return t.value === undefined ? ok(true) : err({ code: "unexpected-value", flag: t.rawName, value: t.value });
  const v = t.value;
  if (equalsAfterShort(t) && v !== undefined) {
    return v === "="
      ? err({ code: "missing-value", flag: t.rawName })
      : err({ code: "equals-after-short", flag: t.rawName, long: `--${t.name}`, value: v.slice(1) });
  }
  const optionLike = t.inlineValue !== true && v !== undefined && looksLikeFlag(v);
  if (v === undefined || optionLike || (v === "" && spec.allowEmpty !== true)) return err({ code: "missing-value", flag: t.rawName });
  return ok(v);
}

function nodeOptions(flags: FlagSpecs): NodeOptions {
  const options: NodeOptions = {};
  for (const [name, spec] of Object.entries(flags)) options[name] = spec.short === undefined ? { type: spec.type } : { type: spec.type, short: spec.short };
  return options;
}

/**
 * Reads argv against a spec: `--name value`, `--name=value`, `-x value`, `-xvalue`, grouped short
 * booleans, and `--` (what follows is positional; `-` alone is a positional too). Unknown flags,
 * missing values (a value that looks like a flag does not count), values given to a boolean,
 * repeats of a non-repeatable flag and positionals past the spec's count are faults, the first
 * one met in argv order; nothing is ignored and nothing throws.
 */
export function parseArgv<F extends FlagSpecs>(argv: readonly string[], spec: ArgSpec<F>): Result<ParsedArgs<F>, ArgFault> {
  const tokens = tokensOf(argv, nodeOptions(spec.flags));
  const values: Record<string, string | true | string[]> = {};
  const positionals: string[] = [];
  for (const t of tokens) {
    if (dashInGroup(argv, t)) return err({ code: "unknown-flag", flag: "--", group: argv[t.index] as string });
    if (t.kind === "option-terminator") continue;
    if (t.kind === "positional") {
      if (positionals.length === (spec.maxPositionals ?? Number.POSITIVE_INFINITY)) return err({ code: "unexpected-argument", value: t.value });
      positionals.push(t.value);
      continue;
    }
    const flag = specOf(spec.flags, t);
    if (flag === undefined) return err({ code: "unknown-flag", flag: t.rawName });
    const value = valueOf(flag, t);
    if (value.isErr()) return err(value.error);
    const seen = values[t.name];
    if (seen !== undefined && flag.repeat !== true) return err({ code: "repeated-flag", flag: `--${t.name}` });
    // A repeated flag's values go into one list, appended in place: a copy per value was
    // quadratic in the count (40,000 `--creates` took 13 s).
    if (flag.repeat === true) {
      const list = (seen as string[] | undefined) ?? [];
      list.push(value.value as string);
      values[t.name] = list;
    } else values[t.name] = value.value;
  }
  return ok({ values: values as FlagValues<F>, positionals });
}

/**
 * Refuses a flag given to a command that does not take it (a CLI that reads every command's flags
 * in one pass, so its command word may stand anywhere): `command` names it, e.g. `decay report`.
 */
export function onlyFlags(values: object, allowed: readonly string[], command: string): Result<void, ArgFault> {
  const stray = Object.keys(values).find((k) => !allowed.includes(k));
  return stray === undefined ? ok(undefined) : err({ code: "not-for-command", flag: `--${stray}`, command });
}

/**
 * `--version` prints one line and reads nothing else, so a command line asking for it holds
 * nothing else to ignore: its first positional argument is refused (`unexpected argument
 * "extra"`), and so is any flag but `--version` and the `companions` that shape what it prints
 * (`decay-evidence --version --json`), as not an option of `<program> --version`.
 */
export function versionAlone(
  parsed: { readonly values: object; readonly positionals: readonly string[] },
  program: string,
  companions: readonly string[] = [],
): Result<void, ArgFault> {
  const [extra] = parsed.positionals;
  if (extra !== undefined) return err({ code: "unexpected-argument", value: extra });
  return onlyFlags(parsed.values, ["version", ...companions], `${program} --version`);
}

/**
 * `versionAlone` for a CLI whose command word may stand before `--version` (`decay run --version`):
 * a first positional that is an own key of `commands` (the CLI's table of command words) is
 * skipped, and what is left must be `--version` alone as `versionAlone` says.
 */
export function versionAfterCommand(
  parsed: { readonly values: object; readonly positionals: readonly string[] },
  commands: object,
  program: string,
  companions: readonly string[] = [],
): Result<void, ArgFault> {
  const [first, ...rest] = parsed.positionals;
  const words = first !== undefined && Object.hasOwn(commands, first) ? rest : parsed.positionals;
  return versionAlone({ values: parsed.values, positionals: words }, program, companions);
}

/**
 * For a CLI where `--help` and `--version` win over other faults (`asks`): true when argv asks for
 * `--version` and for nothing else (`versionAlone`), false when it does not ask, the fault when it
 * asks for more (argv read against `flags` first: an unknown flag is refused as such).
 */
export function versionAsked(argv: readonly string[], flags: FlagSpecs, program: string, companions: readonly string[] = []): Result<boolean, ArgFault> {
  if (!asks(argv, flags, "--version")) return ok(false);
  return parseArgv(argv, { flags })
    .andThen((parsed) => versionAlone(parsed, program, companions))
    .map(() => true);
}
