import { nulLine } from "@decay/portable";
import { err, ok, type Result } from "neverthrow";
import { withoutBom } from "../decode.js";
import type { ContractFault } from "../fault.js";
import type { Plan, PlanStage } from "../model.js";
import { type LineModel, lineModel, verbatim } from "./lines.js";
import { type Around, planSections } from "./plan-sections.js";
import { isStageHeading, type Section, sectionAt, sectionHeadings } from "./sections.js";
import { readStageBody, splitRefs } from "./stage-body.js";
import { type StageSpan, stageSpans } from "./stages.js";
import { proseCoversRow, proseLines, type ReadSpan, unclosedBlock, unreadHeading, unreadStructure } from "./unread.js";

const TASK_HEADING = /^Task\s+\d+\b/i;

/**
 * The recommendation section, or a fault saying why there is none. Of several headings that may
 * open it (`## Rollout notes` above `## Stages`), the first that holds stages; else the first,
 * which is then refused as not staged.
 */
function recommendation(model: LineModel): Result<Section, ContractFault> {
  const sections = sectionHeadings(model, "recommendation").map((h) => sectionAt(model, h, true));
  const found = sections.find((s) => stageSpans(model, s).length > 0) ?? sections[0];
  if (found) return ok(found);
  const stageHeading = model.headings.find(isStageHeading);
  if (stageHeading) {
    // Stage headings with no section around them: the stages are the recommendation.
    return ok({ heading: stageHeading, from: stageHeading.index, to: model.lines.length });
  }
  const task = model.headings.find((h) => TASK_HEADING.test(h.text));
  if (task) return err({ code: "task-plan", line: task.index + 1, heading: task.text });
  // Name the first heading under the title that was looked at, else the title, else line 1.
  const seen = model.headings.find((h) => h.level > 1) ?? model.headings[0];
  return err(seen ? { code: "no-recommendation", line: seen.index + 1, heading: seen.text } : { code: "no-recommendation", line: 1 });
}

// NUL and the other C0 controls no text holds (tab, line feed, form feed, carriage return aside).
const CONTROL = /[\u0000-\u0008\u000b\u000e-\u001f]/g;

/**
 * A plan's (or a contract's) text holding NUL characters: UTF-16 read as UTF-8 when controls are
 * many (every other byte of ASCII text is NUL; Cyrillic or Greek puts 0x04 or 0x03 there), else a
 * stray NUL in a UTF-8 file. A fault naming the first one's line.
 */
export function encodingFault(markdown: string): ContractFault | null {
  const line = nulLine(markdown);
  if (line === null) return null;
  const head = markdown.slice(0, 4096);
  const controls = head.match(CONTROL)?.length ?? 0;
  return controls * 4 >= head.length ? { code: "encoding", line, encoding: "UTF-16 (it holds NUL bytes)" } : { code: "nul-character", line };
}

/** Two stages with the same label: a fault naming both lines. */
function duplicateLabel(stages: PlanStage[]): ContractFault | null {
  const seen = new Map<string, number>();
  for (const stage of stages) {
    const key = stage.label.toLowerCase().replace(/\s+/g, " ");
    const first = seen.get(key);
    if (first !== undefined) return { code: "duplicate-label", line: stage.line, first, label: stage.label };
    seen.set(key, stage.line);
  }
  return null;
}

/** The number part of a label or reference (`Phase 1.2` → `1.2`, `S3` → `3`, `2` → `2`); null when it has none. */
// A dotted number (`1.2.3`) is digits and dots with no `..`, read by character classes: a repeated
// group `\d+(?:\.\d+)*` would backtrack through a stack as deep as the number, and overflow it.
const NUMBER = /^(?:(?:stage|phase|step|milestone|item)\s+|s)?((?![\d.]*\.\.)\d(?:[\d.]*\d)?[a-z]?|[ivx]{1,5}|[a-z])$/i;

/**
 * The stages read so far, indexed for `Depends on:`: by label (any case and spacing; the first
 * with it), and by the number in their label (null when more than one has it).
 */
type Earlier = { stages: PlanStage[]; byLabel: Map<string, string>; byNumber: Map<string, string | null> };

const norm = (s: string) => s.toLowerCase().replace(/\s+/g, " ").trim();

/** Add a stage just read to the earlier ones. */
function remember(earlier: Earlier, stage: PlanStage): void {
  earlier.stages.push(stage);
  const label = norm(stage.label);
  if (!earlier.byLabel.has(label)) earlier.byLabel.set(label, stage.id);
  const n = NUMBER.exec(label)?.[1];
  if (n !== undefined) earlier.byNumber.set(n, earlier.byNumber.has(n) ? null : stage.id);
}

/**
 * Map a `Depends on:` reference to the id of an earlier stage: the first whose label (any case and
 * spacing) or id it is, else a stage word or none and a number equal to the whole number of exactly
 * one earlier label (`Stage 1` or `1` for `Phase 1`); `Phase 2` is not `Phase 1.2`. Null when none.
 * Looked up, never searched: a plan of many stages each naming the one before stays linear.
 */
function resolveRef(ref: string, earlier: Earlier): string | null {
  const id = ref.trim();
  const byLabel = earlier.byLabel.get(norm(ref));
  const byId = earlier.stages[Number(id.slice(1)) - 1]?.id === id ? id : undefined;
  // Ids are S1, S2, … in plan order: of a label and an id naming two stages, the first stage wins.
  const at = (s: string | undefined) => (s === undefined ? Number.POSITIVE_INFINITY : Number(s.slice(1)));
  const exact = at(byLabel) <= at(byId) ? byLabel : byId;
  if (exact !== undefined) return exact;
  const n = NUMBER.exec(norm(ref))?.[1];
  return n === undefined ? null : (earlier.byNumber.get(n) ?? null);
}

/**
 * The earlier stage a reference names, as `Depends on:` would read it, also with `'s …`, `only` or a
 * parenthesis after the label (`Stage 1's migration`, `Stage 1 only`, `Stage 1 (can run beside
 * Stage 2)`); none for anything else (`S3 bucket
 * access`, `step 1 of the runbook`).
 */
function namedStage(ref: string, earlier: Earlier): string[] {
  const bare = ref
    .replace(/\s*\(.*$/, "")
    .replace(/['’]s\b.*$/, "")
    .replace(/\s+only$/i, "");
  const id = resolveRef(ref, earlier) ?? resolveRef(bare, earlier);
  return id === null ? [] : [id];
}

/** Read one stage span into a plan stage, with the lines read from its body. */
function readStage(
  model: LineModel,
  span: StageSpan,
  earlier: Earlier,
  prose: Set<number>,
): Result<{ stage: PlanStage; read: number[]; rowLines: number[] }, ContractFault> {
  const id = `S${earlier.stages.length + 1}`;
  return readStageBody(model, span, prose, earlier.stages.length === 0).andThen((body) => {
    const previous = earlier.stages[earlier.stages.length - 1];
    for (const spelled of body.dependsOn ? [] : body.spelledDepends) {
      const named = [...new Set(splitRefs(spelled.value).flatMap((ref) => namedStage(ref, earlier)))];
      // Naming just the stage before says what no line says: nothing to refuse.
      if (named.length === 0 || (named.length === 1 && named[0] === previous?.id)) continue;
      const labels = named.map((id) => earlier.stages.find((st) => st.id === id)?.label ?? id);
      return err({
        code: "structure-unread",
        line: spelled.line,
        kind: "depends-spelled",
        text: spelled.text,
        write: `Depends on: ${labels.join(", ")}`,
      } as const);
    }
    let depends_on = previous ? [previous.id] : [];
    if (body.dependsOn) {
      depends_on = [];
      for (const ref of body.dependsOn.refs) {
        const target = resolveRef(ref, earlier);
        if (!target) return err({ code: "depends-unknown", line: body.dependsOn.line, ref } as const);
        if (!depends_on.includes(target)) depends_on.push(target);
      }
    }
    const stage: PlanStage = {
      id,
      label: span.label,
      title: span.title,
      instructions: verbatim(model, span.from, span.to, span.startAt),
      exit_criterion: body.exit,
      acceptance: body.rows.map((r, k) => ({ id: `${id}.${k + 1}`, run: r.run, expect: r.expect })),
      depends_on,
      optional: body.optional,
      line: span.index + 1,
    };
    return ok({ stage, read: body.read, rowLines: body.rows.map((r) => r.line) });
  });
}

/** Read a plan's staged recommendation, prohibitions and falsifiers, verbatim. Never throws. */
export function readPlan(markdown: string): Result<Plan, ContractFault> {
  return readPlanLines(markdown).map((read) => read.plan);
}

/** A plan as read, with the 1-based line each acceptance row was read from (by row id). */
export type PlanWithLines = { plan: Plan; rowLines: Map<string, number> };

/** `readPlan`, also giving the line of each acceptance row (for locating findings in the plan). Never throws. */
export function readPlanLines(markdown: string): Result<PlanWithLines, ContractFault> {
  return withoutBom(markdown).andThen(readText);
}

/** `readPlanLines` of a text whose BOM, if it had one, is dropped. */
function readText(markdown: string): Result<PlanWithLines, ContractFault> {
  const encoding = encodingFault(markdown);
  if (encoding) return err(encoding);
  const model = lineModel(markdown);
  const unclosed = unclosedBlock(model);
  if (unclosed) return err(unclosed);
  if (model.afterComment !== null) {
    const line = model.afterComment;
    return err({ code: "structure-unread", line: line + 1, kind: "after-comment", text: model.lines[line]?.text.trim() ?? "" });
  }
  // No stage read, a stage-looking heading not taken (a stage number too long, `###Stage 1`) is why: its line is named.
  const unstaged = (fault: ContractFault) => err(unreadHeading(model, [], proseLines(model)) ?? fault);
  const found = recommendation(model);
  if (found.isErr()) return found.error.code === "no-recommendation" ? unstaged(found.error) : err(found.error);
  return found.andThen((section) => {
    const spans = stageSpans(model, section);
    if (spans.length === 0) return unstaged({ code: "recommendation-not-staged", line: section.heading.index + 1, heading: section.heading.text });
    const earlier: Earlier = { stages: [], byLabel: new Map(), byNumber: new Map() };
    const stages = earlier.stages;
    const read: ReadSpan[] = [];
    const rowLines = new Map<string, number>();
    const byHeading = model.headings.some((h) => h.index === spans[0]?.index);
    const prose = proseLines(model);
    for (const span of spans) {
      const stage = readStage(model, span, earlier, prose);
      if (stage.isErr()) return err(stage.error);
      remember(earlier, stage.value.stage);
      read.push({ span, read: stage.value.read, heading: byHeading });
      stage.value.stage.acceptance.forEach((row, k) => rowLines.set(row.id, stage.value.rowLines[k] ?? stage.value.stage.line));
    }
    const fault = duplicateLabel(stages) ?? proseCoversRow(model, read) ?? unreadStructure(model, read);
    if (fault) return err(fault);
    const around: Around = { spans: read, stageRead: new Set(read.flatMap((r) => r.read)) };
    const { prohibitions, falsifiers } = planSections(model, around);
    return ok({ plan: { stages, prohibitions, falsifiers }, rowLines });
  });
}

/**
 * The prohibition items of a plan text (every prohibitions section, in order), verbatim, as
 * `readPlan` gives them; [] when it has none. A plan that does not read gives the items of its
 * sections with no line left to a stage.
 */
export function planProhibitions(markdown: string): string[] {
  const plan = readPlan(markdown);
  return plan.isOk() ? plan.value.prohibitions : planSections(lineModel(markdown), { spans: [], stageRead: new Set() }).prohibitions;
}
