// Writing the record: new lines go right before the text block's closing fence; an existing
// line changes only for a Task line's state or the `Base: unset` placeholder.
import { err, ok, Result } from "neverthrow";
import type { JournalFault } from "./fault.js";
import { parseLine, renderLine } from "./line.js";
import { leftOpen, type MdLine, scanBlocks, splitLines, unclosedBlock } from "./markdown.js";
import { type JournalRecord, parseRecord } from "./record.js";
import type { RecordLine, TaskState } from "./schema.js";

/** Render a line and read it back: a typed line that would not read back the same is refused. */
function checked(line: RecordLine, at: number): Result<string, JournalFault> {
  const text = renderLine(line);
  const back = parseLine(text);
  if (back.isErr()) return err({ code: "record-line-invalid", line: at, text, issue: back.error });
  if (/[\r\n]/.test(text) || renderLine(back.value) !== text) {
    return err({ code: "record-line-invalid", line: at, text, issue: "the line does not read back as written" });
  }
  return ok(text);
}

function checkedAll(lines: readonly RecordLine[], at: number): Result<string[], JournalFault> {
  return Result.combine(lines.map((l, k) => checked(l, at + k)));
}

/** The document's line ending: the first one it uses, else "\n". */
const eolOf = (lines: readonly MdLine[]): string => lines.find((l) => l.eol !== "")?.eol ?? "\n";

/** Insert `text` at `offset`; nothing else changes. */
const insertAt = (source: string, offset: number, text: string): string => source.slice(0, offset) + text + source.slice(offset);

/** A new text block holding `texts`, at the end of the section or of the file (a new `## Verification record`). */
function newBlock(record: JournalRecord, texts: readonly string[]): string {
  const { source, section } = record;
  const lines = splitLines(source);
  const eol = eolOf(lines);
  const at = section && section.end < lines.length ? (lines[section.end] as MdLine).start : source.length;
  const before = lines.filter((l) => l.start < at);
  const last = before[before.length - 1];
  let lead = last && last.eol === "" ? eol : "";
  if (last && last.text.trim() !== "") lead += eol;
  const heading = section ? "" : `## Verification record${eol}${eol}`;
  const block = `${heading}\`\`\`text${eol}${texts.map((t) => t + eol).join("")}\`\`\`${eol}`;
  return insertAt(source, at, lead + block + (section && section.end < lines.length ? eol : ""));
}

/** A new block, unless the file ends inside a fenced block or an HTML comment that would swallow it. */
function newRecordBlock(record: JournalRecord, added: readonly RecordLine[]): Result<string, JournalFault> {
  const all = splitLines(record.source);
  const unclosed = unclosedBlock(scanBlocks(all));
  const open = unclosed && leftOpen(unclosed);
  const atEnd = !record.section || record.section.end === all.length;
  if (open && atEnd) return err({ code: "record-unclosed", ...open });
  return checkedAll(added, 1).map((texts) => newBlock(record, texts));
}

/** Replace line `line` (1-based) of the markdown by `texts`, keeping its line ending after the last. */
function replaceLine(markdown: string, line: number, texts: readonly string[]): string {
  const target = splitLines(markdown)[line - 1] as MdLine;
  const eol = target.eol === "" ? eolOf(splitLines(markdown)) : target.eol;
  return markdown.slice(0, target.start) + texts.join(eol) + markdown.slice(target.start + target.text.length);
}

/**
 * Fill the `Base: unset` placeholder with the first set Base line given, followed under it by the
 * `Commits` and `Initial dirty state` lines given right after that Base; the other lines are left to append.
 */
function fillBase(record: JournalRecord, lines: readonly RecordLine[]): Result<{ markdown: string; rest: readonly RecordLine[] }, JournalFault> {
  const k = lines.findIndex((l) => l.kind === "base" && l.base !== "unset");
  const placeholder = record.entries.find((e) => e.value.kind === "base" && e.value.base === "unset");
  if (k < 0 || !placeholder) return ok({ markdown: record.source, rest: lines });
  let end = k + 1;
  while (end < lines.length && (lines[end]?.kind === "commits" || lines[end]?.kind === "dirty")) end++;
  return checkedAll(lines.slice(k, end), placeholder.line).map((texts) => ({
    markdown: replaceLine(record.source, placeholder.line, texts),
    rest: [...lines.slice(0, k), ...lines.slice(end)],
  }));
}

/**
 * Append lines to the record, right before its text block's closing fence. A set `Base` line
 * fills the `Base: unset` placeholder in place (with the `Commits` and `Initial dirty state`
 * lines given right after it going under it). Without a record section, a spec's
 * `## Verification record` is created at the end. Every other byte stays as it was.
 */
export function appendRecord(markdown: string, lines: readonly RecordLine[]): Result<string, JournalFault> {
  return parseRecord(markdown)
    .andThen((parsed) => fillBase(parsed, lines))
    .andThen(({ markdown: filled, rest }) =>
      parseRecord(filled).andThen((record) => {
        if (!record.block) return newRecordBlock(record, rest);
        const all = splitLines(filled);
        const close = all[record.block.close] as MdLine;
        const eol = eolOf([all[record.block.close - 1] as MdLine]);
        return checkedAll(rest, record.block.close + 1).map((texts) => insertAt(filled, close.start, texts.map((t) => t + eol).join("")));
      }),
    );
}

/** Change the state of Task `n`'s line in place (its last line, when a number repeats); nothing else changes. */
export function setTaskState(markdown: string, n: number, state: TaskState): Result<string, JournalFault> {
  return parseRecord(markdown).andThen((record) => {
    const entry = [...record.entries].reverse().find((e) => e.value.kind === "task" && e.value.n === n);
    if (!entry) return err({ code: "task-unknown", task: n } as const);
    const text = checked({ kind: "task", n, state }, entry.line).mapErr(
      (f): JournalFault => ({
        code: "state-invalid",
        task: n,
        issue: f.code === "record-line-invalid" ? f.issue : f.code,
      }),
    );
    return text.map((t) => replaceLine(markdown, entry.line, [t]));
  });
}
