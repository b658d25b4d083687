import { err, ok, type Result } from "neverthrow";
import type { ContractFault } from "../fault.js";
import { endsList, isText, type Line, type LineModel, repeatEnd, underlineOf, verbatim } from "./lines.js";
import { ACCEPTANCE, ACCEPTANCE_ALONE, DEPENDS, EXIT, EXIT_ALONE, GATE, GATE_ALONE, QUOTE } from "./stage-labels.js";
import { acceptanceFault } from "./acceptance.js";
import { itemLine } from "./list-item.js";
import { acceptanceLine, acceptanceList, codeUnderLabel, commandWithExpectations, firstUnder, type LineRow, ownLabel, selfLabelled } from "./stage-rows.js";
import { boldSectionLabel } from "./sections.js";
import type { StageSpan } from "./stages.js";

/** What a stage's body says about itself, with the line of each statement. */
export type StageBody = {
  exit: string | null;
  /** Each row with the line it was read from (an `Acceptance:` line or a list item). */
  rows: LineRow[];
  dependsOn: { refs: string[]; line: number } | null;
  optional: boolean;
  /**
   * The paragraphs and list items that open with a dependency in a spelling not read (`Requires:
   * Stage 1`, `- **Dependencies:** …`, `Depends on Stage 1.` with no colon): the reader refuses one
   * that names earlier stages other than the one before, where no `Depends on:` line is.
   */
  spelledDepends: { line: number; text: string; value: string }[];
  /** Indices of the lines read as Exit:, Acceptance: (with their wrapped and listed lines) or Depends on:. */
  read: number[];
};

// A paragraph that marks the stage (`Optional.`, `**Optional**`, `Optional stage: …`), never a list
// item of its tasks or text inside one: `- Optional: log progress` is a task, and skipping the stage
// over it would skip its acceptance. Code (hidden) never marks it, nor a line indented 4 or more.
// Groups: `(Optional)`; else the word, with a stage word after it; then the separator after them and
// a parenthesis (`Optional (if time allows).`), absent at the line's end or before a word.
// Emphasis may wrap each part: `*Optional.*`, `**Optional:**`.
const OPTIONAL_WORD =
  /(?:\*\*|__|\*|_)?(?:(\(Optional\))|Optional(?:\s+(stage|phase|step|milestone)\b)?)(?:\*\*|__|\*|_)?(?:\s*\([^)\n]{0,80}\))?(?:\*\*|__|\*|_)?[ \t]*([.:;—–]|-(?=\s))?/iy;
/** `This stage is optional.`: a sentence that says it of the stage (or, in a `Step` stage, `This step …`). */
const THIS_OPTIONAL = /(?:\*\*|__|\*|_)?This\s+(stage|phase|step|milestone)\s+is\s+optional\b/iy;
const EMPHASIS_CLOSE = /^(?:\*\*|__|\*|_)?\s*/;
const YES = /^(?:yes|true)\.?$/i;
const NO = /^(?:no|false)\.?$/i;

/** The word a stage's label calls stages (`Phase 2`: phase; `S2`: stage); undefined for a numbered item's. */
function stageWord(label: string): string | undefined {
  if (/^S\d/i.test(label)) return "stage";
  return /^(stage|phase|step|milestone)\b/i.exec(label)?.[1]?.toLowerCase();
}

/** Whether the block after line `i` and the blank lines under it is text, a list or code: what a colon at the end of `i` introduces. */
function introducesBlock(model: LineModel, i: number, to: number): boolean {
  const k = firstUnder(model, i, to);
  const line = model.lines[k];
  if (k >= to || !line || line.heading || line.rule) return false;
  return line.hidden ? !line.comment : !selfLabelled(line.text);
}

/**
 * What the line at `i` says of its stage (up to 3 spaces in, past its quote markers): `mark` when
 * it makes the stage optional: a sentence (`Optional.`, `*Optional.*`, `Optional (if time
 * allows).`), the word or label alone in its paragraph (`Optional`, `**(Optional)**`, `**Optional:**`
 * over nothing but a label, a heading or the stage's end), the stage named (`Optional stage: …`, in a
 * `Phase` stage `Optional phase: …`; `This stage is optional`), `Optional: yes`. Null for `Optional:
 * no`. `unclear` when it
 * goes on to text, a list or code (`Optional: also add a printer`, `**Optional**` over a list,
 * `Optional step: …` in a stage that is no step), which may name one step of the stage as well as
 * the stage. Null when it says neither (`Optionally, …`). Looks at most at the lines right under it.
 */
function optionalSaid(model: LineModel, i: number, to: number, text: string, word: string | undefined): "mark" | "unclear" | null {
  const start = repeatEnd(QUOTE, text, Math.min(3, text.length - text.replace(/^ +/, "").length));
  const ofStage = (named: string | undefined): boolean => named === "stage" || named === word;
  THIS_OPTIONAL.lastIndex = start;
  const sentence = THIS_OPTIONAL.exec(text);
  // `This step is optional.` in a stage that is no step speaks of a step: prose. `… optional for the
  // pilot but required for GA`, `… unless …`: optional only under a condition, which says too little.
  if (sentence) {
    if (!ofStage(sentence[1]?.toLowerCase())) return null;
    return /^(?:\*\*|__|\*|_)?\s*(?:[.!:;—–]|$)/.test(text.slice(THIS_OPTIONAL.lastIndex)) ? "mark" : "unclear";
  }
  OPTIONAL_WORD.lastIndex = start;
  const m = OPTIONAL_WORD.exec(text);
  if (!m) return null;
  const named = m[2]?.toLowerCase();
  const separator = m[3];
  const rest = text.slice(OPTIONAL_WORD.lastIndex).replace(EMPHASIS_CLOSE, "");
  // A sentence that starts with the word (`Optionally …`, `Optional stage gates need …`), or says no.
  if ((m[1] === undefined && separator === undefined && rest !== "") || NO.test(rest)) return null;
  if (named !== undefined && !ofStage(named)) return "unclear";
  if (separator === "." || named !== undefined || YES.test(rest)) return "mark";
  if (rest !== "") return "unclear";
  // Nothing after it on its line: a line right under it goes on from it (a wrapped line, a list, code).
  const next = i + 1 < to ? model.lines[i + 1] : undefined;
  if (next && next.text.trim() !== "" && ((next.hidden && !next.comment) || itemLine(next.text) !== null || paragraphEnd(model, i + 1, i + 2) > i + 1)) {
    return "unclear";
  }
  // A colon, semicolon or dash introduces what follows the blank lines under it too.
  return separator !== undefined && introducesBlock(model, i, to) ? "unclear" : "mark";
}

/**
 * `text` without the emphasis that closes it and the blanks before that (`Stage 1*` of `*Depends
 * on: Stage 1*`): by hand, as `/\s*(?:\*\*|_)$/` is quadratic on a long run of blanks.
 */
function withoutClosingEmphasis(text: string): string {
  const mark = ["**", "__", "*", "_"].find((m) => text.endsWith(m));
  return mark === undefined ? text : text.slice(0, -mark.length).trimEnd();
}

/** A dependency in a spelling `Depends on:` is not: its value (group 1). */
// A colon and blanks, or blanks alone, before the value: never two blank runs side by side, which
// would try every split of a long run of blanks.
const DEPENDS_SPELLED =
  /^\s*(?:\*\*|__|\*|_)?(?:dependencies|dependency|prerequisites?|requires|blocked\s+by|depends\s+on(?!\s*:))(?:\*\*|__|\*|_)?(?::(?:\*\*|__|\*|_)?[ \t]*|[ \t]+)(\S.*)$/i;

/** Split `Phase 1, Phase 2 and S3` into its references; `none` is no reference. */
export function splitRefs(text: string): string[] {
  const refs = text
    .replace(/\.$/, "")
    .split(/,|;|\band\b|&/i)
    .map((r) => r.trim())
    .filter((r) => r !== "");
  return refs.length === 1 && /^(?:none|nothing|-|—)$/i.test(refs[0] ?? "") ? [] : refs;
}

/** The line indices `from` to `end - 1`: what a label read. */
const lines = (from: number, end: number): number[] => Array.from({ length: end - from }, (_, k) => from + k);

/**
 * What a `Depends on:` line at `i` names (`rest`: the text after its colon): that text, with the
 * next lines of its paragraph when it ends in a separator (`Stage 1,` over `Stage 2`); with nothing
 * after the colon, the items of the list right under it, else the paragraph right under it; and the
 * lines read. Empty text when it names nothing.
 */
function dependsValue(model: LineModel, i: number, to: number, rest: string): { text: string; read: number[] } {
  const texts = (from: number, end: number) => model.lines.slice(from, end).map((l) => l.text.trim());
  if (rest !== "") {
    const end = /(?:,|;|&|\band)\s*$/i.test(rest) ? paragraphEnd(model, i + 1, to) : i + 1;
    return { text: [rest, ...texts(i + 1, end)].join(" "), read: lines(i, end) };
  }
  const list = listUnder(model, i, to);
  if (list) {
    const items = model.lines
      .slice(list.from, list.to)
      .flatMap((l) => (isText(l) ? [itemLine(l.text)?.text.trim() ?? ""] : []))
      .filter((t) => t !== "");
    return { text: items.join(", "), read: lines(i, list.to) };
  }
  const para = paragraphUnder(model, i, to);
  return para ? { text: texts(para.from, para.to).join(" "), read: lines(i, para.to) } : { text: "", read: [i] };
}

// Lines read can number in the hundreds of thousands: never spread into a call (the stack).
function append(to: number[], ...lists: readonly number[][]): void {
  for (const list of lists) for (const n of list) to.push(n);
}
const lastOf = (list: readonly number[], none: number): number => list[list.length - 1] ?? none;
function largest(list: readonly number[], none: number): number {
  let most = none;
  for (const n of list) if (n > most) most = n;
  return most;
}

/** Whether a line opens a list item. */
const isItem = (text: string | undefined): boolean => itemLine(text ?? "") !== null;

/** The list right under a label line at `at` (blank lines before it skipped): its line range, or null. */
function listUnder(model: LineModel, at: number, to: number): { from: number; to: number } | null {
  let i = firstUnder(model, at, to);
  if (!isText(model.lines[i]) || !isItem(model.lines[i]?.text)) return null;
  const from = i;
  const first = model.lines[from] as Line;
  let end = i;
  for (; i < to; i++) {
    const line = model.lines[i];
    if (!line || line.heading || line.rule || endsList(line, first)) break;
    const blank = line.text.trim() === "";
    const next = model.lines[i + 1]?.text ?? "";
    if (blank && !isItem(next) && !/^\s+\S/.test(next)) break;
    if (!blank && !isItem(line.text) && !/^\s/.test(line.text) && !line.hidden) break;
    // An item that is itself an Acceptance:, Exit: or Depends on: line is read as that, never swallowed.
    if (!blank && (ACCEPTANCE.test(line.text) || EXIT.test(line.text) || DEPENDS.test(line.text))) break;
    if (!blank) end = i + 1;
  }
  return { from, to: end };
}

/**
 * Whether the list right under a `Gate:`, `Verify:` or `Verification:` label with nothing after its
 * colon holds a command in backticks: then it is read as an acceptance list, as the label with a
 * command after its colon is a row (a list of prose under it stays prose, as `Gate: PM sign-off` does).
 */
function commandListUnder(model: LineModel, at: number, to: number): boolean {
  const list = listUnder(model, at, to);
  if (!list) return false;
  for (let i = list.from; i < list.to; i++) {
    const line = model.lines[i];
    if (isText(line) && itemLine(line.text)?.text.startsWith("`")) return true;
  }
  return false;
}

/** The paragraph right under a label line at `at` (blank lines before it skipped), up to a line read as something else: its range, or null. */
function paragraphUnder(model: LineModel, at: number, to: number): { from: number; to: number } | null {
  const from = firstUnder(model, at, to);
  const end = paragraphEnd(model, from, to);
  return end > from ? { from, to: end } : null;
}

/**
 * Where a paragraph's lines from `from` end: at a blank line, code, a heading, a thematic break in
 * any container (as CommonMark ends a paragraph there), or a line that labels itself (Acceptance:,
 * Exit:, Depends on:, Gate:), which is read as that, or refused, never swallowed; so is a gate word
 * alone (`**Verification**`) over a list of commands, where it reads them as rows (over anything
 * else it is a word of the paragraph); a list item, which interrupts a paragraph; and a bold
 * label that opens a section.
 */
export function paragraphEnd(model: LineModel, from: number, to: number): number {
  let i = from;
  for (; i < to; i++) {
    const line = model.lines[i];
    if (!isText(line) || line.thematic || line.text.trim() === "" || selfLabelled(line.text)) break;
    // A bold label that opens a section (`**Out of scope**`) is a heading in all but syntax.
    if (boldSectionLabel(line.text) !== null) break;
    if (GATE_ALONE.test(line.text) && commandListUnder(model, i, to)) break;
    if (itemLine(line.text)) break;
  }
  return i;
}

/** An exit criterion: the text after `Exit:`, or the list (else the paragraph) under an `Exit criteria` label. */
function exitAt(model: LineModel, i: number, to: number, text: string): { exit: string; read: number[] } {
  if (text === "") {
    const list = listUnder(model, i, to);
    if (list) return { exit: verbatim(model, list.from, list.to), read: lines(i, list.to) };
    const para = paragraphUnder(model, i, to);
    if (!para) return { exit: text, read: [i] };
    const end = withList(model, para.to, to);
    return { exit: verbatim(model, para.from, end), read: lines(i, end) };
  }
  // `Exit: text` hard-wrapped: the lines that continue its paragraph are the criterion's too,
  // verbatim from the text on, and so is a list it introduces. An `Exit:` item of a list takes
  // neither: the lines under it are its sibling items' business.
  const line = model.lines[i];
  if (!line || isItem(line.text)) return { exit: text, read: [i] };
  const end = withList(model, wrappedEnd(model, i, to), to);
  if (end === i + 1) return { exit: text, read: [i] };
  return { exit: verbatim(model, i, end, line.start + line.text.lastIndexOf(text)).trimEnd(), read: lines(i, end) };
}

/** A line that opens with a label of its own (`Owner:`, `**Risk:**`): another field, not the criterion wrapped. */
export const FIELD = /^\s*(?:>\s*)*(?:\*\*|__|\*|_)?\p{Lu}[\p{L}\d ]{0,30}(?:\*\*|__|\*|_)?:/u;

/**
 * Where a hard-wrapped `Exit:` line at `i` ends: its paragraph's end, or sooner at a hard line
 * break (two spaces or `\` ending the line before) or at a line that opens with a label of its own.
 */
function wrappedEnd(model: LineModel, i: number, to: number): number {
  const end = paragraphEnd(model, i + 1, to);
  for (let k = i + 1; k < end; k++) {
    const before = model.lines[k - 1]?.text ?? "";
    if (/(?: {2}|\\)$/.test(before) || FIELD.test(model.lines[k]?.text ?? "")) return k;
  }
  return end;
}

/**
 * Where an exit criterion's paragraph ending before line `end` ends with the list it introduces:
 * a list right under its last line (it interrupted the paragraph), or one after blank lines when
 * that line ends in a colon (`all of these hold:`); `end` when there is none.
 */
function withList(model: LineModel, end: number, to: number): number {
  const last = end - 1;
  const attached = isItem(model.lines[end]?.text);
  const list = attached || /:\s*$/.test(model.lines[last]?.text ?? "") ? listUnder(model, last, to) : null;
  if (!list) return end;
  // A list that holds a label (`- Verify: \`x\``, `- Acceptance: …`) is the stage's, never the criterion's.
  for (let k = list.from; k < list.to; k++) if (ownLabel(model.lines[k]?.text ?? "")) return end;
  return list.to;
}

/**
 * Whether a label line at `at` has a paragraph right under it, then a list whose first item is a
 * command with what it must do (`From the repo root:` over `` - `pnpm check` exits 0 ``): the shape
 * `Acceptance` alone is refused in, for the list is no longer right under the label.
 */
function introducesCommands(model: LineModel, at: number, to: number): boolean {
  const para = paragraphUnder(model, at, to);
  if (!para) return false;
  const line = model.lines[firstUnder(model, para.to - 1, to)];
  const item = isText(line) ? itemLine(line.text) : null;
  return item !== null && line !== undefined && commandWithExpectations(item.text, line.no);
}

/** Whether line `i` opens a paragraph: the first line of its span, or after a blank line, a heading, a rule or code, or the first line of a quote. */
function opensParagraph(model: LineModel, i: number, from: number): boolean {
  const prev = model.lines[i - 1];
  const text = model.lines[i]?.text ?? "";
  if (i === from || !prev || prev.hidden || prev.heading || prev.rule || /^[\s>]*$/.test(prev.text)) return true;
  return /^ {0,3}>/.test(text) && !/^ {0,3}>/.test(prev.text);
}

/**
 * A Gate:, Verify: or Verification: label with nothing after it (`gate`: the line read by GATE), or
 * such a label alone on its line (`**Verification**`, `#### Verify`), as written; null for any other
 * line. Over a list of commands it is read as `Acceptance:` over that list.
 */
function bareGate(text: string, gate: [string, string, string] | null): string | null {
  if (gate) return gate[1] === "" ? gate[2] : null;
  const m = GATE_ALONE.exec(text);
  return m ? `${m[1]}${m[2] ?? ""}` : null;
}

/**
 * The rows a label line at `i` gives: the line itself when a command follows its colon (`rest`), else
 * the list under `at` (the label's line, or a setext heading's underline). `label` is the label as
 * the plan writes it (`Verify:`, `Acceptance criteria`), which faults quote; `prose`: the lines a prose mark covers.
 */
function labelRows(model: LineModel, i: number, at: number, to: number, rest: string, label: string, prose: ReadonlySet<number>) {
  return rest === "" ? acceptanceList(model, at, to, label, i, prose) : acceptanceLine(model, i, to, rest, label).map((r) => ({ ...r, end: 0 }));
}

/**
 * The labels line `i` (its text as read, `heading` when it is part of a heading at the margin) is
 * read for, and `at`: the line what it labels is under. A label alone as a setext heading (`Verify`
 * over `---`) reads as its ATX form (`## Verify`): `at` is its underline (else `i`).
 */
function labelsOf(model: LineModel, i: number, text: string, heading: boolean) {
  const exit = heading ? null : EXIT.exec(text);
  const exitAlone = exit ? null : EXIT_ALONE.test(text);
  const gate = heading ? null : GATE.exec(text);
  const acc = exit || exitAlone || heading ? null : (ACCEPTANCE.exec(text) ?? (gate?.[1]?.startsWith("`") ? gate : null));
  const alone = exit || exitAlone || acc ? null : ACCEPTANCE_ALONE.exec(text);
  const dep = exit || exitAlone || acc || heading ? null : DEPENDS.exec(text);
  return { at: underlineOf(model, i) ?? i, exit, exitAlone, acc, alone, bare: bareGate(text, gate), dep };
}

/**
 * Read Exit:, Acceptance:, Depends on: and Optional lines of one stage (hidden and prose lines
 * ignored). A Gate:/Verify:/Verification: label over a code block gives no row: in a stage with no
 * row the self-check refuses the stage and names the label; beside other rows nothing would, so
 * the first such label is refused here (`codeLabel`). `first`: the plan's first stage, where an empty
 * `Depends on:` means what no line means.
 */
export function readStageBody(model: LineModel, span: StageSpan, prose: Set<number>, first = false): Result<StageBody, ContractFault> {
  const body: StageBody = { exit: null, rows: [], dependsOn: null, optional: span.optional, read: [], spelledDepends: [] };
  let exitLine = 0;
  let codeLabel: ContractFault | null = null;
  let unclear: ContractFault | null = null;
  const word = stageWord(span.label);
  for (let i = span.from; i < span.to; i++) {
    const line = model.lines[i];
    if (!line || line.hidden || line.rule || prose.has(i)) continue;
    const text = i === span.from && span.startAt !== undefined ? line.text.slice(span.startAt - line.start) : line.text;
    const { at, exit, exitAlone, acc, alone, bare, dep } = labelsOf(model, i, text, line.heading);
    // A setext heading's lines before its underline are read with it.
    const headLines = Array.from({ length: at - i }, (_, k) => i + k);
    if (exit || exitAlone) {
      if (body.exit !== null) return err({ code: "duplicate-exit", line: line.no, first: exitLine });
      const read = exitAt(model, exit?.[1] ? i : at, span.to, exit?.[1] ?? "");
      body.exit = read.exit;
      exitLine = line.no;
      append(body.read, headLines, read.read);
      i = Math.max(i, lastOf(read.read, i));
    } else if (acc || alone || (bare !== null && commandListUnder(model, at, span.to))) {
      const label = acc?.[2] ?? (alone ? `${alone[1]}${alone[2] ?? ""}` : (bare ?? "Acceptance:"));
      const rows = labelRows(model, i, at, span.to, acc?.[1] ?? "", label, prose);
      if (rows.isErr()) return err(rows.error);
      for (const row of rows.value.rows) body.rows.push(row);
      append(body.read, headLines, rows.value.read);
      i = Math.max(i, rows.value.end - 1, largest(rows.value.read, i));
    } else if (bare !== null && introducesCommands(model, at, span.to)) {
      // A gate label over a line of prose, then commands: its rows would be prose in silence.
      return err(acceptanceFault(line.no, "no-command", "", { label: bare }));
    } else if (bare !== null && codeLabel === null) {
      codeLabel = codeUnderLabel(model, at, span.to, bare, i);
    } else if (dep) {
      // A second line would replace the first in silence: refused, as a second Exit: line is.
      if (body.dependsOn) return err({ code: "duplicate-depends", line: line.no, first: body.dependsOn.line });
      const value = dependsValue(model, i, span.to, withoutClosingEmphasis(dep[1] ?? ""));
      // Nothing named is not `none`: read as no dependency, it would be weaker than no line at all
      // (in the first stage, where there is nothing before, it is what no line means).
      if (value.text === "" && !first) return err({ code: "depends-empty", line: line.no });
      body.dependsOn = { refs: splitRefs(value.text), line: line.no };
      append(body.read, value.read);
      i = Math.max(i, lastOf(value.read, i));
    } else if (line.listed || opensParagraph(model, i, span.from)) {
      const spelled = DEPENDS_SPELLED.exec(line.listed ? (itemLine(text)?.text ?? "") : text.slice(repeatEnd(QUOTE, text, 0)));
      if (spelled?.[1]) body.spelledDepends.push({ line: line.no, text: text.trim(), value: withoutClosingEmphasis(spelled[1].trim()) });
      if (line.listed) continue;
      // Only a paragraph's first line marks the stage: `optional.` wrapped from the line before is prose.
      const said = optionalSaid(model, i, span.to, text, word);
      if (said === "mark") {
        body.optional = true;
        // The stage's own paragraph: never a guardrail, even under a `#### Out of scope` of the stage.
        append(body.read, lines(i, Math.max(i + 1, paragraphEnd(model, i + 1, span.to))));
      } else if (said === "unclear") unclear ??= { code: "optional-unclear", line: line.no, text: text.trim() };
    }
  }
  if (codeLabel && body.rows.length > 0) return err(codeLabel);
  // Read as a mark it could skip a required stage's acceptance; read as prose, drop the mark: refused.
  return unclear && !body.optional ? err(unclear) : ok(body);
}
