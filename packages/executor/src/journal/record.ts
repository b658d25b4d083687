// The record section of a plan (`## Execution record`) or spec (`## Verification record`):
// find its text block, read its lines, and write it back byte for byte.
import { err, ok, type Result } from "neverthrow";
import type { JournalFault } from "./fault.js";
import { parseLine, renderLine } from "./line.js";
import { headingOf, hiddenHeading, leftOpen, type MdLine, type Scan, scanBlocks, splitLines, textFault } from "./markdown.js";
import type { RecordLine } from "./schema.js";

/** One line of the record's text block: where it stands (1-based), its line ending, what it says. */
export interface RecordEntry {
  readonly line: number;
  readonly eol: string;
  readonly value: RecordLine;
}

/**
 * A parsed record. `source` is the whole markdown it came from; `block` holds the 0-based line
 * indices of the text block's opening and closing fences (null when the section has none);
 * `section` is null when the markdown has no record section at all.
 */
export interface JournalRecord {
  readonly source: string;
  readonly section: { readonly kind: "execution" | "verification"; readonly heading: number; readonly end: number } | null;
  readonly block: { readonly open: number; readonly close: number } | null;
  readonly entries: readonly RecordEntry[];
}

const SECTION_TITLES = { execution: /^execution record$/i, verification: /^verification record$/i } as const;

/** Whether a heading opens a record section. */
const isRecordHeading = (h: { level: number; text: string }): boolean =>
  h.level === 2 && (SECTION_TITLES.execution.test(h.text) || SECTION_TITLES.verification.test(h.text));

/** The last record section outside fenced code and HTML comments: a plan's execution record first, else a spec's verification record. */
function findSection(lines: readonly MdLine[], hidden: readonly boolean[]): JournalRecord["section"] {
  const headings = lines.flatMap((l, i) => {
    const h = hidden[i] ? null : headingOf(l.text);
    return h ? [{ ...h, index: i }] : [];
  });
  for (const kind of ["execution", "verification"] as const) {
    const at = headings.findLastIndex((h) => h.level === 2 && SECTION_TITLES[kind].test(h.text));
    const found = headings[at];
    if (!found) continue;
    const next = headings.slice(at + 1).find((h) => h.level <= 2);
    return { kind, heading: found.index, end: next ? next.index : lines.length };
  }
  return null;
}

/**
 * The first ```` ```text ```` block of the section, or null. Blocks that close as written before it
 * are stepped over; one left open before it (see `leftOpen`) would hide it, and the text block
 * itself never closed, are faults: never an empty record read from a block the reader could not see.
 */
function findBlock(scan: Scan, section: NonNullable<JournalRecord["section"]>): Result<JournalRecord["block"], JournalFault> {
  for (const b of scan.blocks) {
    if (b.open <= section.heading || b.open >= section.end) continue;
    if (b.kind === "fence" && b.info === "text" && b.close !== null) return ok({ open: b.open, close: b.close });
    const open = b.kind === "fence" && b.info === "text" ? { line: b.open + 1, kind: b.kind } : leftOpen(b);
    if (open) return err({ code: "record-unclosed", ...open });
  }
  return ok(null);
}

/** Read the record of a plan or spec into typed lines; a malformed line is refused with its line number. Never throws. */
export function parseRecord(markdown: string): Result<JournalRecord, JournalFault> {
  const refused = textFault(markdown);
  if (refused) return err(refused);
  const lines = splitLines(markdown);
  const scan = scanBlocks(lines);
  // A record heading hidden by a block left open: the record would be read as another, or as none.
  const hidden = hiddenHeading(lines, scan, isRecordHeading);
  if (hidden) return err(hidden);
  const section = findSection(lines, scan.hidden);
  if (!section) return ok({ source: markdown, section: null, block: null, entries: [] });
  return findBlock(scan, section).andThen((block) => {
    const entries: RecordEntry[] = [];
    const rounds = new Map<string, number>();
    for (let i = (block?.open ?? 0) + 1; block && i < block.close; i++) {
      const { text, eol } = lines[i] as MdLine;
      const value = parseLine(text).andThen((v) => (v.kind === "round" ? roundOnce(rounds, v, i + 1) : ok(v)));
      if (value.isErr()) return err({ code: "record-line-invalid", line: i + 1, text, issue: value.error } as const);
      entries.push({ line: i + 1, eol, value: value.value });
    }
    return ok({ source: markdown, section, block, entries });
  });
}

/** A loop's round `n` seen for the first time (its line kept in `seen`); a second line for it is refused, naming the first. */
function roundOnce(seen: Map<string, number>, round: Extract<RecordLine, { kind: "round" }>, line: number): Result<RecordLine, string> {
  const key = `${round.loop} ${round.n}`;
  const first = seen.get(key);
  if (first !== undefined) return err(`Round ${key} is already on line ${first}: each round of a loop has its own number`);
  seen.set(key, line);
  return ok(round);
}

/** Write a parsed record back: its lines rendered from their values, every other byte as it was. */
export function renderRecord(record: JournalRecord): string {
  const { source, block, entries } = record;
  if (!block) return source;
  const lines = splitLines(source);
  const from = (lines[block.open + 1] as MdLine).start;
  const to = (lines[block.close] as MdLine).start;
  return source.slice(0, from) + entries.map((e) => renderLine(e.value) + e.eol).join("") + source.slice(to);
}
