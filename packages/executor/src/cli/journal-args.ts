// `decay journal show|resume|next` command lines.
import { asks, describeArgFault, parseArgv, type ArgFault, type ArgSpec, type FlagSpecs } from "@decay/cli-kit";
import { err, ok, type Result } from "neverthrow";
import type { CliFault } from "./journal-fault.js";

/** A parsed `decay journal` command line. */
export type JournalCommand =
  | { kind: "help" }
  | { kind: "show"; plan: string }
  | { kind: "resume"; plan: string; repo: string; write: boolean; spec: string | null }
  | { kind: "next"; plan: string; repo: string | null; spec: string | null; invocation: "/" | "$" | null };

const HELP = { help: { type: "boolean", short: "h" } } as const;
const SPECS = {
  show: { flags: HELP, maxPositionals: 1 },
  resume: { flags: { ...HELP, repo: { type: "string" }, spec: { type: "string" }, write: { type: "boolean" } }, maxPositionals: 1 },
  next: { flags: { ...HELP, repo: { type: "string" }, spec: { type: "string" }, host: { type: "string" } }, maxPositionals: 1 },
} as const satisfies Record<string, ArgSpec<FlagSpecs>>;

const usage = (message: string): CliFault => ({ code: "usage", message });
const argFault = (f: ArgFault): CliFault => usage(describeArgFault(f));

function plan(sub: keyof typeof SPECS, positionals: readonly string[]): Result<string, CliFault> {
  const [file] = positionals;
  return file === undefined ? err(usage(`journal ${sub} takes exactly one plan file`)) : ok(file);
}

function resume(rest: readonly string[]): Result<JournalCommand, CliFault> {
  return parseArgv(rest, SPECS.resume)
    .mapErr(argFault)
    .andThen(({ values: v, positionals }) =>
      plan("resume", positionals).andThen((file): Result<JournalCommand, CliFault> => {
        if (v.repo === undefined) return err(usage("journal resume needs --repo DIR"));
        // A plan read from standard input has no file to write back to: refused, never a file named `-`.
        if (v.write === true && file === "-") return err(usage("--write needs a plan file: the plan - is read from standard input and cannot be written back"));
        return ok({ kind: "resume", plan: file, repo: v.repo, write: v.write === true, spec: v.spec ?? null });
      }),
    );
}

function next(rest: readonly string[]): Result<JournalCommand, CliFault> {
  return parseArgv(rest, SPECS.next)
    .mapErr(argFault)
    .andThen(({ values: v, positionals }) =>
      plan("next", positionals).andThen((file): Result<JournalCommand, CliFault> => {
        const host = v.host;
        if (host !== undefined && host !== "claude" && host !== "codex") return err(usage(`--host takes claude or codex, not ${host}`));
        return ok({
          kind: "next",
          plan: file,
          repo: v.repo ?? null,
          spec: v.spec ?? null,
          invocation: host === "claude" ? "/" : host === "codex" ? "$" : null,
        });
      }),
    );
}

/** Parse the arguments after `decay journal`. */
export function parseJournalArgs(argv: readonly string[]): Result<JournalCommand, CliFault> {
  const [sub, ...rest] = argv;
  if (sub === undefined) return err(usage("no journal command given: show, resume or next"));
  if (sub === "--help" || sub === "-h" || sub === "help") return ok({ kind: "help" });
  if (sub !== "show" && sub !== "resume" && sub !== "next") return err(usage(`unknown journal command ${sub}`));
  if (asks(rest, SPECS[sub].flags, "--help", "-h")) return ok({ kind: "help" });
  if (sub === "resume") return resume(rest);
  if (sub === "next") return next(rest);
  return parseArgv(rest, SPECS.show)
    .mapErr(argFault)
    .andThen(({ positionals }) => plan("show", positionals).map((file): JournalCommand => ({ kind: "show", plan: file })));
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
