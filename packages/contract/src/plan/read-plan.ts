import { err, ok, type Result } from "neverthrow";
import type { ContractFault } from "../fault.js";
import type { Plan, PlanStage } from "../model.js";
import { type LineModel, lineModel, verbatim } from "./lines.js";
import { findSection, type Section, sectionItems, STAGE_HEADING } from "./sections.js";
import { readStageBody } from "./stage-body.js";
import { type StageSpan, stageSpans } from "./stages.js";

const TASK_HEADING = /^Task\s+\d+\b/i;

/** The recommendation section, or a fault saying why there is none. */
function recommendation(model: LineModel): Result<Section, ContractFault> {
  const found = findSection(model, "recommendation");
  if (found) return ok(found);
  const stageHeading = model.headings.find((h) => STAGE_HEADING.test(h.text));
  if (stageHeading) {
    // Stage headings with no section around them: the stages are the recommendation.
    return ok({ heading: stageHeading, from: stageHeading.index, to: model.lines.length });
  }
  const task = model.headings.find((h) => TASK_HEADING.test(h.text));
  if (task) return err({ code: "task-plan", line: task.index + 1, heading: task.text });
  return err({ code: "no-recommendation", line: 1 });
}

/** Map a `Depends on:` reference to the id of an earlier stage. */
function resolveRef(ref: string, earlier: PlanStage[]): string | null {
  const norm = (s: string) => s.toLowerCase().replace(/\s+/g, " ").trim();
  const exact = earlier.find((s) => norm(s.label) === norm(ref) || s.id === ref.trim());
  if (exact) return exact.id;
  const n = /^(?:(?:stage|phase|step|item)\s+)?(\d+)$/i.exec(ref.trim())?.[1];
  const byNumber = earlier.filter((s) => /(\d+)$/.exec(s.label)?.[1] === n);
  return n !== undefined && byNumber.length === 1 && byNumber[0] ? byNumber[0].id : null;
}

/** Read one stage span into a plan stage. */
function readStage(model: LineModel, span: StageSpan, earlier: PlanStage[]): Result<PlanStage, ContractFault> {
  const id = `S${earlier.length + 1}`;
  return readStageBody(model, span).andThen((body) => {
    const previous = earlier[earlier.length - 1];
    let depends_on = previous ? [previous.id] : [];
    if (body.dependsOn) {
      depends_on = [];
      for (const ref of body.dependsOn.refs) {
        const target = resolveRef(ref, earlier);
        if (!target) return err({ code: "depends-unknown", line: body.dependsOn.line, ref } as const);
        if (!depends_on.includes(target)) depends_on.push(target);
      }
    }
    return ok({
      id,
      label: span.label,
      title: span.title,
      instructions: verbatim(model, span.from, span.to, span.startAt),
      exit_criterion: body.exit,
      acceptance: body.rows.map((r, k) => ({ id: `${id}.${k + 1}`, ...r })),
      depends_on,
      optional: body.optional,
      line: span.index + 1,
    });
  });
}

/** Read a plan's staged recommendation, prohibitions and falsifiers, verbatim. Never throws. */
export function readPlan(markdown: string): Result<Plan, ContractFault> {
  const model = lineModel(markdown);
  return recommendation(model).andThen((section) => {
    const spans = stageSpans(model, section);
    if (spans.length === 0) {
      return err({
        code: "recommendation-not-staged",
        line: section.heading.index + 1,
        heading: section.heading.text,
      } as const);
    }
    const stages: PlanStage[] = [];
    for (const span of spans) {
      const stage = readStage(model, span, stages);
      if (stage.isErr()) return err(stage.error);
      stages.push(stage.value);
    }
    const items = (kind: "prohibitions" | "falsifiers") => {
      const s = findSection(model, kind);
      return s ? sectionItems(model, s) : [];
    };
    return ok({ stages, prohibitions: items("prohibitions"), falsifiers: items("falsifiers") });
  });
}

/** The prohibition items of a plan text, verbatim; [] when it has no such section. */
export function planProhibitions(markdown: string): string[] {
  const model = lineModel(markdown);
  const s = findSection(model, "prohibitions");
  return s ? sectionItems(model, s) : [];
}

