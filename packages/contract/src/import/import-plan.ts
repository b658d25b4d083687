import { err, ok, type Result } from "neverthrow";
import type { ContractFault } from "../fault.js";
import { afterContainers, atxHeading, type Heading, type LineModel, lineModel, uncommented, verbatim } from "../plan/lines.js";
import { stageText } from "../plan/sections.js";
import { hiddenLine, LABEL } from "../plan/unread.js";
import { convertBody, convertsIn, isStep, type NotConverted } from "./steps.js";

/** The plan formats `importPlan` reads. */
export type ImportFormat = "task-plan" | "spec-kit" | "openspec";

/** How each format is named in messages. */
export const FORMAT_NAME: Record<ImportFormat, string> = {
  "task-plan": "a task plan",
  "spec-kit": "a spec-kit tasks.md",
  openspec: "an OpenSpec tasks.md",
};

/** A plan converted to the staged format: its text, how many stages it has, and what was not converted. */
export type Imported = { format: ImportFormat; text: string; stages: number; notConverted: NotConverted[] };

type Group = { heading: Heading; number: string; title: string; to: number };

const TASK = /^Task\s+(\d+)\s*(?:[:.—–-]\s*(.*))?$/i;
const PHASE = /^Phase\s+(\d+)\s*(?:[:.—–-]\s*(.*))?$/i;
const NUMBERED = /^(\d+)\.\s+(.+)$/;
const SPEC_KIT_TASK = /^\s*[-*] \[[ xX]\] T\d{3}\b/m;
const OPENSPEC_TASK = /^\s*[-*] \[[ xX]\] \d+\.\d+\s/m;

/** The format of a plan and the heading pattern of its groups; null when it is none of the three. */
function detect(model: LineModel): { format: ImportFormat; pattern: RegExp } | null {
  const has = (re: RegExp) => model.headings.some((h) => re.test(stageText(h.text)));
  if (has(TASK)) return { format: "task-plan", pattern: TASK };
  if (has(PHASE) && SPEC_KIT_TASK.test(model.source)) return { format: "spec-kit", pattern: PHASE };
  if (has(NUMBERED) && OPENSPEC_TASK.test(model.source)) return { format: "openspec", pattern: NUMBERED };
  return null;
}

/** The groups (tasks, phases) at the level of the first one, and the other sections among them. */
function groupsOf(model: LineModel, pattern: RegExp): { groups: Group[]; others: Heading[] } {
  const first = model.headings.find((h) => pattern.test(stageText(h.text)));
  const level = first?.level ?? 1;
  const groups: Group[] = [];
  const others: Heading[] = [];
  const after = model.headings.filter((h) => first && h.index >= first.index && h.level <= level);
  for (const [k, h] of after.entries()) {
    const to = after[k + 1]?.index ?? model.lines.length;
    const m = pattern.exec(stageText(h.text));
    if (m?.[1]) groups.push({ heading: h, number: m[1], title: (m[2] ?? "").trim(), to });
    else others.push(h);
  }
  return { groups, others };
}

const EXIT_LINE = /^\s*(?:[-*+]\s+)?(?:\*\*)?Exit(?:\s+criteri(?:on|a))?(?:\*\*)?\s*:/im;

/** What a group of each format is called in messages. */
const GROUP_WORD: Record<ImportFormat, string> = { "task-plan": "Task", "spec-kit": "Phase", openspec: "Group" };

/** The second of two groups with one number (each becomes a stage, which needs its own label); null when there is none. */
function duplicateGroup(groups: Group[], format: ImportFormat): ContractFault | null {
  const first = new Map<string, number>();
  for (const g of groups) {
    const seen = first.get(g.number);
    const label = `${GROUP_WORD[format]} ${g.number}`;
    if (seen !== undefined) return { code: "import-duplicate", line: g.heading.index + 1, first: seen, label };
    first.set(g.number, g.heading.index + 1);
  }
  return null;
}

/**
 * A fence or an HTML comment never closed runs to the end of the plan: it hides the steps and tasks
 * after it, and would hide every line the import writes after it. A fault naming its line and the
 * first line it hides (a heading or a step, else any text); null when every block closes.
 */
function unclosed(model: LineModel): ContractFault | null {
  const open = model.open;
  if (open === null) return null;
  const at = hiddenLine(model, open, (t) => atxHeading(t) !== null || isStep(t)) ?? hiddenLine(model, open, (t) => t.trim() !== "");
  const hides = at === null ? {} : { hides: { line: at + 1, text: model.lines[at]?.text.trim() ?? "" } };
  return { code: "import-unclosed", line: open.line + 1, kind: open.kind, text: model.lines[open.line]?.text.trim() ?? "", ...hides };
}

type Found = { format: ImportFormat; pattern: RegExp };

/** Whether a heading names a group of the plan's format (an OpenSpec group only at the groups' level). */
function groupTest(found: Found, level: number): (h: { level: number; text: string } | null) => boolean {
  return (h) => h !== null && found.pattern.test(stageText(h.text)) && (found.format !== "openspec" || h.level === level);
}

/**
 * What looks like a group heading or a step but that CommonMark reads as none, so that the import
 * makes no stage of it and converts nothing in it: a group heading in code (fenced or indented), in
 * an HTML comment, or inside a list item or a block quote, and a `Run:` or `Checkpoint:` step in an
 * HTML comment (a step in code is an example, as a workflow's `run:` is). Each is listed with its line; none is skipped in silence.
 * An OpenSpec group heading (`## 1. Setup`) is taken only at the groups' level: `# 1. install` in a shell block is a comment.
 */
function unreadGroups(model: LineModel, found: Found, level: number): NotConverted[] {
  const word = GROUP_WORD[found.format].toLowerCase();
  const isGroup = groupTest(found, level);
  const out: NotConverted[] = [];
  for (const line of model.lines) {
    if (!line.hidden) continue;
    const text = uncommented(line.text);
    const where = line.comment ? "an HTML comment" : "a code block";
    if (isGroup(atxHeading(text))) {
      const reason = `a ${word} heading inside ${where}, which Markdown never reads as a heading: no stage is made of it, and its steps are not converted`;
      out.push({ line: line.no, text: line.text.trim(), reason });
    } else if (line.comment && convertsIn(text)) {
      out.push({ line: line.no, text: line.text.trim(), reason: "a step inside an HTML comment is not converted" });
    }
  }
  for (const h of model.nested) {
    if (!isGroup(h)) continue;
    const reason = `a ${word} heading inside a list item or a block quote is no heading of its own: no stage is made of it, its lines stay in the ${word} above it as text, and the steps after it are not converted`;
    out.push({ line: h.index + 1, text: model.lines[h.index]?.text.trim() ?? h.text, reason });
  }
  return out;
}

/**
 * The steps of a group from the first group heading nested in it (`- ### Task 3`) on: the author
 * meant them for that task, which is no stage, so none becomes this stage's acceptance or exit.
 * Each is listed with the nested heading's line; `cut` is where converting stops.
 */
function stepsUnderNested(model: LineModel, g: Group, isGroup: (h: Heading) => boolean): { cut: number; listed: NotConverted[] } {
  const nested = model.nested.find((h) => h.index > g.heading.index && h.index < g.to && isGroup(h));
  if (nested === undefined) return { cut: g.to, listed: [] };
  const reason = `a step under \`${model.lines[nested.index]?.text.trim() ?? nested.text}\` (line ${nested.index + 1}), a heading Markdown reads as none: not converted, never made the acceptance of the stage above it`;
  const listed = model.lines
    .slice(nested.index + 1, g.to)
    .flatMap((l) => (!l.hidden && convertsIn(l.text) ? [{ line: l.no, text: l.text.trim(), reason }] : []));
  return { cut: nested.index, listed };
}

/**
 * A group's body, verbatim, a comment at its end trimmed as the reader trims it; kept when the
 * trimming would leave a block open (a fence in a list item that the comment's line closed would
 * run on into the lines the import writes after it).
 */
function stageBody(model: LineModel, from: number, to: number): string {
  const trimmed = verbatim(model, from, to);
  if (lineModel(trimmed).open === null) return trimmed;
  let last = to - 1;
  while (last >= from && model.lines[last]?.text.trim() === "") last--;
  const first = model.lines[from];
  const end = model.lines[last];
  return first && end && last >= from ? model.source.slice(first.start, end.start + end.text.length) : trimmed;
}

/** One group as a stage: heading, verbatim body, then the Exit: and Acceptance: lines made for it. */
function stageBlock(model: LineModel, g: Group, format: ImportFormat, isGroup: (h: Heading) => boolean, out: NotConverted[]): string {
  const label = format === "spec-kit" ? `Phase ${g.number}` : `Stage ${g.number}`;
  const heading = `${"#".repeat(g.heading.level)} ${label}${g.title ? `: ${g.title}` : ""}`;
  let from = g.heading.body;
  while (from < g.to && model.lines[from]?.text.trim() === "") from++;
  const body = stageBody(model, from, g.to);
  const under = stepsUnderNested(model, g, isGroup);
  const converted = convertBody(model, g.heading.body, under.cut);
  out.push(...converted.notConverted, ...under.listed);
  const made: string[] = [];
  if (converted.exit !== null && !EXIT_LINE.test(body)) made.push(`Exit: ${converted.exit}`);
  made.push(...converted.acceptance);
  return [heading, body, ...made].filter((b) => b !== "").join("\n\n");
}

/**
 * The text before the first group, verbatim, with `<!-- decay: prose -->` before each paragraph that
 * holds an Acceptance/Exit label: it is the plan's header, never a stage's acceptance.
 */
function preamble(model: LineModel, to: number): string {
  const text = verbatim(model, 0, to);
  const out: string[] = [];
  const lines = text === "" ? [] : text.split("\n");
  for (const [i, line] of lines.entries()) {
    const starts = i === 0 || lines[i - 1]?.trim() === "";
    if (starts && line.trim() !== "" && !model.lines[i]?.hidden && paragraphHasLabel(lines, i)) out.push("<!-- decay: prose -->");
    out.push(line);
  }
  return out.join("\n");
}

function paragraphHasLabel(lines: string[], from: number): boolean {
  for (let k = from; k < lines.length && lines[k]?.trim() !== ""; k++) if (afterContainers(LABEL, lines[k] ?? "")) return true;
  return false;
}

/** The `Run:` and `Checkpoint:` steps before the first group: in no task or phase, so in no stage; each is listed. */
function preambleSteps(model: LineModel, to: number): NotConverted[] {
  const reason = "a step before the first task or phase belongs to no stage: kept as prose";
  return model.lines.slice(0, to).flatMap((l) => (!l.hidden && convertsIn(l.text) ? [{ line: l.no, text: l.text.trim(), reason }] : []));
}

function notConvertedBlock(level: number, items: NotConverted[]): string {
  const lines = items.map((n) => `- line ${n.line}: ${n.text} (${n.reason})`);
  return ["<!-- decay: prose -->", `${"#".repeat(level)} Not converted`, "", ...lines].join("\n");
}

/**
 * Convert a task plan (`### Task N` with `Run:`/`Expected:` steps), a spec-kit `tasks.md` (`## Phase
 * N`, `T001` checkboxes, `Checkpoint:`) or an OpenSpec `tasks.md` (`## 1. Group`, `- [ ] 1.1 task`)
 * into a plan in the staged format: one stage per task or phase, its body verbatim, each
 * `Run:` + `Expected:` pair an `Acceptance:` line, a checkpoint its `Exit:`; what could not be
 * converted is listed in a `## Not converted` section and returned. A fence or an HTML comment
 * never closed is a fault (`import-unclosed`): what it swallowed would vanish in silence.
 */
export function importPlan(markdown: string): Result<Imported, ContractFault> {
  const model = lineModel(markdown);
  const open = unclosed(model);
  if (open) return err(open);
  const found = detect(model);
  if (!found) return err({ code: "import-unrecognised", line: (model.headings[0]?.index ?? 0) + 1 });
  const { groups, others } = groupsOf(model, found.pattern);
  const duplicate = duplicateGroup(groups, found.format);
  if (duplicate) return err(duplicate);
  const level = groups[0]?.heading.level ?? 2;
  const outer = Math.max(1, level - 1);
  const top = groups[0]?.heading.index ?? 0;
  const notConverted = [...preambleSteps(model, top), ...unreadGroups(model, found, level)];
  const blocks = [preamble(model, top), `${"#".repeat(outer)} Stages`];
  const isGroup = groupTest(found, level);
  for (const g of groups) blocks.push(stageBlock(model, g, found.format, isGroup, notConverted));
  for (const h of others) {
    const next = model.headings.find((x) => x.index > h.index && x.level <= level);
    blocks.push(`<!-- decay: prose -->\n${verbatim(model, h.index, next ? next.index : model.lines.length)}`);
    notConverted.push({ line: h.index + 1, text: h.text, reason: "a section that is no task or phase: kept as prose" });
  }
  notConverted.sort((a, b) => a.line - b.line);
  if (notConverted.length > 0) blocks.push(notConvertedBlock(Math.max(2, outer), notConverted));
  const text = `${blocks.filter((b) => b !== "").join("\n\n")}\n`;
  return ok({ format: found.format, text, stages: groups.length, notConverted });
}
