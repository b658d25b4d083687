/** One line of a Markdown text: 1-based number, its offsets in the text, content without EOL. */
export type Line = {
  no: number;
  start: number;
  end: number;
  text: string;
  inFence: boolean;
};

/** An ATX heading outside fenced code: its line index, level and text. */
export type Heading = { index: number; level: number; text: string };

/** The line model of a text: lines (fenced code marked) and the headings outside fences. */
export type LineModel = { source: string; lines: Line[]; headings: Heading[] };

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;

/** Split text into lines (LF, CR stripped from content), mark fenced code, find headings. */
export function lineModel(source: string): LineModel {
  const lines: Line[] = [];
  const headings: Heading[] = [];
  let fence: string | null = null;
  let start = 0;
  for (let no = 1; start <= source.length; no++) {
    const nl = source.indexOf("\n", start);
    const end = nl === -1 ? source.length : nl;
    const text = source.slice(start, end).replace(/\r$/, "");
    const open = FENCE.exec(text)?.[1];
    let inFence = fence !== null;
    if (fence !== null) {
      if (open && open[0] === fence[0] && open.length >= fence.length && text.trim() === open) fence = null;
    } else if (open) {
      fence = open;
      inFence = true;
    } else {
      const h = HEADING.exec(text);
      if (h?.[1]) headings.push({ index: lines.length, level: h[1].length, text: (h[2] ?? "").trim() });
    }
    lines.push({ no, start, end, text, inFence });
    if (nl === -1) break;
    start = nl + 1;
  }
  return { source, lines, headings };
}

/**
 * The verbatim text of lines [from, to) with trailing blank lines trimmed; "" when nothing is left.
 * The result is always a substring of the source.
 */
export function verbatim(model: LineModel, from: number, to: number, startAt?: number): string {
  let last = to - 1;
  while (last >= from && (model.lines[last]?.text.trim() ?? "") === "") last--;
  const first = model.lines[from];
  const end = model.lines[last];
  if (!first || !end || last < from) return "";
  const begin = startAt ?? first.start;
  const stop = end.start + end.text.length;
  return stop > begin ? model.source.slice(begin, stop) : "";
}
