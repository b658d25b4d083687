// Lines of a markdown file with their line endings, and which of them are no text: fenced code
// and HTML comments.
import { dropOneBom, loneCrLine, nulLine } from "@decay/portable";
import type { JournalFault, LeftOpen } from "./fault.js";

/** One line: its text without the line ending, and the ending itself ("" on a last line without one). */
export interface MdLine {
  readonly text: string;
  readonly eol: string;
  /** Offset of the line's first character in the markdown. */
  readonly start: number;
}

/**
 * Split markdown into lines, keeping each line's ending so the text can be rebuilt byte for byte. A
 * leading byte order mark is no text: the first line starts after it (it stays in the markdown).
 */
export function splitLines(markdown: string): MdLine[] {
  const lines: MdLine[] = [];
  const re = /\r\n|\n|\r/g;
  let start = markdown.startsWith("\uFEFF") ? 1 : 0;
  for (let m = re.exec(markdown); m; m = re.exec(markdown)) {
    lines.push({ text: markdown.slice(start, m.index), eol: m[0], start });
    start = m.index + m[0].length;
  }
  if (start < markdown.length) lines.push({ text: markdown.slice(start), eol: "", start });
  return lines;
}

/**
 * What no plan or record text holds, as a fault naming its line, or null: a second byte order mark
 * after the one a file may open with (`repeated-bom`); a line ended by a lone CR (`line-end-cr`: a
 * Markdown renderer breaks the line there where grep, git diff and a terminal show one line, so a
 * line after it could set a task's state unseen); a NUL character (`nul-character`).
 */
export function textFault(markdown: string): JournalFault | null {
  if (dropOneBom(markdown).isErr()) return { code: "repeated-bom", line: 1 };
  const cr = loneCrLine(markdown);
  if (cr !== null) return { code: "line-end-cr", line: cr };
  const nul = nulLine(markdown);
  return nul === null ? null : { code: "nul-character", line: nul };
}

/** A fence opener: up to three spaces, then three or more backticks or tildes, and an info string. */
const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;

/** The fence a line opens, or null. */
export function fenceOf(text: string): { marker: string; info: string } | null {
  const m = FENCE.exec(text);
  if (!m?.[1]) return null;
  const info = (m[2] ?? "").trim();
  // A backtick fence's info string may not hold a backtick.
  if (m[1].startsWith("`") && info.includes("`")) return null;
  return { marker: m[1], info };
}

/** True when `text` closes a block opened with `marker`: the same character, at least as long, nothing after. */
export function closes(text: string, marker: string): boolean {
  const m = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(text);
  return !!m?.[1] && m[1][0] === marker[0] && m[1].length >= marker.length;
}

/**
 * A fenced code block or an HTML comment block. `close` is its last line, null when it runs to the
 * end of the text. `nested`, for a fence: the first line inside it that opens a fence of the same
 * character at least as long with an info string (```` ```text ```` inside ```` ``` ````), whose
 * own closing fence would end this block instead: the sign of a fence left open above it.
 */
export interface Block {
  readonly kind: "fence" | "comment";
  readonly open: number;
  readonly close: number | null;
  readonly info: string;
  readonly nested: number | null;
}

/** Which lines are no markdown text (inside fenced code or an HTML comment, their delimiting lines included), and the blocks that hide them. */
export interface Scan {
  readonly hidden: readonly boolean[];
  readonly blocks: readonly Block[];
}

/** An HTML comment block opens on a line starting `<!--` (after up to three spaces) and ends on the first line holding `-->`. */
const COMMENT = /^ {0,3}<!--/;

/** The fenced blocks and HTML comment blocks of the lines, in one pass. */
export function scanBlocks(lines: readonly MdLine[]): Scan {
  const hidden: boolean[] = [];
  const blocks: Block[] = [];
  let open: { kind: "fence" | "comment"; open: number; marker: string; info: string; nested: number | null } | null = null;
  const end = (close: number | null): void => {
    if (open) blocks.push({ kind: open.kind, open: open.open, close, info: open.info, nested: open.nested });
    open = null;
  };
  lines.forEach(({ text }, index) => {
    hidden.push(true);
    if (open?.kind === "fence") {
      if (closes(text, open.marker)) return end(index);
      const inner = fenceOf(text);
      const marker = open.marker;
      if (open.nested === null && inner && inner.info !== "" && inner.marker[0] === marker[0] && inner.marker.length >= marker.length) open.nested = index;
      return;
    }
    if (open?.kind === "comment") {
      if (text.includes("-->")) end(index);
      return;
    }
    const fence = fenceOf(text);
    if (fence) open = { kind: "fence", open: index, marker: fence.marker, info: fence.info, nested: null };
    else if (COMMENT.test(text)) {
      open = { kind: "comment", open: index, marker: "", info: "", nested: null };
      if (text.includes("-->")) end(index);
    } else hidden[index] = false;
  });
  end(null);
  return { hidden, blocks };
}

/** A block (fenced code or an HTML comment) still open at the end of the text, or null. */
export function unclosedBlock(scan: Scan): Block | null {
  const last = scan.blocks[scan.blocks.length - 1];
  return last && last.close === null ? last : null;
}

/** A block left open, as fault data (1-based lines): never closed, or closed only by a block opened inside it (see `Block.nested`); null for one that closes as written. */
export function leftOpen(b: Block): LeftOpen | null {
  if (b.close !== null && b.nested === null) return null;
  const nested = b.close === null || b.nested === null ? null : { nested: b.nested + 1, closed: b.close + 1 };
  return { line: b.open + 1, kind: b.kind, ...nested };
}

/**
 * The first heading `wanted` accepts that a block left open hides (see `Block.nested`), as the
 * fault `heading-hidden`; null when none. A block that closes as written hides what it holds on
 * purpose (a quoted example). Each line is looked at once.
 */
export function hiddenHeading(lines: readonly MdLine[], scan: Scan, wanted: (h: { level: number; text: string }) => boolean): JournalFault | null {
  for (const b of scan.blocks) {
    const open = leftOpen(b);
    if (!open) continue;
    for (let i = b.open + 1; i < (b.close ?? lines.length); i++) {
      const text = (lines[i] as MdLine).text;
      const h = headingOf(text);
      if (!h || !wanted(h)) continue;
      return { code: "heading-hidden", ...open, heading: i + 1, text: text.trim() };
    }
  }
  return null;
}

/** An ATX heading outside fenced code: its level and text. */
export function headingOf(text: string): { level: number; text: string } | null {
  const m = /^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(text);
  return m?.[1] ? { level: m[1].length, text: (m[2] ?? "").trim() } : null;
}
