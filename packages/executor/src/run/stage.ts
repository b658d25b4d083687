import type { Stage } from "@decay/contract";
import { err, ok, type Result } from "neverthrow";
import type { Diagnosis, RequestOf } from "../agent/protocol.js";
import type { ExecFault } from "../fault.js";
import { type Deps, step } from "./deps.js";
import { freezeAttempt } from "./freeze.js";
import { commitStep, revertStep } from "./commit.js";
import { ask } from "./ask.js";
import { adjudicateAndFix, briefOf, callBase, diagnose, stopLoop } from "./roles.js";
import { type RunState, newLoop, type StageLoop } from "./state.js";
import { executeDivergence, pinSurface, staleRows, surfaceDivergence, touchedSurface } from "./surface.js";
import { type StageVerdict, verifyPass } from "./verify.js";

type R<T> = Result<T, ExecFault>;

/** Verify the stage at HEAD in a fresh clean room; the loop's record of it. */
async function verifyAt(d: Deps, loop: StageLoop, stage: Stage, attempt: number, head: string): Promise<R<StageVerdict>> {
  d.emit({ type: "command-running", stage: stage.id, phase: "verify", rows: stage.acceptance.map((r) => r.id) });
  const name = `${stage.id}/a${attempt}/verify`;
  const v = await step(d, name, () =>
    verifyPass(d, { kind: "verify", commit: head, ledger: d.paths.ledger, stages: [stage], attempt, room: name.replaceAll("/", "-") }),
  );
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

function escalate(d: Deps, loop: StageLoop, stage: Stage, reason: string): StageLoop {
  loop.state = "escalated";
  loop.reason = reason;
  d.emit({ type: "escalated", stage: stage.id, reason });
  return loop;
}

/** One stage's running context: the stage, its base commit, its loop record. */
interface StageRun {
  readonly d: Deps;
  readonly state: RunState;
  readonly stage: Stage;
  readonly loop: StageLoop;
  readonly base: string;
}

/** An outcome that ends the stage, or the value to go on with. */
type Step<T> = R<{ readonly done: StageLoop } | { readonly next: T }>;
const done = (loop: StageLoop) => ok({ done: loop }) as Step<never>;
const next = <T>(value: T) => ok({ next: value }) as Step<T>;

/** The stage's base, the plan's freshness there, and the surface pinned at the base. */
async function openStage(d: Deps, state: RunState, stage: Stage, loop: StageLoop): Promise<Step<string>> {
  const base = await step(d, `${stage.id}/base`, () => d.git.head());
  if (base.isErr()) return err(base.error);
  if (d.settings.assumptions !== null) {
    const stale = await step(d, `${stage.id}/fresh`, () => staleRows(d, d.settings.assumptions as string, base.value));
    if (stale.isErr()) return err(stale.error);
    if (stale.value.length > 0) {
      state.stop = {
        status: "stale-plan",
        stage: stage.id,
        reason: "the plan's assumptions no longer hold: re-plan from the tree as it is now",
        diverged: stale.value,
      };
      loop.reason = `stale plan before ${stage.id}`;
      return done(loop);
    }
  }
  const pinned = await step(d, `${stage.id}/pin`, () => pinSurface(d, base.value, `${d.paths.freeze}/${stage.id}-surface.tsv`));
  return pinned.isErr() ? err(pinned.error) : next(base.value);
}

function countAttempt(run: StageRun, attempt: number): void {
  run.state.attempts += 1;
  run.loop.attempts = attempt;
  run.d.emit({ type: "attempt", stage: run.stage.id, attempt });
}

/** Attempt 1: the execute call and its commit, checked against the surface at the stage's base. */
async function execute(run: StageRun): Promise<Step<string>> {
  const { d, state, stage, loop } = run;
  countAttempt(run, 1);
  const executed = await ask<RequestOf<"execute">>(d, state, "execute", `${stage.id}/a1/execute`, async () =>
    ok({ role: "execute" as const, model: d.settings.models.execute, ...callBase(d, stage, 1), brief: briefOf(d, stage) }),
  );
  if (executed.isErr()) return err(executed.error);
  if ("stop" in executed.value) return done((stopLoop(state, loop, stage, executed.value), loop));
  const head = await commitStep(d, { since: run.base }, stage, 1, "execute");
  if (head.isErr()) return err(head.error);
  if (!d.settings.executeMayEditSurface) {
    const range = { from: run.base, to: head.value };
    const changed = await step(d, `${stage.id}/a1/surface`, () => executeDivergence(d, range));
    if (changed.isErr()) return err(changed.error);
    if (changed.value.length > 0) return refuseExecute(run, changed.value);
  }
  return next(head.value);
}

/**
 * An execute that edited or deleted what its stage's acceptance rests on, as pinned at the base:
 * its commits are undone in one revert commit and the stage escalates. Green reached by rewriting
 * the check would say nothing about the work.
 */
async function refuseExecute(run: StageRun, changed: readonly string[]): Promise<Step<never>> {
  const { d, stage, loop } = run;
  const reverted = await revertStep(d, stage, 1, run.base, "execute");
  if (reverted.isErr()) return err(reverted.error);
  const by = reverted.value === null ? "" : `; its commits were reverted (by ${reverted.value.by.slice(0, 12)})`;
  const files = changed.length === 1 ? "1 file" : `${changed.length} files`;
  const reason = `the execute changed the acceptance surface pinned at the stage's base (${files}: ${changed.join("; ")})${by}`;
  return done(escalate(d, loop, stage, reason));
}

/** A red attempt: freeze it, apply the breakers, diagnose, and get a fix applied to the tree. */
async function afterRed(run: StageRun, attempt: number, head: string, verdict: StageVerdict, last: string | null): Promise<Step<Diagnosis>> {
  const { d, state, stage, loop } = run;
  const frozen = await step(d, `${stage.id}/a${attempt}/freeze`, () =>
    freezeAttempt(d, { stage: stage.id, attempt, base: run.base, head, ledger: verdict.ledger }),
  );
  if (frozen.isErr()) return err(frozen.error);
  loop.freeze.push(frozen.value);
  const failing = verdict.failing.join(", ");
  if (verdict.signature === last) {
    loop.state = "no-progress";
    loop.reason = `attempts ${attempt - 1} and ${attempt} failed identically (${failing}); the no-progress breaker stopped the stage`;
    return done(loop);
  }
  if (attempt >= d.settings.attemptBudget) {
    loop.state = "budget-exhausted";
    loop.reason = `${attempt} attempts spent (attemptBudget ${d.settings.attemptBudget}); still failing: ${failing}`;
    return done(loop);
  }
  const diagnoses = await diagnose(d, state, loop, stage, attempt, frozen.value);
  if (diagnoses.isErr()) return err(diagnoses.error);
  if (diagnoses.value === null) return done(loop);
  const admissible = diagnoses.value.filter((g) => g.acceptance_effect === "none");
  for (const g of diagnoses.value.filter((x) => x.acceptance_effect !== "none")) {
    const reason = `the diagnosis declares its fix would ${g.acceptance_effect} acceptance or what it exercises`;
    loop.refused.push({ attempt, lens: g.lens, fix: g.fix, reason, diverged: [], commit: null });
  }
  if (admissible.length === 0) return done(escalate(d, loop, stage, "every diagnosis proposes a fix that would alter, relax, skip or delete acceptance"));
  const fixed = await adjudicateAndFix(d, state, loop, stage, { attempt, freeze: frozen.value, admissible });
  if (fixed.isErr()) return err(fixed.error);
  return fixed.value === null ? done(loop) : next(fixed.value.diagnosis);
}

/**
 * The fix in the tree: refused before its commit when it changed a pinned file, after it when the
 * surface diverged anywhere between the pre-fix HEAD and the result (the agent's own commits
 * included); a refusal undoes every commit since the pre-fix HEAD. Else the new HEAD.
 */
async function landFix(run: StageRun, attempt: number, head: string, diagnosis: Diagnosis): Promise<Step<string>> {
  const { d, stage, loop } = run;
  const refuse = async (diverged: string[]): Promise<Step<string>> =>
    (await refuseFix(d, loop, stage, { attempt, base: run.base, from: head, diverged, diagnosis })).map((l) => ({ done: l }));
  const touched = await step(d, `${stage.id}/a${attempt}/guard`, () => guardFix(d, head));
  if (touched.isErr()) return err(touched.error);
  if (touched.value.length > 0) return refuse(touched.value);
  const fixedAt = await commitStep(d, { since: head }, stage, attempt, "fix");
  if (fixedAt.isErr()) return err(fixedAt.error);
  const commit = fixedAt.value;
  const diverged = await step(d, `${stage.id}/a${attempt}/surface`, () => surfaceDivergence(d, { from: head, to: commit }));
  if (diverged.isErr()) return err(diverged.error);
  if (diverged.value.length > 0) return refuse(diverged.value);
  return next(commit);
}

/**
 * One stage: pin the acceptance surface, execute, commit, verify in a clean room; on red freeze,
 * diagnose blind through three lenses, adjudicate among admissible fixes, fix, check the fix
 * against the pinned surface (a fix that touched it is refused), verify again, until green, the
 * attempt budget, the no-progress breaker, an escalation, or the run must stop.
 */
export async function runStage(d: Deps, state: RunState, stage: Stage): Promise<R<StageLoop>> {
  const loop = newLoop("stopped");
  d.emit({ type: "stage-started", stage: stage.id, label: stage.label, title: stage.title });
  const opened = await openStage(d, state, stage, loop);
  if (opened.isErr() || "done" in opened.value) return opened.map((o) => ("done" in o ? o.done : loop));
  const run: StageRun = { d, state, stage, loop, base: opened.value.next };
  const executed = await execute(run);
  if (executed.isErr() || "done" in executed.value) return executed.map((o) => ("done" in o ? o.done : loop));
  let head = executed.value.next;
  let last: string | null = null;
  for (let attempt = 1; ; attempt++) {
    const verdict = await verifyAt(d, loop, stage, attempt, head);
    if (verdict.isErr()) return err(verdict.error);
    if (verdict.value.green) return finishGreen(d, loop, stage, run.base, head);
    const fix = await afterRed(run, attempt, head, verdict.value, last);
    if (fix.isErr() || "done" in fix.value) return fix.map((o) => ("done" in o ? o.done : loop));
    last = verdict.value.signature;
    countAttempt(run, attempt + 1);
    const landed = await landFix(run, attempt + 1, head, fix.value.next);
    if (landed.isErr() || "done" in landed.value) return landed.map((o) => ("done" in o ? o.done : loop));
    head = landed.value.next;
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

/** A fix that touched the pinned surface: revert every commit since the pre-fix HEAD, record it refused, escalate. */
async function refuseFix(
  d: Deps,
  loop: StageLoop,
  stage: Stage,
  at: { attempt: number; base: string; from: string; diverged: string[]; diagnosis: Diagnosis },
): Promise<R<StageLoop>> {
  const reverted = await revertStep(d, stage, at.attempt, at.from);
  if (reverted.isErr()) return err(reverted.error);
  const r = reverted.value;
  const undone = r === null ? "it was set aside uncommitted" : `every commit since ${at.from.slice(0, 12)} was reverted (by ${r.by.slice(0, 12)})`;
  loop.refused.push({
    attempt: at.attempt,
    lens: at.diagnosis.lens,
    fix: at.diagnosis.fix,
    reason: `the fix changed the pinned acceptance surface (it touched acceptance or what it exercises), whatever its diagnosis declared; ${undone}`,
    diverged: at.diverged,
    commit: r?.to ?? null,
  });
  return ok(
    escalate(
      d,
      loop,
      stage,
      `the chosen fix changed the pinned acceptance surface (${at.diverged.length} row${at.diverged.length === 1 ? "" : "s"}); it was not applied`,
    ),
  );
}

/** Set a fix aside, uncommitted, when it changed a pinned file; the rows it touched. */
async function guardFix(d: Deps, head: string): Promise<R<string[]>> {
  const touched = await touchedSurface(d, head);
  if (touched.isErr() || touched.value.length === 0) return touched;
  const kept = await d.git.setAside(`decay(${d.slug}): a refused fix that changed the pinned acceptance surface`);
  return kept.map((id) => touched.value.map((row) => `${row} (set aside in ${id ?? "nothing"})`));
}
