// Resume: from the plan, the record, git and the tasks' own checks, which task states change and
// the Ruling lines that say why. Nothing is written here; the caller appends (applyResume).
import { err, ok, okAsync, type Result, ResultAsync, safeTry } from "neverthrow";
import { appendRecord, setTaskState } from "./append.js";
import type { ExecFault } from "../fault.js";
import { inRepository } from "../run/paths.js";
import type { Git, Shell } from "../ports.js";
import type { JournalFault } from "./fault.js";
import { baseOf, failClaims, isRevisionMarker, lastRounds, linesOf, openRulings, specStatus, taskStates } from "./read.js";
import type { JournalRecord } from "./record.js";
import { overlapIndex, type TouchIndex, touchIndex } from "./overlap.js";
import { recheckRuling, type Recheck } from "./recheck.js";
import type { PlanTask, RecordLine, TaskPlan, TaskState } from "./schema.js";

/** What deriveResume is given: the plan and its record, the repository, and a shell for the tasks' checks. */
export interface ResumeOptions {
  readonly plan: TaskPlan;
  readonly record: JournalRecord;
  readonly git: Pick<Git, "head" | "changedPaths" | "dirty">;
  readonly shell: Shell;
  /** The spec's markdown (for its `Status`); omit when the plan has no spec. */
  readonly spec?: string | null;
  /** The spec's path as Rulings and `stop` name it, when it was read from elsewhere than the plan's `Spec` (`--spec`). */
  readonly specPath?: string;
  /** Where checks run; default the record's `Root`. */
  readonly cwd?: string;
  /** Per check; default 10 minutes. */
  readonly timeoutMs?: number;
}

/** A task whose state resume changes, with the Ruling text that explains it. */
export interface TaskChange {
  readonly n: number;
  readonly from: TaskState;
  readonly to: TaskState;
}

/** What resume derived. `rulings` are the lines to append; `stop` is a next step that stops the run before any task. */
export interface Resume {
  readonly fresh: boolean;
  readonly states: ReadonlyMap<number, TaskState>;
  readonly changes: readonly TaskChange[];
  readonly rulings: readonly Extract<RecordLine, { kind: "ruling" }>[];
  readonly rechecks: readonly Recheck[];
  /** Failures only an unfinished task explains: recheck task `n` once task `after` is done. */
  readonly waiting: readonly { readonly n: number; readonly after: number }[];
  readonly rounds: Readonly<Record<string, number>>;
  readonly openRulings: readonly string[];
  readonly unplannedClaims: readonly string[];
  readonly stop: string | null;
}

interface Effects {
  readonly base: string;
  readonly head: string;
  /** Every path a commit in Base..HEAD changed or the working tree changes (the foreign dirty paths left out), indexed once. */
  readonly changed: TouchIndex;
  /** Whether any path changed at all (a task naming the whole tree, `.`, asks only that). */
  readonly anyChanged: boolean;
}

/**
 * A task's Files as git reads a literal pathspec: `.` and empty components dropped, `..` taking the
 * one before it away, a trailing `/` (or `/.`) kept as "a folder only". `all` for the whole tree
 * (`.`); null for a path that is absolute or climbs out of the repository, which names no file in it.
 */
function pathspecOf(file: string): string | "all" | null {
  const inside = inRepository("", file);
  if (inside === null) return null;
  if (inside === "") return "all";
  const last = file.slice(file.lastIndexOf("/") + 1);
  return last === "" || last === "." || last === ".." ? `${inside}/` : inside;
}

/** A trace of a task: a commit in Base..HEAD touching its Files, or a change to them in the working tree. */
function hasTrace(fx: Effects, task: PlanTask): Result<boolean, ExecFault> {
  if (task.files.length === 0) return ok(true); // nothing to look for: it stays on its evidence
  const specs: string[] = [];
  for (const file of task.files) {
    const spec = pathspecOf(file);
    if (spec === null)
      return err({ code: "option-invalid", option: `Files of Task ${task.n}`, issue: `${JSON.stringify(file)} is not a path inside the repository` });
    if (spec === "all") return ok(fx.anyChanged);
    specs.push(spec);
  }
  return ok(fx.changed.touches(specs));
}

/** Working state while rules apply. */
interface Work {
  readonly states: Map<number, TaskState>;
  readonly changes: TaskChange[];
  readonly rulings: Extract<RecordLine, { kind: "ruling" }>[];
  readonly rechecks: Recheck[];
  readonly waiting: { n: number; after: number }[];
}

function change(w: Work, n: number, to: TaskState, ruling: string): void {
  const from = w.states.get(n) ?? { state: "pending" };
  w.states.set(n, to);
  w.changes.push({ n, from, to });
  w.rulings.push({ kind: "ruling", text: ruling });
}

/** Rule 1: a done task with no trace goes back to pending. Returns the done tasks that keep a trace. */
function untraced(w: Work, plan: TaskPlan, fx: Effects): Result<PlanTask[], ExecFault> {
  const traced: PlanTask[] = [];
  for (const task of plan.tasks) {
    if (w.states.get(task.n)?.state !== "done") continue;
    const trace = hasTrace(fx, task);
    if (trace.isErr()) return err(trace.error);
    if (trace.value) traced.push(task);
    else
      change(
        w,
        task.n,
        { state: "pending" },
        `Task ${task.n} back to pending - no commit in ${fx.base.slice(0, 7)}..${fx.head.slice(0, 7)} touches its Files and none of them changed in the working tree - low, the task runs again`,
      );
  }
  return ok(traced);
}

/**
 * Rule 2: a done task overlapping a later traced done task reruns its check; the outcome is
 * explained or sends it back. The tasks are indexed by their Files once (overlap.ts), so the rule
 * takes time linear in the plan, not in the square of its traced tasks.
 */
function overlaps(w: Work, plan: TaskPlan, record: JournalRecord, traced: PlanTask[], o: ResumeOptions & { cwd: string }): ResultAsync<void, ExecFault> {
  const rulings = linesOf(record, "ruling");
  const marker = rulings.find((r) => isRevisionMarker(r.text))?.text ?? null;
  const said = new Set(rulings.map((r) => r.text));
  const done = overlapIndex(traced);
  // No rule sets a task in progress, so the tasks in progress are known before any recheck.
  const inProgress = overlapIndex(plan.tasks.filter((t) => w.states.get(t.n)?.state === "in progress"));
  return safeTry(async function* () {
    for (const task of traced) {
      if (!done.hasLater(task)) continue;
      const rc = yield* recheckOne(task, o);
      if (!rc) continue;
      w.rechecks.push(rc);
      if (rc.passed) continue;
      const outcome = recheckRuling(task, rc, { later: done.later(task), marker, partial: inProgress.later(task)[0] ?? null });
      if (outcome.back) change(w, task.n, { state: "pending" }, outcome.ruling);
      // A failure already explained in the record is not explained again on every resume.
      else if (!said.has(outcome.ruling)) w.rulings.push({ kind: "ruling", text: outcome.ruling });
      if (outcome.waitFor !== null) w.waiting.push({ n: task.n, after: outcome.waitFor });
    }
    return ok(undefined);
  });
}

function recheckOne(task: PlanTask, o: ResumeOptions & { cwd: string }): ResultAsync<Recheck | null, ExecFault> {
  const field = task.green !== null ? "GREEN" : task.check !== null ? "Check" : null;
  const command = commandOf(task.green ?? task.check ?? "");
  if (!field || command === "") return okAsync(null);
  return o.shell
    .run({ command, cwd: o.cwd, timeoutMs: o.timeoutMs ?? 600_000 })
    .map((r) => ({ n: task.n, field, command, exit: r.exit, passed: r.exit === 0 && !r.timedOut }));
}

/** The command of a `GREEN`/`Check` field: its first code span, else the text before ` -> `. */
export function commandOf(field: string): string {
  const span = /`([^`]+)`/.exec(field)?.[1];
  return (span ?? field.split(" -> ")[0] ?? "").trim();
}

/** Rules 3 and 4: tasks blocked on conflicting intent after re-approval, and the tasks of a failing Verify's claims. */
function reopen(w: Work, plan: TaskPlan, record: JournalRecord, spec: { status: string | null; path: string | null }): string[] {
  const { status } = spec;
  for (const task of plan.tasks) {
    const s = w.states.get(task.n);
    if (s?.state === "blocked" && s.blocker === "conflicting intent" && status === "approved") {
      change(
        w,
        task.n,
        { state: "pending" },
        `Task ${task.n} back to pending - spec ${spec.path ?? "(none)"} approved again - low, it runs as its section now reads`,
      );
    }
  }
  const fail = failClaims(plan, record);
  if (!fail) return [];
  for (const { claim, task } of fail.claims) {
    const s = task === null ? undefined : w.states.get(task);
    if (task === null || fail.handled.has(claim) || s?.state === "pending" || s?.state === "blocked") continue;
    change(w, task, { state: "pending" }, `Task ${task} back to pending - Verify FAIL on ${claim} - low, the task runs again`);
  }
  return fail.claims.filter((c) => c.task === null).map((c) => c.claim);
}

/** Why the run may not start: a draft spec on a fresh start, or on a resume with no task waiting on it. */
function stopFor(spec: string | null, status: string | null, fresh: boolean, states: ReadonlyMap<number, TaskState>): string | null {
  if (!spec || status === null || status === "approved") return null;
  const marked = [...states.values()].some((s) => s.state === "blocked" && s.blocker === "conflicting intent");
  return fresh || !marked ? `specify - ${spec} is a draft, awaiting approval` : null;
}

/**
 * Apply the resume rules to a plan's record: untraced done tasks, overlap rechecks, tasks blocked
 * on conflicting intent after re-approval, and a failing last Verify. Returns the new states and
 * the Ruling lines explaining each change; writes nothing. On a fresh start (`Base: unset`) no
 * task changes.
 */
export function deriveResume(o: ResumeOptions): ResultAsync<Resume, ExecFault> {
  const { plan, record } = o;
  const status = o.spec ? specStatus(o.spec) : null;
  const w: Work = { states: taskStates(plan, record), changes: [], rulings: [], rechecks: [], waiting: [] };
  const base = baseOf(record);
  const finish = (fresh: boolean, unplanned: string[]): Resume => ({
    fresh,
    ...w,
    rounds: lastRounds(record),
    openRulings: openRulings(record),
    unplannedClaims: unplanned,
    stop: stopFor(o.specPath ?? plan.spec, status, fresh, w.states),
  });
  if (base === null) return okAsync(finish(true, []));
  const cwd = o.cwd ?? linesOf(record, "base").pop()?.where?.root ?? ".";
  return ResultAsync.combine([o.git.head(), o.git.dirty()]).andThen(([head, dirty]) =>
    o.git
      .changedPaths(base, head)
      .mapErr((e): ExecFault => (e.code === "git-failed" ? { ...e, op: `${e.op} (from the record's Base ${base}: is it a commit of this repository?)` } : e))
      .andThen((committed) => {
        // Someone else's uncommitted changes (Initial dirty state) are no task's trace.
        const foreign = new Set(linesOf(record, "dirty").flatMap((l) => l.paths.map((p) => p.path)));
        const paths = [...committed, ...dirty.filter((p) => !foreign.has(p))];
        const fx: Effects = { base, head, changed: touchIndex(paths), anyChanged: paths.length > 0 };
        return untraced(w, plan, fx)
          .asyncAndThen((traced) => overlaps(w, plan, record, traced, { ...o, cwd }))
          .map(() => finish(false, reopen(w, plan, record, { status, path: o.specPath ?? plan.spec })));
      }),
  );
}

/** Write a derived resume into the plan: each changed Task line's state in place, then the Ruling lines appended. */
export function applyResume(markdown: string, resume: Resume): Result<string, JournalFault> {
  let text: Result<string, JournalFault> = ok(markdown);
  for (const c of resume.changes) text = text.andThen((t) => setTaskState(t, c.n, c.to));
  return text.andThen((t) => (resume.rulings.length === 0 ? ok(t) : appendRecord(t, resume.rulings)));
}
