import { err, ok, type Result } from "neverthrow";
import type { ContractFault } from "../fault.js";
import { acceptanceFault, parseAcceptance, type SpelledRow } from "./acceptance.js";
import { CONTAINERS, isText, type LineModel, verbatim } from "./lines.js";
import type { StageSpan } from "./stages.js";

/** What a stage's body says about itself, with the line of each statement. */
export type StageBody = {
  exit: string | null;
  rows: SpelledRow[];
  dependsOn: { refs: string[]; line: number } | null;
  optional: boolean;
  /** Indices of the lines read as Exit:, Acceptance: (with their wrapped and listed lines) or Depends on:. */
  read: number[];
};

// A line may sit in a blockquote, a list item or a checkbox, with the keyword in bold.
const PREFIX = String.raw`^\s*${CONTAINERS}`;
const lead = (word: string) => new RegExp(`${PREFIX}(?:\\*\\*|__)?(?:${word})(?:\\*\\*|__)?\\s*:(?:\\*\\*|__)?[ \\t]*(.*?)[ \\t]*$`, "i");
/** The words read as an exit criterion. */
const EXIT_WORD = String.raw`Exit(?:\s+(?:criterion|criteria|conditions?|gate))?`;
/** The words read as acceptance. */
const ACCEPTANCE_WORD = String.raw`Acceptance(?:\s+(?:criterion|criteria|tests?|checks?|commands?))?`;
const EXIT = lead(EXIT_WORD);
const ACCEPTANCE = lead(ACCEPTANCE_WORD);
// A label alone on its line, over a list: `#### Acceptance criteria`, `**Exit criteria**`, `Acceptance`.
const alone = (word: string) => new RegExp(`^ {0,3}(?:#{1,6}\\s+)?(?:\\*\\*|__)?(?:${word})(?:\\*\\*|__)?\\s*:?\\s*(?:\\*\\*|__)?\\s*#*\\s*$`, "i");
const ACCEPTANCE_ALONE = alone(ACCEPTANCE_WORD);
const EXIT_ALONE = alone(EXIT_WORD);
const DEPENDS = lead("Depends on");
// A milestone's gate or a verify step that names a command in backticks is acceptance too.
const GATE = lead("Gate|Verify|Verification");
const CONTINUED = /^\s*(?:>\s*)*(?:(?:and|then|,)\s+)?(?:exits?|prints|matches|stdout|at least)\b/i;
// A paragraph that marks the stage (`Optional.`, `**Optional:**`), never a list item of its tasks:
// `- Optional: log progress` is a task, and skipping the stage over it would skip its acceptance.
const OPTIONAL = /^\s*(?:>\s*)*(?:\*\*|__)?Optional(?:\s+(?:stage|phase|step|milestone))?(?:\*\*|__)?\s*(?:[.:;—–(]|-\s|$)/i;
const LIST_ITEM = new RegExp(String.raw`^\s*(?:>\s*)*(?:[-*+]|\d{1,9}[.)])\s+${CONTAINERS}`);

/** Split `Phase 1, Phase 2 and S3` into its references; `none` is no reference. */
function splitRefs(text: string): string[] {
  const refs = text
    .replace(/\.$/, "")
    .split(/\s*(?:,|;|\band\b|&)\s*/i)
    .map((r) => r.trim())
    .filter((r) => r !== "");
  return refs.length === 1 && /^(?:none|nothing|-|—)$/i.test(refs[0] ?? "") ? [] : refs;
}

/** Lines from `from` that continue an Acceptance: line's expectations (trimmed); none is dropped in silence. */
function continuation(model: LineModel, from: number, to: number): string[] {
  const out: string[] = [];
  for (let i = from; i < to; i++) {
    const line = model.lines[i];
    // `Exit:` (or `Exit criteria`) on the next line is the stage's exit criterion, not `exits 0` wrapped.
    if (!isText(line) || !CONTINUED.test(line.text) || EXIT.test(line.text) || EXIT_ALONE.test(line.text)) break;
    out.push(line.text.trim().replace(/^(?:>\s*)+/, ""));
  }
  return out;
}

type Rows = Result<{ rows: SpelledRow[]; read: number[] }, ContractFault>;

/** One acceptance line at `i` (its text after the keyword given) with its wrapped lines. */
function acceptanceLine(model: LineModel, i: number, to: number, text: string): Rows {
  const wrapped = continuation(model, i + 1, to);
  const no = model.lines[i]?.no ?? i + 1;
  const read = Array.from({ length: wrapped.length + 1 }, (_, k) => i + k);
  return parseAcceptance([text, ...wrapped].join(" "), no).map((row) => ({ rows: [row], read }));
}

/** The first line of the fenced block opening at `i`: the command a user meant to run. */
function fencedCommand(model: LineModel, i: number): string {
  for (let k = i + 1; model.lines[k]?.hidden; k++) {
    const t = model.lines[k]?.text.trim() ?? "";
    if (t !== "" && !/^(`{3,}|~{3,})$/.test(t)) return t.replace(/^\$\s+/, "");
  }
  return "command";
}

/** `Acceptance:` with nothing after it: a list of backticked commands follows, or it is refused. */
function acceptanceList(model: LineModel, at: number, to: number): Rows {
  const label = model.lines[at];
  let i = at + 1;
  while (i < to && model.lines[i]?.text.trim() === "") i++;
  const next = model.lines[i];
  const quote = label?.text.trim() ?? "";
  if (next?.hidden && /^\s*(`{3,}|~{3,})/.test(next.text)) {
    return err(acceptanceFault(label?.no ?? at + 1, "fenced-command", quote, { write: `Acceptance: \`${fencedCommand(model, i)}\` exits 0` }));
  }
  const out = { rows: [] as SpelledRow[], read: [at] };
  while (i < to) {
    const line = model.lines[i];
    const item = isText(line) ? LIST_ITEM.exec(line.text) : null;
    if (!line || !item) break;
    const text = line.text.slice(item[0].length);
    if (!text.startsWith("`")) {
      return err(acceptanceFault(line.no, "list-item-not-command", line.text.trim(), { unread: text }));
    }
    const one = acceptanceLine(model, i, to, text);
    if (one.isErr()) return err(one.error);
    out.rows.push(...one.value.rows);
    out.read.push(...one.value.read);
    i += one.value.read.length;
    // A blank line between items is bridged only when the next item is a command too.
    const after = model.lines[i + 1]?.text ?? "";
    while (i < to && model.lines[i]?.text.trim() === "" && after.replace(LIST_ITEM, "").startsWith("`") && LIST_ITEM.test(after)) i++;
  }
  if (out.rows.length === 0) return err(acceptanceFault(label?.no ?? at + 1, "no-command", "", {}));
  return ok(out);
}

/** The list right under a label line at `at` (blank lines before it skipped): its line range, or null. */
function listUnder(model: LineModel, at: number, to: number): { from: number; to: number } | null {
  let i = at + 1;
  while (i < to && model.lines[i]?.text.trim() === "") i++;
  if (!LIST_ITEM.test(model.lines[i]?.text ?? "") || !isText(model.lines[i])) return null;
  const from = i;
  let end = i;
  for (; i < to; i++) {
    const line = model.lines[i];
    if (!line || line.heading || line.rule) break;
    const blank = line.text.trim() === "";
    const next = model.lines[i + 1]?.text ?? "";
    if (blank && !LIST_ITEM.test(next) && !/^\s+\S/.test(next)) break;
    if (!blank && !LIST_ITEM.test(line.text) && !/^\s/.test(line.text) && !line.hidden) break;
    // An item that is itself an Acceptance:, Exit: or Depends on: line is read as that, never swallowed.
    if (!blank && (ACCEPTANCE.test(line.text) || EXIT.test(line.text) || DEPENDS.test(line.text))) break;
    if (!blank) end = i + 1;
  }
  return { from, to: end };
}

/** An exit criterion: the text after `Exit:`, or the list under an `Exit criteria` label. */
function exitAt(model: LineModel, i: number, to: number, text: string): { exit: string; read: number[] } {
  const list = text === "" ? listUnder(model, i, to) : null;
  if (!list) return { exit: text, read: [i] };
  const read = Array.from({ length: list.to - i }, (_, k) => i + k);
  return { exit: verbatim(model, list.from, list.to), read };
}

/** Read Exit:, Acceptance:, Depends on: and Optional lines of one stage (hidden and prose lines ignored). */
export function readStageBody(model: LineModel, span: StageSpan, prose: Set<number>): Result<StageBody, ContractFault> {
  const body: StageBody = { exit: null, rows: [], dependsOn: null, optional: span.optional, read: [] };
  let exitLine = 0;
  for (let i = span.from; i < span.to; i++) {
    const line = model.lines[i];
    if (!line || line.hidden || line.rule || prose.has(i)) continue;
    const text = i === span.from && span.startAt !== undefined ? line.text.slice(span.startAt - line.start) : line.text;
    const exit = line.heading ? null : EXIT.exec(text);
    const exitAlone = exit ? null : EXIT_ALONE.test(text);
    const gate = line.heading ? null : GATE.exec(text);
    const acc = exit || exitAlone || line.heading ? null : (ACCEPTANCE.exec(text) ?? (gate?.[1]?.startsWith("`") ? gate : null));
    const dep = exit || exitAlone || acc || line.heading ? null : DEPENDS.exec(text);
    if (exit || exitAlone) {
      if (body.exit !== null) return err({ code: "duplicate-exit", line: line.no, first: exitLine });
      const read = exitAt(model, i, span.to, exit?.[1] ?? "");
      body.exit = read.exit;
      exitLine = line.no;
      body.read.push(...read.read);
      i = Math.max(i, ...read.read);
    } else if (acc || ACCEPTANCE_ALONE.test(text)) {
      const rest = acc?.[1] ?? "";
      const rows = rest === "" ? acceptanceList(model, i, span.to) : acceptanceLine(model, i, span.to, rest);
      if (rows.isErr()) return err(rows.error);
      body.rows.push(...rows.value.rows);
      body.read.push(...rows.value.read);
      i = Math.max(i, ...rows.value.read);
    } else if (dep) {
      body.dependsOn = { refs: splitRefs(dep[1] ?? ""), line: line.no };
      body.read.push(i);
    } else if (OPTIONAL.test(text)) {
      body.optional = true;
    }
  }
  return ok(body);
}
