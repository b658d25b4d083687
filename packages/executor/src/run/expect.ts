import type { AcceptanceRow } from "@decay/contract";
import { err, ok, type Result } from "neverthrow";
import type { ExecFault } from "../fault.js";
import type { PatternMatcher, ShellResult } from "../ports.js";

/** One expectation of a row and whether the command met it. */
export interface Check {
  readonly what: string;
  readonly met: boolean;
}

/**
 * Every expectation of a row judged against what its command did: the exit code, each printed
 * string, each regex, each count. A command that timed out or was ended by a signal meets no exit.
 * A regex the matcher could not finish within its bound is the fault `pattern-timeout`, one the user
 * interrupted `pattern-interrupted`: never a met or unmet expectation.
 */
export function judgeRow(row: AcceptanceRow, result: ShellResult, patterns: PatternMatcher): Result<Check[], ExecFault> {
  const out = result.stdout;
  const checks: Check[] = [{ what: `exits ${row.expect.exit}`, met: !result.timedOut && result.exit === row.expect.exit }];
  for (const text of row.expect.stdout_contains) checks.push({ what: `prints ${JSON.stringify(text)}`, met: out.includes(text) });
  const regexes = [
    ...row.expect.stdout_matches.map((pattern) => ({ what: `matches /${pattern}/`, pattern, min: 1 })),
    ...row.expect.count.map((c) => ({ what: `at least ${c.min} of /${c.pattern}/`, pattern: c.pattern, min: c.min })),
  ];
  for (const { what, pattern, min } of regexes) {
    const met = patterns.atLeast(pattern, out, min);
    if (typeof met === "boolean") checks.push({ what, met });
    else if ("interrupted" in met) return err({ code: "pattern-interrupted", row: row.id, pattern });
    else return err({ code: "pattern-timeout", row: row.id, pattern, timeoutMs: met.timeoutMs });
  }
  return ok(checks);
}
