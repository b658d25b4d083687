// Acceptance rows as a stage's body writes them: an `Acceptance:` line with its wrapped lines, or
// the list under a label with nothing after its colon.
import { err, ok, type Result } from "neverthrow";
import type { ContractFault } from "../fault.js";
import { acceptanceFault, parseAcceptance, type SpelledRow, underLabel } from "./acceptance.js";
import { endsList, isText, type Line, type LineModel, repeatEnd } from "./lines.js";
import { indentOf, itemLine } from "./list-item.js";
import { boldSectionLabel } from "./sections.js";
import { ACCEPTANCE, CONJOINED, CONTINUED, DEPENDS, EXIT, EXIT_ALONE, GATE, GATE_ALONE, QUOTE } from "./stage-labels.js";
import { labelled } from "./unread.js";

/** Lines from `from` that continue an Acceptance: line's expectations (trimmed); none is dropped in silence. */
function continuation(model: LineModel, from: number, to: number): string[] {
  const out: string[] = [];
  for (let i = from; i < to; i++) {
    const line = model.lines[i];
    // `Exit:` (or `Exit criteria`) on the next line is the stage's exit criterion, not `exits 0` wrapped.
    const conjoined = CONJOINED.test(line?.text ?? "") && !/[.!?]\s*$/.test(model.lines[i - 1]?.text ?? "");
    if (!isText(line) || !(CONTINUED.test(line.text) || conjoined) || EXIT.test(line.text) || EXIT_ALONE.test(line.text)) break;
    const text = line.text.trim();
    out.push(text.slice(repeatEnd(QUOTE, text, 0)));
  }
  return out;
}

/** An acceptance row and the 1-based line it was read from. */
export type LineRow = SpelledRow & { line: number };

type Rows = Result<{ rows: LineRow[]; read: number[] }, ContractFault>;

/** One acceptance line at `i` (its text after the label given, the label as written) with its wrapped lines. */
export function acceptanceLine(model: LineModel, i: number, to: number, text: string, label: string): Rows {
  const wrapped = continuation(model, i + 1, to);
  const no = model.lines[i]?.no ?? i + 1;
  const read = Array.from({ length: wrapped.length + 1 }, (_, k) => i + k);
  return parseAcceptance([text, ...wrapped].join(" "), no)
    .map((row) => ({ rows: [{ ...row, line: no }], read }))
    .mapErr((f) => underLabel(f, label));
}

/** A code line's quote marker with the blanks around it (sticky), read one at a time by `repeatEnd`: never a stack as deep as the run. */
const CODE_QUOTE = /[ \t]*>[ \t]*/y;
/** A code line's text inside its quotes (`> $ pnpm test` is `$ pnpm test`), trimmed. */
const codeText = (text = "") => text.slice(repeatEnd(CODE_QUOTE, text, 0)).trim();

/** The first line of the fenced block opening at `i`: the command a user meant to run. */
function fencedCommand(model: LineModel, i: number): string {
  for (let k = i + 1; model.lines[k]?.hidden; k++) {
    const t = codeText(model.lines[k]?.text);
    if (t !== "" && !/^(`{3,}|~{3,})$/.test(t)) return t.replace(/^\$\s+/, "");
  }
  return "command";
}

/** An open list item: the column its content starts at inside its quotes, and how many quotes hold it. */
type OpenItem = { content: number; quotes: number };

/** Whether a line is inside the open item: in its quotes, indented to its content (a quote there, `  > note` under `- a`, is the item's). */
function insideItem(text: string, item: OpenItem | null): boolean {
  if (!item) return false;
  const at = indentOf(text, item.quotes);
  return at.quotes === item.quotes && at.cols >= item.content;
}

/** The fault for a block of code under `Acceptance:` (the label as written, on line index `at`): the line to write instead, with the code's first line. */
function codeUnder(model: LineModel, at: number, i: number, label: string): ContractFault {
  const over = model.lines[at];
  const next = model.lines[i];
  const fenced = /^(`{3,}|~{3,})/.test(codeText(next?.text));
  const command = fenced ? fencedCommand(model, i) : codeText(next?.text).replace(/^\$\s+/, "") || "command";
  return acceptanceFault(over?.no ?? at + 1, "fenced-command", over?.text.trim() ?? "", { write: `Acceptance: \`${command}\` exits 0`, label });
}

/** The first line from `at + 1` that is not blank (or `to`). */
export function firstUnder(model: LineModel, at: number, to: number): number {
  let i = at + 1;
  while (i < to && model.lines[i]?.text.trim() === "") i++;
  return i;
}

/**
 * The fault for a code block (fenced or indented) right under the label line at `at`, blank lines
 * between; null when none is there. `written`: the line the label is written on, when it is not `at`
 * (a setext heading's text, over its underline at `at`).
 */
export function codeUnderLabel(model: LineModel, at: number, to: number, label: string, written = at): ContractFault | null {
  const i = firstUnder(model, at, to);
  return model.lines[i]?.hidden && !model.lines[i]?.comment ? codeUnder(model, written, i, label) : null;
}

type ListRows = Result<{ rows: LineRow[]; read: number[]; end: number }, ContractFault>;

/**
 * Whether a list item's text is a row that says what its command must do (`` `b` exits 0 ``), not
 * a bare code span, which as often names a file or a step.
 */
export const commandWithExpectations = (text: string, no: number): boolean => /`[^`]*`\s*\S/.test(text) && parseAcceptance(text, no).isOk();

/** Whether a line labels itself with its own words (acceptance or exit in any spelling, `Depends on:`, `Gate:`/`Verify:`): read as that wherever it stands. */
export const selfLabelled = (text: string): boolean => labelled(text) || DEPENDS.test(text) || GATE.test(text);

/** Whether a line is read as a label of its own (`selfLabelled`, or a gate word alone): what follows it is that label's. */
export const ownLabel = (text: string): boolean => selfLabelled(text) || GATE_ALONE.test(text);

/**
 * A thematic break (line index `at`) that ends an acceptance list (see `endsList`) where an item
 * the list would read as a row follows before the next heading, the stage's end or a label line
 * that reads what follows it (blank lines, prose and code between are passed over; lines `prose`
 * covers are no row): CommonMark ends the list at the break, and that item would be instructions.
 * The fault naming both; null otherwise. Each line after the break is looked at once.
 */
function breakInList(
  model: LineModel,
  at: number,
  to: number,
  prose: ReadonlySet<number>,
  kind: "rule-in-list" | "list-split" = "rule-in-list",
): ContractFault | null {
  for (let i = at + 1; i < to; i++) {
    const next = model.lines[i];
    if (!next || next.heading) return null;
    if (!isText(next) || prose.has(i)) continue;
    if (ownLabel(next.text)) return null;
    const item = itemLine(next.text);
    // For a split other than a break, only an item that says what its command must do: a bare code
    // span (a file, a step) is as likely a list of instructions.
    const rowShaped = item && (kind === "rule-in-list" ? parseAcceptance(item.text, next.no).isOk() : commandWithExpectations(item.text, next.no));
    if (rowShaped) {
      const text = model.lines[at]?.text.trim() ?? "";
      return { code: "structure-unread", line: at + 1, kind, text, hides: { line: next.no, text: next.text.trim() } };
    }
  }
  return null;
}

/**
 * `Acceptance:` (or `label` as written) with nothing after it: the list under it, read as CommonMark reads a list. Each of
 * its items is a command with expectations and gives one row; what is indented under an item
 * (a paragraph, code, a nested list) belongs to that item and is no row; blank lines between items
 * do not end the list. A line back at the margin after a blank line, a heading, or an Exit:,
 * Acceptance: or Depends on: line ends it. An item that is no command, or a command in a nested
 * list, is refused with its line: none is dropped in silence.
 */
export function acceptanceList(model: LineModel, at: number, to: number, label: string, written = at, prose: ReadonlySet<number> = new Set()): ListRows {
  const code = codeUnderLabel(model, at, to, label, written);
  if (code) return err(code);
  let i = firstUnder(model, at, to);
  const out = { rows: [] as LineRow[], read: [at], end: i };
  const under = { label, labelLine: model.lines[written]?.no ?? written + 1 };
  let open: OpenItem | null = null;
  let blank = false;
  const first = model.lines[i];
  for (; i < to; i++) {
    const line = model.lines[i] as Line;
    const ends = line.rule || (first !== undefined && endsList(line, first));
    const cut = ends && out.rows.length > 0 ? breakInList(model, i, to, prose) : null;
    if (cut) return err(cut);
    if (line.heading || ends) break;
    if (line.text.trim() === "" || /^[\s>]*$/.test(line.text)) {
      blank = true;
      continue;
    }
    const item = isText(line) ? itemLine(line.text) : null;
    const inside = insideItem(line.text, open);
    // A label line, or a bold label that opens a section (`**Out of scope**`), ends the list.
    if (!inside && (ACCEPTANCE.test(line.text) || EXIT.test(line.text) || DEPENDS.test(line.text) || boldSectionLabel(line.text) !== null)) break;
    if (item && !inside) {
      if (!item.text.startsWith("`")) return err(acceptanceFault(line.no, "list-item-not-command", line.text.trim(), { unread: item.text, ...under }));
      const one = acceptanceLine(model, i, to, item.text, label);
      if (one.isErr()) return err(one.error);
      out.rows.push(...one.value.rows);
      out.read.push(...one.value.read);
      i += one.value.read.length - 1;
      open = item;
      blank = false;
    } else if (item?.text.startsWith("`")) {
      return err(acceptanceFault(line.no, "nested-command", line.text.trim(), under));
    } else if (!inside && (blank || open === null || line.hidden)) {
      // Anything else back at the margin (a comment, which shows nothing, a paragraph, code) ends
      // the list as CommonMark ends it: a row-shaped item after it, before the next label, heading
      // or the stage's end, would be read as instructions in silence.
      // A prose marker there says what follows is prose: nothing to refuse.
      const marked = prose.has(i) || model.proseMarks.has(i);
      const split = out.rows.length > 0 && !marked ? breakInList(model, i - 1, to, prose, "list-split") : null;
      if (split) return err({ ...split, line: line.no, text: line.text.trim() });
      break;
    }
    out.end = i + 1;
  }
  if (out.rows.length === 0) return err(acceptanceFault(under.labelLine, "no-command", "", { label }));
  return ok(out);
}
