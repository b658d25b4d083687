import { parseAcceptance } from "../plan/acceptance.js";
import type { LineModel } from "../plan/lines.js";
import { codeSpan } from "../text.js";

/** Something in a task plan the importer could not turn into the staged format: its line and why. */
export type NotConverted = { line: number; text: string; reason: string };

/** What one group's body gave: acceptance lines to append, an exit criterion, and what was not converted. */
export type Converted = { acceptance: string[]; exit: string | null; notConverted: NotConverted[] };

const label = (word: string) => new RegExp(String.raw`^\s*(?:[-*+]\s+)?(?:\[[ xX]\]\s+)?(?:\*\*|__)?${word}(?:\*\*|__)?\s*:(?:\*\*|__)?\s*(.*?)\s*$`, "i");
const RUN = label("Run");
const EXPECTED = label("Expected");
const CHECKPOINT = label("Checkpoint");

/** Whether a line is a step the import converts in a task or phase: `Run:` or `Checkpoint:`. */
export const convertsIn = (text: string): boolean => RUN.test(text) || CHECKPOINT.test(text);

/** Whether a line is a step the import reads: `Run:`, `Expected:` or `Checkpoint:`. */
export const isStep = (text: string): boolean => convertsIn(text) || EXPECTED.test(text);
// A whole expectation that means "exits 0" and nothing more; one that says more is listed, never cut to it.
const PASSES = /^(?:PASS(?:ES|ED)?|all (?:tests? )?pass(?:es)?|succeeds?|success|exit(?:s)?(?: with)?(?: code)? 0)\s*\.?$/i;
const FAILS = /^(?:FAIL|fails|error)/i;
const LITERAL = /^(?:(?:output|stdout)?\s*(?:contains|prints|shows|includes)?:?\s*)?(?:`([^`]+)`|"([^"]+)")\s*\.?$/i;

/** The command of a `Run:` step: one code span on its line, or a fenced block of one line right after it. */
function runCommand(model: LineModel, i: number, rest: string): { run: string | null; last: number } {
  const span = /^`([^`]+)`\s*$/.exec(rest);
  if (span?.[1]) return { run: span[1], last: i };
  if (rest !== "") return { run: null, last: i };
  let k = i + 1;
  while (model.lines[k]?.text.trim() === "") k++;
  if (!model.lines[k]?.hidden || !/^\s*(`{3,}|~{3,})/.test(model.lines[k]?.text ?? "")) return { run: null, last: i };
  const body: string[] = [];
  let end = k + 1;
  for (; model.lines[end]?.hidden && !/^\s*(`{3,}|~{3,})\s*$/.test(model.lines[end]?.text ?? ""); end++) {
    const t = model.lines[end]?.text.trim() ?? "";
    if (t !== "") body.push(t.replace(/^\$\s+/, ""));
  }
  return { run: body.length === 1 ? (body[0] ?? null) : null, last: end };
}

/** Turn an `Expected:` text into the expectations of an Acceptance: line; null when it cannot be read. */
function expectation(run: string, expected: string): string | null {
  if (expected === "") return null;
  const direct = `${codeSpan(run)} ${expected}`;
  if (parseAcceptance(direct, 1).isOk()) return expected;
  if (PASSES.test(expected)) return "exits 0";
  const literal = LITERAL.exec(expected);
  const text = literal?.[1] ?? literal?.[2];
  return text ? `exits 0 and prints ${codeSpan(text)}` : null;
}

/** The first `Expected:` line within the next few lines after `from`; null when there is none. */
function expectedAfter(model: LineModel, from: number, to: number): { text: string; index: number } | null {
  for (let k = from + 1; k < Math.min(to, from + 4); k++) {
    const line = model.lines[k];
    if (!line || line.hidden) continue;
    const m = EXPECTED.exec(line.text);
    if (m) return { text: m[1] ?? "", index: k };
    if (RUN.test(line.text)) return null;
  }
  return null;
}

/** Convert one `Run:` step at line `i`: an Acceptance: line, or the reason it is not converted. */
function convertRun(model: LineModel, i: number, to: number, out: Converted): number {
  const line = model.lines[i];
  const { run, last } = runCommand(model, i, RUN.exec(line?.text ?? "")?.[1] ?? "");
  const skip = (reason: string) => out.notConverted.push({ line: i + 1, text: line?.text.trim() ?? "", reason });
  if (run === null) {
    skip("the command is not one inline code span (or a fenced block of one line): acceptance runs one command");
    return last;
  }
  const exp = expectedAfter(model, last, to);
  if (!exp) {
    skip("no Expected: line follows: nothing says what the command must do");
    return last;
  }
  if (FAILS.test(exp.text)) {
    skip(`Expected: ${exp.text} is a red step (it fails before the change); acceptance checks the finished stage`);
    return exp.index;
  }
  const want = expectation(run, exp.text);
  if (want === null && exp.text === "") skip("the expected output is a block under Expected:; acceptance needs an exit code, PASS or a quoted text");
  else if (want === null) skip(`Expected: ${exp.text} is not, as a whole, an exit code, PASS or a quoted text the output must hold`);
  else out.acceptance.push(`Acceptance: ${codeSpan(run)} ${want}`);
  return exp.index;
}

// A command in a code span under another label than Run: (`GREEN: \`pnpm test\` -> 5 passed`,
// `Check: \`make lint\``): not converted, and listed, so that no task loses its check in silence.
const OTHER_COMMAND =
  /^\s*(?:[-*+]\s+)?(?:\[[ xX]\]\s+)?(?:\*\*|__)?(green|red|checks?|verify|verification|validate|validation|gate)(?:\*\*|__)?\s*:(?:\*\*|__)?.*`[^`]+`/i;

/** Why a command under another label is not converted; null for a line that holds none. */
function otherCommand(text: string): string | null {
  const word = OTHER_COMMAND.exec(text)?.[1];
  if (word === undefined) return null;
  if (word.toLowerCase() === "red") return "a RED: step fails before the change; acceptance checks the finished stage";
  return `a command under ${word}: is not converted (the import reads Run: with Expected:); to run it as acceptance write Acceptance: \`command\` exits 0`;
}

/** Read a group's body lines [from, to): Run:/Expected: pairs and the first Checkpoint:. */
export function convertBody(model: LineModel, from: number, to: number): Converted {
  const out: Converted = { acceptance: [], exit: null, notConverted: [] };
  for (let i = from; i < to; i++) {
    const line = model.lines[i];
    if (!line || line.hidden || line.heading) continue;
    if (RUN.test(line.text)) {
      i = convertRun(model, i, to, out);
      continue;
    }
    const other = otherCommand(line.text);
    if (other !== null) {
      out.notConverted.push({ line: i + 1, text: line.text.trim(), reason: other });
      continue;
    }
    const checkpoint = CHECKPOINT.exec(line.text)?.[1];
    if (checkpoint === undefined || checkpoint === "") continue;
    if (out.exit === null) out.exit = checkpoint;
    else out.notConverted.push({ line: i + 1, text: line.text.trim(), reason: "a second Checkpoint: in the phase; the first is its Exit:" });
  }
  return out;
}
