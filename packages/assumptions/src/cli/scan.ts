import { err, ok, type Result } from "neverthrow";
import type { CliFault } from "./faults.js";

/** How one option is spelled and whether it takes a value or may repeat. */
export interface OptionSpec {
  readonly name: string;
  readonly alias?: string;
  readonly value: boolean;
  readonly repeat?: boolean;
}

/** Options seen (by canonical name, values in order) and the positional arguments. */
export interface Scanned {
  readonly options: ReadonlyMap<string, readonly string[]>;
  readonly positionals: readonly string[];
}

function lookup(specs: readonly OptionSpec[], token: string): OptionSpec | undefined {
  return specs.find((s) => s.name === token || s.alias === token);
}

/** True when `token` is spelled as an option (`-` alone is standard input, not an option). */
function looksLikeOption(token: string): boolean {
  return token.length > 1 && token.startsWith("-");
}

/**
 * Splits argv into options and positionals. Accepts `--name value`, `--name=value`, `--` (what
 * follows is positional). Unknown options, missing values and repeats of a non-repeatable
 * option are faults; nothing is ignored.
 */
export function scan(argv: readonly string[], specs: readonly OptionSpec[]): Result<Scanned, CliFault> {
  const options = new Map<string, string[]>();
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i += 1) {
    const token = argv[i] as string;
    if (token === "--") {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!looksLikeOption(token)) {
      positionals.push(token);
      continue;
    }
    const eq = token.startsWith("--") ? token.indexOf("=") : -1;
    const flag = eq === -1 ? token : token.slice(0, eq);
    const spec = lookup(specs, flag);
    if (spec === undefined) return err({ code: "usage-unknown-flag", flag });
    let value = "";
    if (spec.value) {
      const next = eq === -1 ? argv[i + 1] : token.slice(eq + 1);
      if (next === undefined || (eq === -1 && looksLikeOption(next))) {
        return err({ code: "usage-missing-value", flag });
      }
      if (eq === -1) i += 1;
      value = next;
    } else if (eq !== -1) {
      return err({ code: "usage-bad-value", flag, value: token.slice(eq + 1), expected: "no value" });
    }
    const seen = options.get(spec.name) ?? [];
    if (seen.length > 0 && spec.repeat !== true) return err({ code: "usage-repeated-flag", flag: spec.name });
    options.set(spec.name, [...seen, value]);
  }
  return ok({ options, positionals });
}

/** True when argv asks for `flag` before any `--` terminator (help and version win over errors). */
export function asks(argv: readonly string[], ...flags: readonly string[]): boolean {
  const end = argv.indexOf("--");
  const head = end === -1 ? argv : argv.slice(0, end);
  return head.some((t) => flags.includes(t));
}
