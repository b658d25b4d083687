// `decay journal show|resume|next` command lines.
import { err, ok, type Result } from "neverthrow";
import type { CliFault } from "./journal-fault.js";

/** A parsed `decay journal` command line. */
export type JournalCommand =
  | { kind: "help" }
  | { kind: "show"; plan: string }
  | { kind: "resume"; plan: string; repo: string; write: boolean; spec: string | null }
  | { kind: "next"; plan: string; repo: string | null; spec: string | null; invocation: "/" | "$" | null };

const VALUED = { show: [], resume: ["--repo", "--spec"], next: ["--repo", "--spec", "--host"] } as const;
const BOOLEAN = { show: [], resume: ["--write"], next: [] } as const;

type Sub = keyof typeof VALUED;
const usage = (message: string): CliFault => ({ code: "usage", message });

function readFlags(sub: Sub, args: readonly string[]): Result<{ values: Map<string, string>; flags: Set<string>; positional: string[] }, CliFault> {
  const values = new Map<string, string>();
  const flags = new Set<string>();
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? "";
    const eq = a.startsWith("--") ? a.indexOf("=") : -1;
    const name = eq > 0 ? a.slice(0, eq) : a;
    if ((VALUED[sub] as readonly string[]).includes(name)) {
      const value = eq > 0 ? a.slice(eq + 1) : args[++i];
      if (value === undefined || value === "") return err(usage(`${name} needs a value`));
      values.set(name, value);
    } else if ((BOOLEAN[sub] as readonly string[]).includes(name) || name === "--help" || name === "-h") flags.add(name);
    else if (name.startsWith("-")) return err(usage(`unknown option ${name} for journal ${sub}`));
    else positional.push(a);
  }
  return ok({ values, flags, positional });
}

/** Parse the arguments after `decay journal`. */
export function parseJournalArgs(argv: readonly string[]): Result<JournalCommand, CliFault> {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === "--help" || sub === "-h" || sub === "help") return ok({ kind: "help" });
  if (sub !== "show" && sub !== "resume" && sub !== "next") return err(usage(`unknown journal command ${sub}`));
  return readFlags(sub, rest).andThen(({ values, flags, positional }): Result<JournalCommand, CliFault> => {
    if (flags.has("--help") || flags.has("-h")) return ok({ kind: "help" });
    const [plan, extra] = positional;
    if (plan === undefined || extra !== undefined) return err(usage(`journal ${sub} takes exactly one plan file`));
    const spec = values.get("--spec") ?? null;
    if (sub === "show") return ok({ kind: "show", plan });
    if (sub === "resume") {
      const repo = values.get("--repo");
      return repo ? ok({ kind: "resume", plan, repo, write: flags.has("--write"), spec }) : err(usage("journal resume needs --repo DIR"));
    }
    const host = values.get("--host");
    if (host !== undefined && host !== "claude" && host !== "codex") return err(usage(`--host takes claude or codex, not ${host}`));
    return ok({ kind: "next", plan, repo: values.get("--repo") ?? null, spec, invocation: host === "claude" ? "/" : host === "codex" ? "$" : null });
  });
}

/** `decay journal --help`. */
export const JOURNAL_HELP = `decay journal: read and resume a task plan's execution record

Usage:
  decay journal show PLAN.md                                   task states and the checklist
  decay journal resume PLAN.md --repo DIR [--spec SPEC] [--write]
                                                               the changes the resume rules derive; --write appends them
  decay journal next PLAN.md [--repo DIR] [--spec SPEC] [--host claude|codex]
                                                               the Next step line

The spec is the plan's Spec path, resolved against --repo (default: the current directory);
--spec names another file. Exit codes: 0 ok, 2 any fault (message on stderr).
See docs/journal.md for the record's line grammar and the resume rules.
`;
