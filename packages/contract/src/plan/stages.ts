import { headingFrom, type Line, type LineModel } from "./lines.js";
import { type ListItem, listItemAt, skip } from "./scan.js";
import { isStageHeading, type Section, stageMatch } from "./sections.js";

/** Where one stage sits in the plan: its label, title and body range, before its body is read. */
export type StageSpan = {
  label: string;
  title: string;
  optional: boolean;
  index: number;
  from: number;
  to: number;
  /** For a numbered item: where its instructions start on the item's own line. */
  startAt?: number;
};

/** Stages opened by `Stage N`/`Phase B`/`Step N`/`Milestone N`/`SN` headings inside the section. */
function headingStages(model: LineModel, section: Section): StageSpan[] {
  const inside = model.headings.slice(headingFrom(model, section.from), headingFrom(model, section.to));
  const first = inside.find(isStageHeading);
  if (!first) return [];
  const level = first.level;
  const spans: StageSpan[] = [];
  for (const h of inside) {
    if (h.level > level) continue;
    const last = spans[spans.length - 1];
    if (last && last.to === section.to) last.to = h.index;
    const m = stageMatch(h.text);
    if (!m) continue;
    spans.push({
      label: m.label,
      // A stage heading with no title (`## Stage 1`) keeps its label as its title.
      title: m.title === "" ? m.label : m.title,
      optional: m.optional || /\(optional\)/i.test(m.title),
      index: h.index,
      from: h.body,
      to: section.to,
    });
  }
  return spans;
}

const BOLD_TITLE = /^\*\*(.+?)\*\*[ \t]*(?:[:.—–-][ \t]*)?/;
const blankAt = (text: string, i: number): boolean => text[i] === " " || text[i] === "\t";

/**
 * A plain title: the text up to the first `. ` (or `.` at the end), `:` or ` — ` (also `–`, `-`),
 * with that separator and the blanks after it. Scanned by hand, each blank run once: a regex with a
 * lazy title before `[ \t]+[—–-]` is quadratic on a long run of spaces.
 */
function plainTitle(content: string): [string, string] | null {
  const skipBlanks = (i: number) => {
    let k = i;
    while (blankAt(content, k)) k++;
    return k;
  };
  for (let i = 0; i < content.length; i++) {
    const c = content[i];
    if (i > 0 && c === "." && (i + 1 === content.length || blankAt(content, i + 1))) return [content.slice(0, skipBlanks(i + 1)), content.slice(0, i)];
    if (i > 0 && c === ":") return [content.slice(0, skipBlanks(i + 1)), content.slice(0, i)];
    if (i > 0 && blankAt(content, i)) {
      const end = skipBlanks(i);
      const dash = content[end];
      if ((dash === "—" || dash === "–" || dash === "-") && blankAt(content, end + 1)) return [content.slice(0, skipBlanks(end + 1)), content.slice(0, i)];
      i = end - 1;
    }
  }
  return content === "" ? null : [content, content];
}

/** A numbered item at the margin (indented at most 3 columns, text after its marker): its number as written, where its marker sits, and the item. */
function numberedAt(line: Line): { label: string; indent: number; item: ListItem } | null {
  if (line.hidden) return null;
  const at = skip(line.text, { pos: 0, col: 0 }, 4);
  const item = at.col > 3 ? null : listItemAt(line.text, at);
  if (item?.ordered == null || item.end.pos >= line.text.length) return null;
  return { label: line.text.slice(at.pos, item.end.pos - 1), indent: at.col, item };
}

/** Stages opened by top-level numbered list items (`1. **Title** body…`) inside the section. */
function itemStages(model: LineModel, section: Section): StageSpan[] {
  const spans: StageSpan[] = [];
  // The column where the last item's content starts (a tab after its marker runs to the next
  // multiple of 4): a numbered line indented that far is nested in it, one indented less is the
  // next item (Markdown's rule), `1.` then ` 2.` alike.
  let column = 0;
  for (let i = section.from; i < section.to; i++) {
    const line = model.lines[i];
    if (!line) break;
    const m = numberedAt(line);
    const last = spans[spans.length - 1];
    if (!m || (last !== undefined && m.indent >= column)) {
      // A paragraph back at the margin after a blank line ends the list (Markdown's rule).
      const after = model.lines[i - 1]?.text.trim() === "" && /^\S/.test(line.text);
      if (last && last.to === section.to && after && !line.hidden) last.to = i;
      continue;
    }
    if (last && last.to === section.to) last.to = i;
    // After a paragraph that ended the list, the item numbered next resumes it (`3.` after `2.`,
    // with `Then:` between); any other number starts a list that is not the stages.
    if (last && last.to !== i && Number(m.label) !== Number(last.label) + 1) break;
    column = m.item.content.col;
    const content = line.text.slice(m.item.text);
    const t = BOLD_TITLE.exec(content) ?? plainTitle(content);
    const rest = t ? content.slice(t[0].length) : "";
    const span: StageSpan = {
      label: m.label,
      title: (t?.[1] ?? content).trim() === "" ? m.label : (t?.[1] ?? content),
      optional: /\(optional\)/i.test(t?.[1] ?? ""),
      index: i,
      from: i + 1,
      to: section.to,
    };
    if (rest.trim() !== "") {
      span.from = i;
      span.startAt = line.start + m.item.text + (t ? t[0].length : 0);
    }
    spans.push(span);
  }
  return spans;
}

/** The stages of a recommendation section: its stage headings, else its numbered items. */
export function stageSpans(model: LineModel, section: Section): StageSpan[] {
  const byHeading = headingStages(model, section);
  return byHeading.length > 0 ? byHeading : itemStages(model, section);
}
