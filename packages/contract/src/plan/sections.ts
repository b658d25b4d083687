import type { ItemLeads } from "./item-leads.js";
import { type Heading, headingFrom, type Line, type LineModel, verbatim } from "./lines.js";
import { type ItemLine, itemLine } from "./list-item.js";
import { skip } from "./scan.js";

/** A section: its heading and the line range [from, to) of its body. */
/**
 * A section: its heading and the line range [from, to) of its body; `firstAt`, for a section a bold
 * label opens on the line of its text (`**Out of scope:** billing.`), the offset where that text starts.
 */
export type Section = { heading: Heading; from: number; to: number; firstAt?: number };

/** The three sections a plan is read for. */
export type SectionKind = "recommendation" | "prohibitions" | "falsifiers";

// `6.`, `6)`, `6:`, `§6`, `6 Title`; not `6.1` (a sub-section) or `60`.
const numbered = (n: number) => new RegExp(`^(?:§\\s*)?${n}(?:[.):](?!\\d)|\\s|$)`);

const BY_NAME: Record<SectionKind, RegExp> = {
  recommendation: /recommendation|migration sequence|\bstages\b|rollout/i,
  prohibitions:
    /what (?:\(?deliberately\)? )?not to do|prohibitions|guardrails|\bdo not\b|^don['’]t\b|\bdon['’]ts\b|\bnon[- ]?goals\b|\bout[- ]of[- ]scope\b|^(?:never|must not|mustn['’]t|(?:things to )?avoid)\s*(?:\([^)]{0,40}\))?\s*:?$/i,
  falsifiers: /what would change (?:the answer|my mind|our mind|this recommendation|the recommendation)|falsifiers|kill criteria/i,
};
/** A paragraph that is one bold phrase, `**Phase 2: Backfill**`, `__What not to do:__`: a heading in all but syntax. */
export const BOLD_LINE = /^ {0,3}(\*\*|__)(\S.*?)\1\s*(?::\s*)?$/;

// A bold phrase that names a section and nothing else: `What not to do`, `Explicitly out of scope`,
// `Non-goals for v1`, `Don't`, `Never`, `Avoid`, `Falsifiers`, a parenthesis after it (`Out of scope (v1)`) and a
// colon. A bold sentence (`Do not deploy on Fridays.`) is no label.
const LABEL_TAIL = String.raw`(?:\s+for\s+[\p{L}\d.]+(?:\s+[\p{L}\d.]+){0,2})?(?:\s*\([^)]{0,40}\))?\s*:?$`;
const BOLD_SECTION: Record<"prohibitions" | "falsifiers", RegExp> = {
  prohibitions: new RegExp(
    String.raw`^(?:(?:explicitly|deliberately)\s+)?(?:what (?:\(?deliberately\)? )?not to do\b[^:()]*|prohibitions|guardrails|do not|don['’]?ts?|non[- ]?goals|out[- ]of[- ]scope|never|must not|mustn['’]t|(?:things to )?avoid)${LABEL_TAIL}`,
    "iu",
  ),
  falsifiers: new RegExp(
    String.raw`^(?:what would change (?:the answer|my mind|our mind|this recommendation|the recommendation)\b[^:()]*|falsifiers|kill criteria)${LABEL_TAIL}`,
    "iu",
  ),
};

/** The section a line names as a bold label alone on it (`**What not to do**`, `__Non-goals:__`); null for any other line. */
export function boldSectionLabel(text: string): "prohibitions" | "falsifiers" | null {
  const name = BOLD_LINE.exec(text)?.[2]?.trim();
  if (name === undefined) return null;
  if (BOLD_SECTION.prohibitions.test(name)) return "prohibitions";
  return BOLD_SECTION.falsifiers.test(name) ? "falsifiers" : null;
}

// A bold label at a line's start with a colon and its text after it: `**Out of scope:** billing.`,
// `__Non-goals__: SSO.` Groups: the label, the colon after it, then the text. (`**Do not** deploy` is a
// sentence: without a colon no label.)
const INLINE_LABEL = /^ {0,3}(\*\*|__)([^\n]{1,80}?)\1([ \t]*:)?[ \t]*(?=\S)/;

/** A section label that opens a line and goes on with its text: the kind, and where the text starts in the line; null otherwise. */
export function inlineSectionLabel(text: string): { kind: "prohibitions" | "falsifiers"; at: number } | null {
  const m = INLINE_LABEL.exec(text);
  const inner = m?.[2]?.trim();
  if (!m || inner === undefined || (m[3] === undefined && !inner.endsWith(":"))) return null;
  const name = inner.replace(/:$/, "");
  const kind = BOLD_SECTION.prohibitions.test(name) ? "prohibitions" : BOLD_SECTION.falsifiers.test(name) ? "falsifiers" : null;
  // `**Do not:** skip the dry run.`: the label is the item's first words; without it the item says the opposite.
  const negating = /^(?:do not|don['’]?t|never|must not|mustn['’]t|avoid)$/i.test(name);
  return kind === null ? null : { kind, at: negating ? m[0].length - m[0].trimStart().length : m[0].length };
}

/** Whether a heading's text names one of the plan's sections (recommendation, prohibitions, falsifiers). */
export const namesSection = (text: string): boolean => Object.values(BY_NAME).some((re) => re.test(text));

/** Whether a heading's text names a prohibitions or a falsifiers section (`Do not`, `Non-goals`, `Falsifiers`). */
export const namesGuardSection = (text: string): boolean => BY_NAME.prohibitions.test(text) || BY_NAME.falsifiers.test(text);

const BY_NUMBER: Record<SectionKind, RegExp> = {
  recommendation: numbered(6),
  prohibitions: numbered(5),
  falsifiers: numbered(7),
};

const KEYWORD = "[Ss]tage|STAGE|[Pp]hase|PHASE|[Ss]tep|STEP|[Mm]ilestone|MILESTONE";

/**
 * A heading that opens a stage: `Stage 2: t`, `Stage 2 — t`, `Stage 2 (optional): t`, `S2: t`,
 * `Phase 2`, `Phase 2 Title`, `Step B`, `Phase II`, `Step 2.1`, `Milestone 3`. Test it on
 * `stageText(heading)`, which drops wrapping emphasis. Groups: label, `(optional)`, then the title
 * in one of groups 3 to 5. A stage number runs to at most 200 digits and dots, so that its repeated
 * group never backtracks through a deep stack; a longer one is no stage and is refused as a
 * stage-looking heading, with its line.
 */
export const STAGE_HEADING = new RegExp(
  String.raw`^((?:${KEYWORD})\s+(?:(?=[\d.]{0,200}(?![\d.]))\d+(?:\.\d+)*[a-z]?|[IVX]{1,5}|[A-Z])(?![\p{L}\d])|[Ss]\d+(?![\p{L}\d]))` +
    String.raw`(?:\s*(\([Oo]ptional\)))?(?:\s*$|\s*[:.]\s*(.*)$|\s+[—–-]\s*(.*)$|\s+(.*)$)`,
  // `s`: a line's text may hold U+2028 or U+2029, which `.` would not match (lines are split at \n).
  "us",
);

const NUMBER_WORDS = "one two three four five six seven eight nine ten eleven twelve first second third fourth fifth sixth seventh eighth ninth tenth".split(
  " ",
);
// Each in lower case, capitalised and in capitals, as KEYWORD is: `Stage Two`, `step two`, `PHASE TWO`.
const NUMBER_WORD = NUMBER_WORDS.flatMap((w) => [w, `${w[0]?.toUpperCase()}${w.slice(1)}`, w.toUpperCase()]).join("|");

/**
 * A heading that looks like a stage, read as one or not: a stage word, then a number (`Stage 2`,
 * `Stage-2`, `Step #2`), a number in words (`Stage Two`), a capital letter or emphasis.
 */
export const STAGE_LIKE = new RegExp(
  String.raw`^(?:[*_]+\s*)?(?:${KEYWORD})(?:\s*(?:[-#]\s*)?\d|\s+[IVX]+(?!\p{L})|\s+[A-Z](?:[\s:.)—–*_-]|$)|\s+(?:${NUMBER_WORD})(?![\p{L}\d])|\s*[*_])`,
  "u",
);

// Digits and dots with no `..` (`6.1`, `6.1.`), by character classes: never a repeated group, whose backtracking stack grows with the number.
const OUTLINE_NUMBER = new RegExp(String.raw`^(?:§\s*)?(?=\d)(?![\d.]*\.\.)[\d.]+\s+(?=[*_]*(?:${KEYWORD})\b)`, "u");

/** A heading's text without a section number or the emphasis that opens it: `6.1 Stage 1: A`, `**Stage 1: A**`, `**Stage 1:** A`, `_Phase B_`. */
export function stageText(text: string): string {
  // A section number before the stage word is the report's outline, not the label: `6.2 Stage 2: t`.
  const bare = text.replace(OUTLINE_NUMBER, "");
  const m = /^([*_]{1,3})(\S.*?)\1(?![*_])(.*)$/su.exec(bare);
  return m ? `${m[2] ?? ""}${m[3] ?? ""}`.trim() : bare;
}

/** A stage heading's label, `(optional)` mark and title; null when the heading opens no stage. */
export function stageMatch(text: string): { label: string; optional: boolean; title: string } | null {
  const m = STAGE_HEADING.exec(stageText(text));
  if (!m?.[1]) return null;
  // `S3 bucket policy` is no stage: an `S` label needs `:`, `.` or a dash before its title.
  if (m[5] !== undefined && /^[Ss]\d/.test(m[1])) return null;
  return { label: m[1], optional: m[2] !== undefined, title: m[3] ?? m[4] ?? m[5] ?? "" };
}

/** Whether a heading opens a stage. */
export const isStageHeading = (h: Heading): boolean => stageMatch(h.text) !== null;

/**
 * The section a heading opens: up to the next heading of the same or a higher level. A
 * recommendation also runs on over sibling stage headings (`## Stages` then `## S1: …`); any other
 * section ends at a stage heading of any level too (stages are never guardrails).
 */
export function sectionAt(model: LineModel, heading: Heading, overStages = false): Section {
  const ends = (h: Heading) => (overStages ? h.level <= heading.level && !isStageHeading(h) : h.level <= heading.level || isStageHeading(h));
  // From the heading on, not from the first: only the headings inside the section are looked at.
  let k = headingFrom(model, heading.index + 1);
  while (k < model.headings.length && !ends(model.headings[k] as Heading)) k++;
  return { heading, from: heading.body, to: model.headings[k]?.index ?? model.lines.length };
}

/**
 * The headings that may open a plan's section of one kind, best first: those naming only this kind,
 * then those naming others too, then those numbered for it (§5, §6, §7); a level-1 heading (usually
 * the document's title) after the others of its group.
 */
export function sectionHeadings(model: LineModel, kind: SectionKind): Heading[] {
  const candidates = model.headings.filter((h) => !isStageHeading(h)).sort((a, b) => Number(a.level === 1) - Number(b.level === 1) || a.index - b.index);
  const named = candidates.filter((h) => BY_NAME[kind].test(h.text));
  // "What not to do during rollout" names prohibitions first: a heading that names only this kind wins.
  const others = (Object.keys(BY_NAME) as SectionKind[]).filter((k) => k !== kind);
  const only = named.filter((h) => !others.some((k) => BY_NAME[k].test(h.text)));
  const first = new Set(only);
  const shared = named.filter((h) => !first.has(h));
  const numbered = named.length > 0 ? [] : candidates.filter((h) => BY_NUMBER[kind].test(h.text));
  return [...only, ...shared, ...numbered];
}

/** The heading of a plan's section of one kind: the best of `sectionHeadings`. */
function sectionHeading(model: LineModel, kind: SectionKind): Heading | null {
  return sectionHeadings(model, kind)[0] ?? null;
}

/**
 * Every section of a kind, in the plan's order: each heading naming it (unless another kind
 * claimed that heading, or it lies inside one already taken), else the one found by number.
 */
export function findSections(model: LineModel, kind: "prohibitions" | "falsifiers"): Section[] {
  const first = sectionHeading(model, kind);
  if (!first) return [];
  const claimed = (["recommendation", "prohibitions", "falsifiers"] as SectionKind[]).filter((k) => k !== kind).map((k) => sectionHeading(model, k));
  const named = model.headings.filter((h) => !isStageHeading(h) && BY_NAME[kind].test(h.text) && !claimed.includes(h));
  const heads = named.includes(first) ? named : [first, ...named].sort((a, b) => a.index - b.index);
  const out: Section[] = [];
  for (const h of heads) {
    // Sections taken are in order and apart (each starts past the one before): only the last may hold `h`.
    const last = out[out.length - 1];
    if (last && h.index >= last.from && h.index < last.to) continue;
    out.push(sectionAt(model, h));
  }
  return out;
}

/** The list item a line opens at the margin (no quote, its marker indented at most 3 columns); null when none. */
function marginItem(text: string): ItemLine | null {
  const item = itemLine(text);
  return item && item.quotes === 0 && item.indent <= 3 ? item : null;
}

/** The columns of a line's leading spaces and tabs (a tab to the next multiple of 4). */
function indentCols(text: string): number {
  return skip(text, { pos: 0, col: 0 }).col;
}

/** Whether a line is indented to `content` columns: part of the list item whose text starts there. */
const within = (line: Line | undefined, content: number): boolean =>
  line !== undefined && line.text.trim() !== "" && !line.heading && !line.rule && indentCols(line.text) >= content;

/** Whether a line is code (fenced or indented): hidden, and no comment. */
const code = (line: Line | undefined): boolean => !!line?.hidden && !line.comment;

/**
 * The items of a section verbatim: each bullet or numbered item (with its continuation lines,
 * marker removed) and each paragraph that is not a list. As CommonMark reads a list item, what is
 * indented to its text (a nested list, a paragraph after a blank line, code) belongs to it: `- Do
 * not X` over `  - until Y` is one item. A code block belongs to the item before it even at the
 * margin (`- Never run this against prod:` over a fenced command): apart, a guardrail reading as a
 * bare command would invite running it. Code with no item before it is an item of its own, fences
 * kept. Nothing with content is dropped but the lines in `stageRead`, which a stage read as its own.
 * With `leads`, each item goes under the negating words it is read under (`#### Do not` over `-
 * deploy on Fridays` is `Do not` then `deploy on Fridays`), and a negating label leading a block is no item.
 */
export function sectionItems(model: LineModel, section: Section, stageRead: ReadonlySet<number> = new Set(), leads?: ItemLeads): string[] {
  const items: string[] = [];
  let open: { from: number; startAt: number; content: number } | null = null;
  const close = (to: number) => {
    if (open) {
      const text = verbatim(model, open.from, to, open.startAt);
      // A negating label alone on its line leads the block under it (`**Do not**` over a list): no item of its own.
      const lead = leads?.labels.has(open.from) ? undefined : leads?.at(open.from, text);
      if (text.trim() !== "" && text.trim() !== leads?.labels.get(open.from)) items.push(lead === undefined ? text : `${lead}\n${text}`);
    }
    open = null;
  };
  // The end of the run of blank lines around the current line: each run is scanned once, whatever
  // the lines in it are (blank lines hidden in a fence never close the item, and come one by one).
  let blanks = -1;
  for (let i = section.from; i < section.to; i++) {
    const line = model.lines[i];
    if (!line) break;
    // A line a stage read is the stage's (an `Acceptance:` line under a stage's own `#### Out of scope`).
    if (stageRead.has(i)) {
      close(i);
      continue;
    }
    const blank = line.text.trim() === "";
    // A line indented to the open item's text is part of it; so are blank lines when such a line follows them.
    if (open && !blank && within(line, open.content)) continue;
    if (open && blank) {
      if (i >= blanks) {
        blanks = i;
        while (blanks < section.to && model.lines[blanks]?.text.trim() === "") blanks++;
      }
      // Code after blank lines belongs to the item before it: what `Never run this:` introduces.
      const next = model.lines[blanks];
      if (within(next, open.content) || code(next)) {
        i = blanks - 1;
        continue;
      }
    }
    if (line.heading || line.rule || line.comment) {
      // A sub-heading is a title, a thematic break a separator, a comment no text: none is an item.
      close(i);
      continue;
    }
    const item = line.hidden ? null : marginItem(line.text);
    if (item) {
      close(i);
      open = { from: i, startAt: line.start + item.start, content: item.content };
    } else if (blank && !line.hidden) {
      close(i);
    } else if (!open) {
      // A paragraph item, or code with no item before it (kept whole, its indentation too): lines
      // indented under it do not nest in it.
      const own = i === section.from ? section.firstAt : undefined;
      const startAt = own ?? line.start + (line.hidden ? 0 : line.text.length - line.text.trimStart().length);
      open = { from: i, startAt, content: Number.POSITIVE_INFINITY };
    }
  }
  close(section.to);
  return items;
}
