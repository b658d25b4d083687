import { err, ok, type Result } from "neverthrow";
import type { ContractFault } from "../fault.js";
import { acceptanceFault, parseAcceptance, type SpelledRow } from "./acceptance.js";
import { CONTAINERS, isText, type Line, type LineModel, verbatim } from "./lines.js";
import type { StageSpan } from "./stages.js";
import { labelled } from "./unread.js";

/** What a stage's body says about itself, with the line of each statement. */
export type StageBody = {
  exit: string | null;
  /** Each row with the line it was read from (an `Acceptance:` line or a list item). */
  rows: LineRow[];
  dependsOn: { refs: string[]; line: number } | null;
  optional: boolean;
  /** Indices of the lines read as Exit:, Acceptance: (with their wrapped and listed lines) or Depends on:. */
  read: number[];
};

// A line may sit in a blockquote, a list item or a checkbox, with the keyword in bold.
const PREFIX = String.raw`^\s*${CONTAINERS}`;
// The text after the colon is taken whole and its trailing blanks dropped by hand: a lazy `(.*?)`
// before `[ \t]*$` would be quadratic on a long run of spaces.
const lead = (word: string) => {
  const re = new RegExp(`${PREFIX}(?:\\*\\*|__)?(?:${word})(?:\\*\\*|__)?\\s*:(?:\\*\\*|__)?[ \\t]*(.*)$`, "i");
  return {
    test: (text: string) => re.test(text),
    exec: (text: string): [string, string] | null => {
      const m = re.exec(text);
      return m ? [m[0], trimEnd(m[1] ?? "")] : null;
    },
  };
};
/** The words read as an exit criterion. */
const EXIT_WORD = String.raw`Exit(?:\s+(?:criterion|criteria|conditions?|gate))?`;
/** The words read as acceptance. */
const ACCEPTANCE_WORD = String.raw`Acceptance(?:\s+(?:criterion|criteria|tests?|checks?|commands?))?`;
const EXIT = lead(EXIT_WORD);
const ACCEPTANCE = lead(ACCEPTANCE_WORD);
// A label alone on its line, over a list: `#### Acceptance criteria`, `**Exit criteria**`, `Acceptance`.
// Each run of blanks is followed by a token it cannot match, so no run is split two ways (linear).
const alone = (word: string) =>
  new RegExp(`^ {0,3}(?:#{1,6}\\s+)?(?:\\*\\*|__)?(?:${word})(?:\\*\\*|__)?\\s*(?::\\s*)?(?:(?:\\*\\*|__)\\s*)?(?:#+\\s*)?$`, "i");
const ACCEPTANCE_ALONE = alone(ACCEPTANCE_WORD);
const EXIT_ALONE = alone(EXIT_WORD);
const DEPENDS = lead("Depends on");
// A milestone's gate or a verify step that names a command in backticks is acceptance too.
const GATE = lead("Gate|Verify|Verification");
const CONTINUED = /^\s*(?:>\s*)*(?:(?:and|then|,)\s+)?(?:exits?|prints|matches|stdout|at least)\b/i;
// A paragraph that marks the stage (`Optional.`, `**Optional:**`), never a list item of its tasks or
// text inside one: `- Optional: log progress` is a task, and skipping the stage over it would skip
// its acceptance. Code (hidden) never marks it, nor a line indented 4 or more.
const OPTIONAL = /^ {0,3}(?:>\s*)*(?:\*\*|__)?Optional(?:\s+(?:stage|phase|step|milestone))?(?:\*\*|__)?\s*(?:[.:;—–(]|-\s|$)/i;
const LIST_ITEM = new RegExp(String.raw`^\s*(?:>\s*)*(?:[-*+]|\d{1,9}[.)])\s+${CONTAINERS}`);

/** `text` without the spaces and tabs at its end (by hand: `/[ \t]+$/` is quadratic on a long run of spaces). */
function trimEnd(text: string): string {
  let end = text.length;
  while (end > 0 && (text[end - 1] === " " || text[end - 1] === "\t")) end--;
  return text.slice(0, end);
}

/** Split `Phase 1, Phase 2 and S3` into its references; `none` is no reference. */
function splitRefs(text: string): string[] {
  const refs = text
    .replace(/\.$/, "")
    .split(/,|;|\band\b|&/i)
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

/** An acceptance row and the 1-based line it was read from. */
export type LineRow = SpelledRow & { line: number };

type Rows = Result<{ rows: LineRow[]; read: number[] }, ContractFault>;

/** One acceptance line at `i` (its text after the keyword given) with its wrapped lines. */
function acceptanceLine(model: LineModel, i: number, to: number, text: string): Rows {
  const wrapped = continuation(model, i + 1, to);
  const no = model.lines[i]?.no ?? i + 1;
  const read = Array.from({ length: wrapped.length + 1 }, (_, k) => i + k);
  return parseAcceptance([text, ...wrapped].join(" "), no).map((row) => ({ rows: [{ ...row, line: no }], read }));
}

/** The first line of the fenced block opening at `i`: the command a user meant to run. */
function fencedCommand(model: LineModel, i: number): string {
  for (let k = i + 1; model.lines[k]?.hidden; k++) {
    const t = model.lines[k]?.text.trim() ?? "";
    if (t !== "" && !/^(`{3,}|~{3,})$/.test(t)) return t.replace(/^\$\s+/, "");
  }
  return "command";
}

/** Leading columns of a line inside its quotes (a tab to the next multiple of 4) and where its text starts there. */
function indentOf(text: string): { cols: number; pos: number } {
  let pos = 0;
  // Quote markers are containers, not indentation: `> - a` and `>   b` sit in the same quote.
  for (let q = text.indexOf(">"); q !== -1 && text.slice(pos, q).trim() === ""; q = text.indexOf(">", pos)) pos = q + 1;
  if (pos > 0 && (text[pos] === " " || text[pos] === "\t")) pos++;
  let cols = 0;
  for (; text[pos] === " " || text[pos] === "\t"; pos++) cols += text[pos] === "\t" ? 4 - (cols % 4) : 1;
  return { cols, pos };
}

const MARKER = /^(?:[-*+]|\d{1,9}[.)])[ \t]+/;

/** A list item line: the column its content starts at (after its marker), and its text after all markers. */
function itemAt(line: Line): { indent: number; content: number; text: string } | null {
  const all = isText(line) ? LIST_ITEM.exec(line.text) : null;
  if (!all) return null;
  const { cols, pos } = indentOf(line.text);
  const marker = MARKER.exec(line.text.slice(pos, pos + 16))?.[0] ?? "";
  return { indent: cols, content: cols + marker.length, text: line.text.slice(all[0].length) };
}

/** The fault for a block of code under `Acceptance:`: the line to write instead, with the code's first line. */
function codeUnder(model: LineModel, at: number, i: number): ContractFault {
  const label = model.lines[at];
  const next = model.lines[i];
  const fenced = /^\s*(`{3,}|~{3,})/.test(next?.text ?? "");
  const command = fenced ? fencedCommand(model, i) : (next?.text.trim().replace(/^\$\s+/, "") ?? "command");
  return acceptanceFault(label?.no ?? at + 1, "fenced-command", label?.text.trim() ?? "", { write: `Acceptance: \`${command}\` exits 0` });
}

type ListRows = Result<{ rows: LineRow[]; read: number[]; end: number }, ContractFault>;

/**
 * `Acceptance:` with nothing after it: the list under it, read as CommonMark reads a list. Each of
 * its items is a command with expectations and gives one row; what is indented under an item
 * (a paragraph, code, a nested list) belongs to that item and is no row; blank lines between items
 * do not end the list. A line back at the margin after a blank line, a heading, or an Exit:,
 * Acceptance: or Depends on: line ends it. An item that is no command, or a command in a nested
 * list, is refused with its line: none is dropped in silence.
 */
function acceptanceList(model: LineModel, at: number, to: number): ListRows {
  let i = at + 1;
  while (i < to && model.lines[i]?.text.trim() === "") i++;
  if (model.lines[i]?.hidden && !model.lines[i]?.comment) return err(codeUnder(model, at, i));
  const out = { rows: [] as LineRow[], read: [at], end: i };
  let content = -1;
  let blank = false;
  for (; i < to; i++) {
    const line = model.lines[i] as Line;
    if (line.heading || line.rule) break;
    if (line.text.trim() === "" || /^[\s>]*$/.test(line.text)) {
      blank = true;
      continue;
    }
    const item = itemAt(line);
    const inside = content >= 0 && indentOf(line.text).cols >= content;
    if (!inside && (ACCEPTANCE.test(line.text) || EXIT.test(line.text) || DEPENDS.test(line.text))) break;
    if (item && !inside) {
      if (!item.text.startsWith("`")) return err(acceptanceFault(line.no, "list-item-not-command", line.text.trim(), { unread: item.text }));
      const one = acceptanceLine(model, i, to, item.text);
      if (one.isErr()) return err(one.error);
      out.rows.push(...one.value.rows);
      out.read.push(...one.value.read);
      i += one.value.read.length - 1;
      content = item.content;
      blank = false;
    } else if (item?.text.startsWith("`")) {
      return err(acceptanceFault(line.no, "nested-command", line.text.trim(), {}));
    } else if (!inside && (blank || content < 0 || line.hidden)) break;
    out.end = i + 1;
  }
  if (out.rows.length === 0) return err(acceptanceFault(model.lines[at]?.no ?? at + 1, "no-command", "", {}));
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

/** The paragraph right under a label line at `at` (blank lines before it skipped), up to a line read as something else: its range, or null. */
function paragraphUnder(model: LineModel, at: number, to: number): { from: number; to: number } | null {
  let i = at + 1;
  while (i < to && model.lines[i]?.text.trim() === "") i++;
  const from = i;
  for (; i < to; i++) {
    const line = model.lines[i];
    // A line that labels itself (Acceptance:, Exit:, Depends on:, Gate:) is read as that, or refused, never swallowed.
    if (!isText(line) || line.text.trim() === "" || labelled(line.text) || DEPENDS.test(line.text) || GATE.test(line.text)) break;
  }
  return i > from ? { from, to: i } : null;
}

/** An exit criterion: the text after `Exit:`, or the list (else the paragraph) under an `Exit criteria` label. */
function exitAt(model: LineModel, i: number, to: number, text: string): { exit: string; read: number[] } {
  const under = text === "" ? (listUnder(model, i, to) ?? paragraphUnder(model, i, to)) : null;
  if (!under) return { exit: text, read: [i] };
  const read = Array.from({ length: under.to - i }, (_, k) => i + k);
  return { exit: verbatim(model, under.from, under.to), read };
}

/** Whether line `i` opens a paragraph: the first line of its span, or after a blank line, a heading, a rule or code, or the first line of a quote. */
function opensParagraph(model: LineModel, i: number, from: number): boolean {
  const prev = model.lines[i - 1];
  const text = model.lines[i]?.text ?? "";
  if (i === from || !prev || prev.hidden || prev.heading || prev.rule || /^[\s>]*$/.test(prev.text)) return true;
  return /^ {0,3}>/.test(text) && !/^ {0,3}>/.test(prev.text);
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
      const rows = rest === "" ? acceptanceList(model, i, span.to) : acceptanceLine(model, i, span.to, rest).map((r) => ({ ...r, end: 0 }));
      if (rows.isErr()) return err(rows.error);
      body.rows.push(...rows.value.rows);
      body.read.push(...rows.value.read);
      i = Math.max(i, rows.value.end - 1, ...rows.value.read);
    } else if (dep) {
      body.dependsOn = { refs: splitRefs(dep[1] ?? ""), line: line.no };
      body.read.push(i);
    } else if (!line.listed && OPTIONAL.test(text) && opensParagraph(model, i, span.from)) {
      // Only a paragraph's first line marks the stage: `optional.` wrapped from the line before is prose.
      body.optional = true;
    }
  }
  return ok(body);
}
