import { err, ok, type Result } from "neverthrow";
import type { ExecFault } from "../fault.js";
import { RUN_REPORT_SCHEMA_ID, type RunReport, type RunStatus, type StageReport } from "../schema.js";
import { type Deps, removePath, writeFile } from "./deps.js";
import { renderReportMd, renderResumeMd } from "./report-md.js";
import { type RunState, type StageLoop, totalTokens } from "./state.js";
import type { StageVerdict } from "./verify.js";

/** Everything the report is made from: step results and the body's own totals. */
export interface ReportInput {
  readonly state: RunState;
  readonly loops: Map<string, StageLoop>;
  readonly preflight: Record<string, StageVerdict>;
  readonly final: Record<string, StageVerdict>;
  readonly startHead: string;
  readonly startGreen: string[];
  readonly endHead: string;
  readonly commits: string[];
  readonly setAside: string | null;
  readonly wallMs: number;
}

function stageReport(d: Deps, input: ReportInput, id: string): StageReport {
  const stage = d.contract.stages.find((s) => s.id === id);
  if (stage === undefined) throw new Error(`no stage ${id}`);
  const loop = input.loops.get(id);
  const verdict = input.final[id];
  const final = verdict === undefined ? "not-run" : verdict.green ? "green" : "red";
  let reason = loop?.reason ?? null;
  if (final === "red" && (loop?.state === "green" || loop?.state === "green-at-start")) {
    reason = `the loop saw it green, the final independent verification sees it red (${verdict?.failing.join(", ")})`;
  } else if (final === "red" && reason === null) reason = `red in the final verification (${verdict?.failing.join(", ")})`;
  return {
    id,
    label: stage.label,
    title: stage.title,
    optional: stage.optional,
    state: loop?.state ?? "not-started",
    final,
    reason,
    attempts: loop?.attempts ?? 0,
    verified: verdict === undefined ? null : { commit: input.endHead, ledger: verdict.ledger },
    ledger: [...(loop?.ledger ?? []), ...(verdict ? [verdict.ledger] : [])],
    freeze: loop?.freeze ?? [],
    refused_fixes: loop?.refused ?? [],
    diff: loop?.diff ?? null,
  };
}

/** Whether a stage keeps its run from green: a required stage not green in the final verification, or an escalation left open. */
export function holdsBackGreen(s: StageReport): boolean {
  return (!s.optional && s.final !== "green") || s.state === "escalated";
}

function statusOf(state: RunState, stages: StageReport[]): { status: RunStatus; reason: string | null } {
  if (state.stop !== null) return { status: state.stop.status, reason: state.stop.reason };
  // Green needs every required stage green in the final verification and no escalation left open.
  const missing = stages.filter(holdsBackGreen);
  // A run that verified no stage green (every stage optional and left out) is never green.
  if (missing.length === 0 && !stages.some((s) => s.final === "green")) return { status: "incomplete", reason: "no stage was verified green" };
  if (missing.length === 0) return { status: "green", reason: null };
  const why = (s: StageReport) => `${s.id} ${s.final === "green" ? "escalated" : "not green"} (${s.reason ?? s.state})`;
  return { status: "incomplete", reason: missing.map(why).join("; ") };
}

/** report.json's content, from the run's step results only. */
export function buildReport(d: Deps, input: ReportInput): RunReport {
  const stages = d.contract.stages.map((s) => stageReport(d, input, s.id));
  const { status, reason } = statusOf(input.state, stages);
  const stop = input.state.stop;
  return {
    version: 1,
    plan: d.contract.plan,
    plan_sha256: d.contract.plan_sha256,
    slug: d.slug,
    branch: `plan/${d.slug}`,
    status,
    reason,
    workspace: d.paths.root,
    start: { commit: input.startHead, green: input.startGreen },
    end: { commit: input.endHead, green: stages.filter((s) => s.final === "green").map((s) => s.id) },
    commits: input.commits,
    set_aside: input.setAside,
    stages,
    falsifiers: d.contract.falsifiers,
    stale: stop?.status === "stale-plan" ? { assumptions: d.settings.assumptions ?? "", diverged: [...stop.diverged] } : null,
    cost: {
      tokens: { ...input.state.tokens },
      total_tokens: totalTokens(input.state),
      attempts: input.state.attempts,
      agent_calls: input.state.calls,
      nothing_returned: input.state.nothing,
      returned_nothing: [...input.state.nothingLog],
      wall_ms: input.wallMs,
    },
  };
}

/** Write REPORT.md and report.json (which names its schema in `$schema`); RESUME.md only when parked (an old one is removed otherwise, with the unfinished-run marker). */
export async function writeReport(d: Deps, report: RunReport): Promise<Result<null, ExecFault>> {
  const json = await writeFile(d, d.paths.reportJson, `${JSON.stringify({ $schema: RUN_REPORT_SCHEMA_ID, ...report }, null, 2)}\n`);
  if (json.isErr()) return err(json.error);
  const md = await writeFile(d, d.paths.report, renderReportMd(report, d.contract));
  if (md.isErr()) return err(md.error);
  const parked = report.status === "parked";
  const resume = parked ? await writeFile(d, d.paths.resume, renderResumeMd(report, d.settings.resumeCommand)) : await removePath(d, d.paths.resume);
  if (resume.isErr()) return err(resume.error);
  // A parked run is resumed by running again, as an interrupted one is; any other report ends the run.
  return parked ? ok(null) : (await removePath(d, d.paths.unfinished)).map(() => null);
}
