import type { AcceptanceRow } from "@decay/contract";
import type { ShellResult } from "../ports.js";

/** One expectation of a row and whether the command met it. */
export interface Check {
  readonly what: string;
  readonly met: boolean;
}

function countMatches(text: string, pattern: string): number {
  const re = new RegExp(pattern, "g");
  let n = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    n += 1;
    if (m[0] === "") re.lastIndex += 1;
  }
  return n;
}

/**
 * Every expectation of a row judged against what its command did: the exit code, each printed
 * string, each regex, each count. A command that timed out or was ended by a signal meets no exit.
 */
export function judgeRow(row: AcceptanceRow, result: ShellResult): Check[] {
  const out = result.stdout;
  const checks: Check[] = [{ what: `exits ${row.expect.exit}`, met: !result.timedOut && result.exit === row.expect.exit }];
  for (const text of row.expect.stdout_contains) checks.push({ what: `prints ${JSON.stringify(text)}`, met: out.includes(text) });
  for (const source of row.expect.stdout_matches) checks.push({ what: `matches /${source}/`, met: new RegExp(source).test(out) });
  for (const c of row.expect.count) {
    checks.push({ what: `at least ${c.min} of /${c.pattern}/`, met: countMatches(out, c.pattern) >= c.min });
  }
  return checks;
}
