// Lines of a markdown file with their line endings, and which of them sit inside fenced code.

/** One line: its text without the line ending, and the ending itself ("" on a last line without one). */
export interface MdLine {
  readonly text: string;
  readonly eol: string;
  /** Offset of the line's first character in the markdown. */
  readonly start: number;
}

/** Split markdown into lines, keeping each line's ending so the text can be rebuilt byte for byte. */
export function splitLines(markdown: string): MdLine[] {
  const lines: MdLine[] = [];
  const re = /\r\n|\n|\r/g;
  let start = 0;
  for (let m = re.exec(markdown); m; m = re.exec(markdown)) {
    lines.push({ text: markdown.slice(start, m.index), eol: m[0], start });
    start = m.index + m[0].length;
  }
  if (start < markdown.length) lines.push({ text: markdown.slice(start), eol: "", start });
  return lines;
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

/** For each line, true when it lies inside a fenced code block (its fence lines included). */
export function fencedMask(lines: readonly MdLine[]): boolean[] {
  return scanFences(lines).mask;
}

/** The index of the line opening a fenced block that is still open at the end of the text, or null. */
export function unclosedFence(lines: readonly MdLine[]): number | null {
  return scanFences(lines).open;
}

function scanFences(lines: readonly MdLine[]): { mask: boolean[]; open: number | null } {
  const mask: boolean[] = [];
  let open: { marker: string; index: number } | null = null;
  lines.forEach((line, index) => {
    if (open !== null) {
      mask.push(true);
      if (closes(line.text, open.marker)) open = null;
      return;
    }
    const fence = fenceOf(line.text);
    if (fence) open = { marker: fence.marker, index };
    mask.push(fence !== null);
  });
  return { mask, open: (open as { index: number } | null)?.index ?? null };
}

/** An ATX heading outside fenced code: its level and text. */
export function headingOf(text: string): { level: number; text: string } | null {
  const m = /^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(text);
  return m?.[1] ? { level: m[1].length, text: (m[2] ?? "").trim() } : null;
}
