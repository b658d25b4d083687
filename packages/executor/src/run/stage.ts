import type { Stage } from "@decay/contract";
import { err, ok, type Result } from "neverthrow";
import { type Brief, type Diagnosis, LENSES, type RequestOf } from "../agent/protocol.js";
import type { ExecFault } from "../fault.js";
import { type Deps, step } from "./deps.js";
import { freezeAttempt, loadFreeze } from "./freeze.js";
import { commitStep, revertStep } from "./commit.js";
import { ask } from "./ask.js";
import { type RunState, newLoop, type StageLoop } from "./state.js";
import { pinSurface, staleRows, surfaceDivergence, touchedSurface } from "./surface.js";
import { type StageVerdict, verifyPass } from "./verify.js";

type R<T> = Result<T, ExecFault>;

/** The brief of a stage: its contract section verbatim and the guardrails. */
export function briefOf(d: Deps, stage: Stage): Brief {
  const { id, label, title, instructions, exit_criterion, acceptance } = stage;
  return { stage: id, label, title, instructions, exit_criterion, acceptance, guardrails: d.contract.guardrails, contract: d.paths.contract };
}

function callBase(d: Deps, stage: Stage, attempt: number) {
  return { cwd: d.repo, stage: stage.id, attempt, guardrails: d.contract.guardrails };
}

/** Verify the stage at HEAD in a fresh clean room; the loop's record of it. */
async function verifyAt(d: Deps, loop: StageLoop, stage: Stage, attempt: number, head: string): Promise<R<StageVerdict>> {
  d.emit({ type: "command-running", stage: stage.id, phase: "verify", rows: stage.acceptance.map((r) => r.id) });
  const name = `${stage.id}/a${attempt}/verify`;
  const v = await step(d, name, () => verifyPass(d, { kind: "verify", commit: head, stages: [stage], attempt, room: name.replaceAll("/", "-") }));
  if (v.isErr()) return err(v.error);
  const verdict = v.value[stage.id] as StageVerdict;
  loop.ledger.push(verdict.ledger);
  d.emit({ type: "verified", stage: stage.id, attempt, phase: "verify", green: verdict.green, ledger: verdict.ledger });
  return ok(verdict);
}

/** A stage whose diff is past `maxStageDiff` escalates: it can no longer be reviewed against its plan. */
function widened(d: Deps, diff: NonNullable<StageLoop["diff"]>): string | null {
  const { files, lines } = d.settings.maxStageDiff;
  if (files !== null && diff.files > files) return `the stage's diff touches ${diff.files} files, more than maxStageDiff.files ${files}`;
  const changed = diff.insertions + diff.deletions;
  if (lines !== null && changed > lines) return `the stage's diff changes ${changed} lines, more than maxStageDiff.lines ${lines}`;
  return null;
}

/** Three blind diagnoses of a frozen attempt; null when the run must stop (parked, token target). */
async function diagnose(d: Deps, state: RunState, loop: StageLoop, stage: Stage, attempt: number, freeze: string): Promise<R<Diagnosis[] | null>> {
  const out: Diagnosis[] = [];
  for (const lens of LENSES) {
    const asked = await ask<RequestOf<"diagnose">>(d, state, "diagnose", `${stage.id}/a${attempt}/diagnose/${lens}`, async () =>
      (await loadFreeze(d, freeze)).map((f) => ({ role: "diagnose" as const, model: d.settings.models.diagnose, ...callBase(d, stage, attempt), lens, freeze: f })),
    );
    if (asked.isErr()) return err(asked.error);
    if ("stop" in asked.value) return ok(stopLoop(state, loop, stage, asked.value));
    const { tokens: _t, ...rest } = asked.value.reply;
    out.push({ lens, ...rest });
  }
  return ok(out);
}

function stopLoop(state: RunState, loop: StageLoop, stage: Stage, stop: { stop: "parked" | "token-target"; reason: string }): null {
  state.stop = { status: stop.stop, stage: stage.id, reason: stop.reason };
  loop.state = stop.stop === "parked" ? "parked" : "stopped";
  loop.reason = stop.reason;
  return null;
}

function escalate(d: Deps, loop: StageLoop, stage: Stage, reason: string): StageLoop {
  loop.state = "escalated";
  loop.reason = reason;
  d.emit({ type: "escalated", stage: stage.id, reason });
  return loop;
}

/** Pick among admissible diagnoses and apply the chosen fix; the fix's commit, or null when the run must stop. */
async function adjudicateAndFix(
  d: Deps,
  state: RunState,
  loop: StageLoop,
  stage: Stage,
  at: { attempt: number; freeze: string; admissible: Diagnosis[] },
): Promise<R<{ diagnosis: Diagnosis } | null>> {
  const { attempt, freeze, admissible } = at;
  const ruled = await ask<RequestOf<"adjudicate">>(
    d,
    state,
    "adjudicate",
    `${stage.id}/a${attempt}/adjudicate`,
    async () => ok({ role: "adjudicate" as const, model: d.settings.models.adjudicate, ...callBase(d, stage, attempt), diagnoses: admissible }),
    admissible.length,
  );
  if (ruled.isErr()) return err(ruled.error);
  if ("stop" in ruled.value) return ok(stopLoop(state, loop, stage, ruled.value));
  const diagnosis = admissible[ruled.value.reply.chosen] as Diagnosis;
  const reason = ruled.value.reply.reason;
  const next = attempt + 1;
  const fixed = await ask<RequestOf<"fix">>(d, state, "fix", `${stage.id}/a${next}/fix`, async () =>
    (await loadFreeze(d, freeze)).map((f) => ({
      role: "fix" as const,
      model: d.settings.models.fix,
      ...callBase(d, stage, next),
      brief: briefOf(d, stage),
      freeze: f,
      decision: { diagnosis, reason },
    })),
  );
  if (fixed.isErr()) return err(fixed.error);
  if ("stop" in fixed.value) return ok(stopLoop(state, loop, stage, fixed.value));
  return ok({ diagnosis });
}

/**
 * One stage: pin the acceptance surface, execute, commit, verify in a clean room; on red freeze,
 * diagnose blind through three lenses, adjudicate among admissible fixes, fix, check the fix
 * against the pinned surface (a fix that touched it is reverted and refused), verify again, until
 * green, the attempt budget, the no-progress breaker, an escalation, or the run must stop.
 */
export async function runStage(d: Deps, state: RunState, stage: Stage): Promise<R<StageLoop>> {
  const loop = newLoop("stopped");
  d.emit({ type: "stage-started", stage: stage.id, label: stage.label, title: stage.title });
  const base = await step(d, `${stage.id}/base`, () => d.git.head());
  if (base.isErr()) return err(base.error);
  if (d.settings.assumptions !== null) {
    const stale = await step(d, `${stage.id}/fresh`, () => staleRows(d, d.settings.assumptions as string, base.value));
    if (stale.isErr()) return err(stale.error);
    if (stale.value.length > 0) {
      state.stop = { status: "stale-plan", stage: stage.id, reason: "the plan's assumptions no longer hold: re-plan from the tree as it is now", diverged: stale.value };
      return ok({ ...loop, reason: `stale plan before ${stage.id}` });
    }
  }
  const pinned = await step(d, `${stage.id}/pin`, () => pinSurface(d, base.value, `${d.paths.freeze}/${stage.id}-surface.tsv`));
  if (pinned.isErr()) return err(pinned.error);
  let attempt = 1;
  state.attempts += 1;
  loop.attempts = 1;
  d.emit({ type: "attempt", stage: stage.id, attempt });
  const executed = await ask<RequestOf<"execute">>(d, state, "execute", `${stage.id}/a1/execute`, async () =>
    ok({ role: "execute" as const, model: d.settings.models.execute, ...callBase(d, stage, 1), brief: briefOf(d, stage) }),
  );
  if (executed.isErr()) return err(executed.error);
  if ("stop" in executed.value) return ok((stopLoop(state, loop, stage, executed.value), loop));
  const executedAt = await commitStep(d, base.value, stage, 1, "execute");
  if (executedAt.isErr()) return err(executedAt.error);
  let head = executedAt.value;
  const surface = `${d.paths.freeze}/${stage.id}-surface-a1.tsv`;
  const repinned = await step(d, `${stage.id}/a1/pin`, () => pinSurface(d, head, surface));
  if (repinned.isErr()) return err(repinned.error);
  let lastSignature: string | null = null;
  for (;;) {
    const verdict = await verifyAt(d, loop, stage, attempt, head);
    if (verdict.isErr()) return err(verdict.error);
    if (verdict.value.green) return finishGreen(d, loop, stage, base.value, head);
    const frozen = await step(d, `${stage.id}/a${attempt}/freeze`, () =>
      freezeAttempt(d, { stage: stage.id, attempt, base: base.value, head, ledger: verdict.value.ledger }),
    );
    if (frozen.isErr()) return err(frozen.error);
    loop.freeze.push(frozen.value);
    if (verdict.value.signature === lastSignature) {
      loop.state = "no-progress";
      loop.reason = `attempts ${attempt - 1} and ${attempt} failed identically (${verdict.value.failing.join(", ")}); the no-progress breaker stopped the stage`;
      return ok(loop);
    }
    lastSignature = verdict.value.signature;
    if (attempt >= d.settings.attemptBudget) {
      loop.state = "budget-exhausted";
      loop.reason = `${attempt} attempts spent (attemptBudget ${d.settings.attemptBudget}); still failing: ${verdict.value.failing.join(", ")}`;
      return ok(loop);
    }
    const diagnoses = await diagnose(d, state, loop, stage, attempt, frozen.value);
    if (diagnoses.isErr()) return err(diagnoses.error);
    if (diagnoses.value === null) return ok(loop);
    const admissible = diagnoses.value.filter((g) => g.acceptance_effect === "none");
    for (const g of diagnoses.value.filter((x) => x.acceptance_effect !== "none")) {
      loop.refused.push({ attempt, lens: g.lens, fix: g.fix, reason: `the diagnosis declares its fix would ${g.acceptance_effect} acceptance or what it exercises`, diverged: [], commit: null });
    }
    if (admissible.length === 0) return ok(escalate(d, loop, stage, "every diagnosis proposes a fix that would alter, relax, skip or delete acceptance"));
    const fixed = await adjudicateAndFix(d, state, loop, stage, { attempt, freeze: frozen.value, admissible });
    if (fixed.isErr()) return err(fixed.error);
    if (fixed.value === null) return ok(loop);
    attempt += 1;
    state.attempts += 1;
    loop.attempts = attempt;
    d.emit({ type: "attempt", stage: stage.id, attempt });
    const touched = await step(d, `${stage.id}/a${attempt}/guard`, () => guardFix(d, surface));
    if (touched.isErr()) return err(touched.error);
    if (touched.value.length > 0) return refuseFix(d, loop, stage, { attempt, base: base.value, commit: null, diverged: touched.value, diagnosis: fixed.value.diagnosis });
    const fixedAt = await commitStep(d, base.value, stage, attempt, "fix");
    if (fixedAt.isErr()) return err(fixedAt.error);
    const fixCommit = fixedAt.value;
    const diverged = await step(d, `${stage.id}/a${attempt}/surface`, () => surfaceDivergence(d, fixCommit, surface));
    if (diverged.isErr()) return err(diverged.error);
    if (diverged.value.length > 0) {
      const commit = fixCommit === head ? null : fixCommit;
      return refuseFix(d, loop, stage, { attempt, base: base.value, commit, diverged: diverged.value, diagnosis: fixed.value.diagnosis });
    }
    head = fixCommit;
  }
}

async function finishGreen(d: Deps, loop: StageLoop, stage: Stage, base: string, head: string): Promise<R<StageLoop>> {
  const stats = await step(d, `${stage.id}/diff`, () => d.git.diffStats(base, head));
  if (stats.isErr()) return err(stats.error);
  loop.diff = { files: stats.value.files, insertions: stats.value.insertions, deletions: stats.value.deletions };
  const wide = widened(d, loop.diff);
  if (wide !== null) return ok(escalate(d, loop, stage, wide));
  loop.state = "green";
  loop.reason = null;
  return ok(loop);
}

/** A fix that touched the pinned surface: revert its commit, record it refused, escalate. */
async function refuseFix(
  d: Deps,
  loop: StageLoop,
  stage: Stage,
  at: { attempt: number; base: string; commit: string | null; diverged: string[]; diagnosis: Diagnosis },
): Promise<R<StageLoop>> {
  const commit = at.commit;
  if (commit !== null) {
    const reverted = await revertStep(d, at.base, stage, at.attempt, commit);
    if (reverted.isErr()) return err(reverted.error);
  }
  loop.refused.push({
    attempt: at.attempt,
    lens: at.diagnosis.lens,
    fix: at.diagnosis.fix,
    reason: `the fix changed the pinned acceptance surface (it touched acceptance or what it exercises), whatever its diagnosis declared; ${commit ? "its commit was reverted" : "it was set aside uncommitted"}`,
    diverged: at.diverged,
    commit: at.commit,
  });
  return ok(escalate(d, loop, stage, `the chosen fix changed the pinned acceptance surface (${at.diverged.length} row${at.diverged.length === 1 ? "" : "s"}); it was not applied`));
}

/** Set a fix aside, uncommitted, when it changed a pinned file; the rows it touched. */
async function guardFix(d: Deps, surface: string): Promise<R<string[]>> {
  const touched = await touchedSurface(d, surface);
  if (touched.isErr() || touched.value.length === 0) return touched;
  const kept = await d.git.setAside(`decay(${d.slug}): a refused fix that changed the pinned acceptance surface`);
  return kept.map((id) => touched.value.map((row) => `${row} (set aside in ${id ?? "nothing"})`));
}
