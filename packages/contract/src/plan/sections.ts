import { type Heading, type LineModel, verbatim } from "./lines.js";

/** A section: its heading and the line range [from, to) of its body. */
export type Section = { heading: Heading; from: number; to: number };

/** The three sections a plan is read for. */
export type SectionKind = "recommendation" | "prohibitions" | "falsifiers";

// `6.`, `6)`, `6:`, `§6`, `6 Title`; not `6.1` (a sub-section) or `60`.
const numbered = (n: number) => new RegExp(`^(?:§\\s*)?${n}(?:[.):](?!\\d)|\\s|$)`);

const BY_NAME: Record<SectionKind, RegExp> = {
  recommendation: /recommendation|migration sequence|\bstages\b|rollout/i,
  prohibitions: /what (?:\(?deliberately\)? )?not to do|prohibitions|guardrails|\bdo not\b/i,
  falsifiers: /what would change the answer|falsifiers/i,
};
const BY_NUMBER: Record<SectionKind, RegExp> = {
  recommendation: numbered(6),
  prohibitions: numbered(5),
  falsifiers: numbered(7),
};

/** A heading that opens a stage: `Stage 2: t`, `Stage 2 — t`, `Stage 2 (optional): t`, `S2: t`, `Phase 2`, `Step 2`. */
export const STAGE_HEADING =
  /^((?:Stage|Phase|Step)\s+\d+|S\d+)\b\s*(\(optional\))?\s*(?:(?:[:.]|\s[—–-])\s*(.*))?$/i;

/** The section a heading opens: up to the next heading of the same or a higher level. */
export function sectionAt(model: LineModel, heading: Heading): Section {
  const next = model.headings.find(
    (h) => h.index > heading.index && h.level <= heading.level && !STAGE_HEADING.test(h.text),
  );
  return { heading, from: heading.index + 1, to: next ? next.index : model.lines.length };
}

/** Find a section by name first, then by its number (§5, §6, §7); null when the plan has none. */
export function findSection(model: LineModel, kind: SectionKind): Section | null {
  // A level-1 heading is usually the document's title: consider it last.
  const candidates = model.headings
    .filter((h) => !STAGE_HEADING.test(h.text))
    .sort((a, b) => Number(a.level === 1) - Number(b.level === 1) || a.index - b.index);
  const named = candidates.filter((h) => BY_NAME[kind].test(h.text));
  // "What not to do during rollout" names prohibitions first: a heading that names only this kind wins.
  const others = (Object.keys(BY_NAME) as SectionKind[]).filter((k) => k !== kind);
  const hit =
    named.find((h) => !others.some((k) => BY_NAME[k].test(h.text))) ??
    named[0] ??
    candidates.find((h) => BY_NUMBER[kind].test(h.text));
  return hit ? sectionAt(model, hit) : null;
}

const ITEM = /^( {0,3})(?:[-*+]|\d+[.)])[ \t]+/;

/**
 * The items of a section verbatim: each bullet or numbered item (with its continuation lines,
 * marker removed) and each paragraph that is not a list. Nothing with content is dropped.
 */
export function sectionItems(model: LineModel, section: Section): string[] {
  const items: string[] = [];
  let open: { from: number; startAt: number } | null = null;
  const close = (to: number) => {
    if (open) {
      const text = verbatim(model, open.from, to, open.startAt);
      if (text.trim() !== "") items.push(text);
    }
    open = null;
  };
  const headings = new Set(model.headings.map((h) => h.index));
  for (let i = section.from; i < section.to; i++) {
    const line = model.lines[i];
    if (!line) break;
    if (headings.has(i)) {
      // A sub-heading is a title, not an item: it ends the item before it.
      close(i);
      continue;
    }
    const marker = line.inFence ? null : ITEM.exec(line.text);
    if (marker) {
      close(i);
      open = { from: i, startAt: line.start + marker[0].length };
    } else if (line.text.trim() === "" && !line.inFence) {
      close(i);
    } else if (!open) {
      open = { from: i, startAt: line.start + (line.text.length - line.text.trimStart().length) };
    }
  }
  close(section.to);
  return items;
}
