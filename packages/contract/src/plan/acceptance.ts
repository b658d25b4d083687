import { err, ok, type Result } from "neverthrow";
import type { AcceptanceProblem, ContractFault } from "../fault.js";
import type { Expect } from "../model.js";
import { MAX_EXIT, type NumeralProblem, readNumeral } from "../numeral.js";
import { patternProblem } from "../patterns.js";
import { type Cursor, readCodeSpan } from "../text.js";
import { repeatEnd } from "./lines.js";

/** The label an acceptance fault names when it carries none. */
const ACCEPTANCE_LABEL = "Acceptance:";

/** A command and its expectations as one `Acceptance:` line spells them. */
export type SpelledRow = { run: string; expect: Expect };

/** Read `/regex/` at the cursor (escaped slashes allowed); null when there is none. */
function readSlashRegex(cur: Cursor): string | null {
  if (cur.text[cur.pos] !== "/") return null;
  for (let i = cur.pos + 1; i < cur.text.length; i++) {
    const c = cur.text[i];
    if (c === "\\") i++;
    else if (c === "/") {
      const src = cur.text.slice(cur.pos + 1, i);
      if (src === "") return null;
      cur.pos = i + 1;
      return src;
    }
  }
  return null;
}

function eat(cur: Cursor, re: RegExp): RegExpExecArray | null {
  const m = re.exec(cur.text.slice(cur.pos));
  if (m) cur.pos += m[0].length;
  return m;
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

/** One expectation read, or why not; `numeral`: the number as written, when that is what is refused. */
type Step = { ok: true } | { ok: false; problem: AcceptanceProblem; numeral?: string | undefined };

/** The step refusing the number `digits`: `tooLarge` when it is over the maximum, else not written canonically. */
function badNumeral(problem: NumeralProblem, digits: string, tooLarge: AcceptanceProblem): Step {
  return { ok: false, problem: problem === "too-large" ? tooLarge : "number-not-canonical", numeral: digits };
}

/** Read one expectation at the cursor into `expect`. */
function readExpectation(cur: Cursor, expect: Expect, sawExit: { v: boolean }): Step {
  const exit = eat(cur, /^(?:(?:exits|exit code|exits with(?: code)?)\s+(\d+)|passes|succeeds)\b/i);
  if (exit) {
    if (sawExit.v) return { ok: false, problem: "duplicate-exit" };
    sawExit.v = true;
    const code = readNumeral(exit[1] ?? "0", MAX_EXIT);
    if (code.isErr()) return badNumeral(code.error, exit[1] as string, "exit-out-of-range");
    expect.exit = code.value;
    return { ok: true };
  }
  const least = eat(cur, /^(?:prints\s+)?at least\s+(\d+)\s+(?:[a-z]+\s+){0,3}/i);
  if (least) {
    if (/\blines?\b/i.test(least[0])) return { ok: false, problem: "count-of-lines" };
    const literal = readCodeSpan(cur);
    const pattern = literal !== null && literal !== "" ? escapeRegex(literal) : readSlashRegex(cur);
    if (pattern === null) return { ok: false, problem: "unrecognised" };
    const bad = patternProblem(pattern, true);
    if (bad !== null) return { ok: false, problem: bad };
    const digits = least[1] ?? "";
    // A count of zero, however written (`00`), holds on any output: that is the first thing to say of it.
    if (/^0+$/.test(digits)) return { ok: false, problem: "count-zero" };
    const min = readNumeral(digits, Number.MAX_SAFE_INTEGER);
    if (min.isErr()) return badNumeral(min.error, digits, "count-too-large");
    expect.count.push({ pattern, min: min.value });
    return { ok: true };
  }
  if (eat(cur, /^(?:prints|matches|stdout matches)\s+/i)) {
    const literal = readCodeSpan(cur);
    if (literal !== null && literal !== "") {
      expect.stdout_contains.push(literal);
      return { ok: true };
    }
    const re = readSlashRegex(cur);
    if (re === null) return { ok: false, problem: "unrecognised" };
    const bad = patternProblem(re, false);
    if (bad !== null) return { ok: false, problem: bad };
    expect.stdout_matches.push(re);
    return { ok: true };
  }
  return { ok: false, problem: "unrecognised" };
}

/**
 * What an acceptance fault adds to its line and problem: the part not understood, the line to write
 * instead, the label as written (`Verify:`) and, for a list item, the label's line.
 */
export type AcceptanceHint = { unread?: string; after?: string; write?: string; label?: string; labelLine?: number };

/** The `acceptance-invalid` fault for a line. */
export function acceptanceFault(line: number, problem: AcceptanceProblem, text: string, hint: AcceptanceHint): ContractFault {
  // `Acceptance:` is what a fault without a label names: the field is only there when the plan wrote another.
  const data = Object.fromEntries(Object.entries(hint).filter(([k, v]) => v !== undefined && v !== "" && !(k === "label" && v === ACCEPTANCE_LABEL)));
  return { code: "acceptance-invalid", line, problem, text, ...data };
}

/** An acceptance fault read under `label` as written (`Verify:`), so that its message quotes what the plan says. */
export function underLabel(fault: ContractFault, label: string): ContractFault {
  return fault.code === "acceptance-invalid" && label !== ACCEPTANCE_LABEL ? { ...fault, label } : fault;
}

/** One separator between expectations (sticky): a run of them is read one at a time, never by a repeated group whose backtracking stack grows with the run. */
const SEPARATOR = /(?:\s+|,|;|\band\b|\bthen\b)/iy;

/** Read expectations from the cursor to the end of the text; the problem and the unread rest when one is not understood. */
function readExpectations(cur: Cursor, expect: Expect): { problem: AcceptanceProblem; rest: string; numeral?: string | undefined } | null {
  const sawExit = { v: false };
  for (;;) {
    const rest = cur.text.slice(cur.pos);
    const end = repeatEnd(SEPARATOR, rest, 0);
    cur.pos += end;
    const separator = rest.slice(0, end).trim();
    if (cur.pos >= cur.text.length || /^\.?\s*$/.test(cur.text.slice(cur.pos))) {
      // `exits 0 and` at the end: the expectation it announces is not on the line, and would be lost.
      return separator === "" ? null : { problem: "trailing-separator", rest: separator };
    }
    const from = cur.pos;
    const step = readExpectation(cur, expect, sawExit);
    if (!step.ok) return { problem: step.problem, rest: cur.text.slice(from).trim(), numeral: step.numeral };
  }
}

const emptyExpect = (): Expect => ({ exit: 0, stdout_contains: [], stdout_matches: [], count: [] });

/** Words before the command (`run \`npm test\` and expect 0`): name them, and what follows if it is not read either. */
function wordsBefore(text: string, line: number): ContractFault {
  const at = text.indexOf("`");
  const cur: Cursor = { text, pos: at };
  const run = at === -1 ? null : readCodeSpan(cur);
  if (run === null || run.trim() === "") return acceptanceFault(line, "no-command", text, {});
  const spanEnd = cur.pos;
  const rest = text.slice(spanEnd).trimEnd();
  const bad = readExpectations(cur, emptyExpect()) !== null;
  return acceptanceFault(line, "words-before-command", text, {
    unread: text.slice(0, at).trim(),
    ...(bad ? { after: rest.trim() } : {}),
    write: `Acceptance: ${text.slice(at, spanEnd)}${bad ? " exits 0" : rest}`,
  });
}

/**
 * Parse the text after `Acceptance:`: a backticked command, then expectations joined by
 * commas or "and": `exits N`, `prints \`text\``, `matches /re/`, `at least N \`text\`|/re/`.
 */
export function parseAcceptance(text: string, line: number): Result<SpelledRow, ContractFault> {
  const cur: Cursor = { text, pos: 0 };
  eat(cur, /^\s+/);
  const run = readCodeSpan(cur);
  if (run === null || run.trim() === "") {
    return err(run === null && text.includes("`") ? wordsBefore(text, line) : acceptanceFault(line, "no-command", text, {}));
  }
  const expect = emptyExpect();
  const bad = readExpectations(cur, expect);
  const unread = bad?.problem === "unrecognised" || bad?.problem === "trailing-separator";
  if (bad) return err(acceptanceFault(line, bad.problem, text, unread ? { unread: bad.rest } : { unread: bad.numeral }));
  return ok({ run, expect });
}
