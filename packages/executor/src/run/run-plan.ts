import { type Contract, planSha256, renderContract } from "@decay/contract";
import { err, ok, type Result, ResultAsync } from "neverthrow";
import type { ExecFault } from "../fault.js";
import { inMemoryRunner } from "../runner.js";
import type { RunReport } from "../schema.js";
import { canStart, type Deps, Interrupted, inRepo, readText, removePath, step, utf8Text, writeFile } from "./deps.js";
import { type RunOptions, settingsOf } from "./options.js";
import { workingCommit } from "./branch-plan.js";
import { claimWorkspace, ownedHere, readClaim, type WorkspaceClaim } from "./owner.js";
import { inWorkspaces, slugOf, workspacePaths } from "./paths.js";
import { directPatterns } from "./patterns.js";
import { listedOnce } from "./tracked.js";
import { buildReport, writeReport } from "./report.js";
import { renderInterruptedMd } from "./report-md.js";
import { runStage } from "./stage.js";
import { newLoop, newState, type RunState, type StageLoop } from "./state.js";
import { changedSinceOpened, changedSinceStarted, staleRows, surfaceRows } from "./surface.js";
import { refusals, stageOrder, validContract } from "./validate.js";
import { type StageVerdict, verifyPass } from "./verify.js";

type R<T> = Result<T, ExecFault>;

/** What the first step reads: where the repository stands and the plan's bytes. */
interface Start {
  head: string;
  branch: string | null;
  dirty: string[];
  plan: string | null;
  claim: WorkspaceClaim;
  startedAt: number;
}

async function readStart(d: Deps, planText: string | Uint8Array | undefined): Promise<R<Start>> {
  const top = await canStart(d);
  if (top.isErr()) return err(top.error);
  const head = await d.git.head();
  if (head.isErr()) return err(head.error.code === "git-failed" ? { code: "no-head", repo: d.repo } : head.error);
  const branch = await d.git.branch();
  if (branch.isErr()) return err(branch.error);
  const dirty = await d.git.dirty();
  if (dirty.isErr()) return err(dirty.error);
  let plan: string | null = typeof planText === "string" ? planText : null;
  if (planText instanceof Uint8Array) {
    const text = utf8Text(d.contract.plan, planText);
    if (text.isErr()) return err(text.error);
    plan = text.value;
  } else if (planText === undefined) {
    const read = await readText(d, inRepo(d, d.contract.plan));
    if (read.isErr()) return err(read.error);
    plan = read.value;
  }
  const claim = await readClaim(d);
  if (claim.isErr()) return err(claim.error);
  // The run's own workspace is never someone else's edit, ignored by .gitignore on this branch or not.
  const others = dirty.value.filter((p) => !inWorkspaces(p));
  return ok({ head: head.value, branch: branch.value, dirty: others, plan, claim: claim.value, startedAt: Date.now() });
}

/** Refuse before anything is spent: another plan's workspace, the plan drifted under the contract, or the self-check refuses. */
function preconditions(d: Deps, start: Start, planBytes: string | Uint8Array | undefined): R<void> {
  const mine = ownedHere(d, start.claim);
  if (mine.isErr()) return mine;
  const text = planBytes ?? start.plan;
  if (text !== null) {
    const actual = planSha256(text);
    if (actual !== d.contract.plan_sha256) return err({ code: "plan-drift", plan: d.contract.plan, recorded: d.contract.plan_sha256, actual });
  }
  return refusals(d.contract, start.plan, d.settings.includeOptional);
}

/** Ignore `.plan-runs/` (its own commit when the line is missing) and write the contract into the workspace. */
async function prepareWorkspace(d: Deps): Promise<R<string | null>> {
  const gitignore = await readText(d, inRepo(d, ".gitignore"));
  if (gitignore.isErr()) return err(gitignore.error);
  const text = gitignore.value ?? "";
  const listed = text.split(/\r?\n/).some((l) => /^\/?\.plan-runs\/?$/.test(l.trim()));
  let commit: string | null = null;
  if (!listed) {
    const w = await writeFile(d, ".gitignore", `${text}${text === "" || text.endsWith("\n") ? "" : "\n"}.plan-runs/\n`);
    if (w.isErr()) return err(w.error);
  }
  const dirty = await d.git.dirty();
  if (dirty.isErr()) return err(dirty.error);
  if (dirty.value.includes(".gitignore")) {
    const made = await d.git.commitAll(`decay(${d.slug}): ignore .plan-runs/, the executor's workspace\n`);
    if (made.isErr()) return err(made.error);
    commit = made.value;
  }
  const written = await writeFile(d, d.paths.contract, d.contractText);
  return written.map(() => commit);
}

/** Removes the workspace's REPORT.md and report.json, an earlier run's or verification's. */
async function clearReports(d: Deps): Promise<R<null>> {
  const json = await removePath(d, d.paths.reportJson);
  if (json.isErr()) return err(json.error);
  return (await removePath(d, d.paths.report)).map(() => null);
}

function included(d: Deps) {
  return stageOrder(d.contract).filter((s) => !s.optional || d.settings.includeOptional);
}

/**
 * The stage loop over every included stage, in dependency order. An included stage with no
 * acceptance row is the fault `stage-without-acceptance`, whatever the preflight handed in.
 */
export async function loopStages(
  d: Deps,
  state: RunState,
  preflight: Record<string, StageVerdict>,
  unchecked: Readonly<Record<string, string>> = {},
): Promise<R<Map<string, StageLoop>>> {
  const loops = new Map<string, StageLoop>();
  const isGreen = (id: string) => ["green", "green-at-start"].includes(loops.get(id)?.state ?? "");
  for (const stage of stageOrder(d.contract)) {
    if (stage.optional && !d.settings.includeOptional) {
      loops.set(stage.id, newLoop("optional-skipped", "optional; not asked for"));
      continue;
    }
    if (state.stop !== null) {
      loops.set(stage.id, newLoop("not-started", `not started: the run stopped (${state.stop.status}) at ${state.stop.stage}`));
      continue;
    }
    // The self-check refuses this before anything is spent; a verdict replayed or built otherwise
    // never makes a stage with nothing to run green (at the start or after an agent's work).
    if (stage.acceptance.length === 0) return err({ code: "stage-without-acceptance", stage: stage.id });
    const changed = unchecked[stage.id];
    if (changed !== undefined) {
      const green = preflight[stage.id]?.green === true;
      const reason = `${changed}: ${green ? "it does not count as green at the start" : "its work is not resumed over an acceptance changed unchecked"}`;
      const ledger = preflight[stage.id]?.ledger;
      loops.set(stage.id, { ...newLoop("escalated", reason), ledger: ledger === undefined ? [] : [ledger] });
      d.emit({ type: "escalated", stage: stage.id, reason });
      continue;
    }
    if (preflight[stage.id]?.green) {
      loops.set(stage.id, { ...newLoop("green-at-start"), ledger: [preflight[stage.id]?.ledger as string] });
      d.emit({ type: "stage-skipped", stage: stage.id, state: "green-at-start", reason: "its acceptance already passes at the start" });
      continue;
    }
    const blocker = stage.depends_on.find((dep) => !isGreen(dep));
    if (blocker !== undefined) {
      const reason = `not started: ${blocker} not green`;
      loops.set(stage.id, newLoop("not-started", reason));
      d.emit({ type: "stage-skipped", stage: stage.id, state: "not-started", reason });
      continue;
    }
    const loop = await runStage(d, state, stage);
    if (loop.isErr()) return err(loop.error);
    loops.set(stage.id, loop.value);
  }
  return ok(loops);
}

/**
 * The marker's `started at` names a commit this repository holds: else (a marker edited by hand, or
 * its commit gone with a rewritten branch and a gc) the fault names the marker and what to do,
 * where git's own "bad object" named neither.
 */
async function startedHere(d: Deps, startedAt: string, head: string): Promise<R<void>> {
  const held = await d.git.log(startedAt, head);
  if (held.isOk()) return ok(undefined);
  const reason = `it says an unfinished run started at ${startedAt}, which git cannot read here (${held.error.code === "git-failed" ? held.error.reason : held.error.code}); remove that line from the file and run again: the run then checks each stage's acceptance surface from where that stage was pinned`;
  return err({ code: "workspace-io", path: d.paths.unfinished, reason });
}

/**
 * Mark the run as started, set aside the leftovers of an unfinished run, and switch to
 * `plan/<slug>`. The stash set aside, if any.
 */
async function takeOver(d: Deps, start: Start, from: string): Promise<R<string | null>> {
  const own = `plan/${d.slug}`;
  // Only a run that did not end can have left work uncommitted on its branch (its step in flight);
  // after one that ended, what is uncommitted is someone's own work, refused and never stashed.
  const leftovers = start.dirty.length > 0;
  if (leftovers && (start.branch !== own || !start.claim.unfinished)) return err({ code: "dirty-tree", paths: start.dirty });
  const claimed = await step(d, "claim", () => claimWorkspace(d, start.claim, from));
  if (claimed.isErr()) return err(claimed.error);
  let setAside: string | null = null;
  if (leftovers) {
    const kept = await step(d, "set-aside", () => d.git.setAside(`decay(${d.slug}): leftovers of an interrupted run`));
    if (kept.isErr()) return err(kept.error);
    setAside = kept.value;
    if (setAside !== null) d.emit({ type: "set-aside", stash: setAside, paths: start.dirty });
  }
  if (start.branch !== own) {
    const switched = await step(d, "branch", () => d.git.switchBranch(own).map(() => null));
    if (switched.isErr()) return err(switched.error);
  }
  return ok(setAside);
}

async function body(d: Deps, options: RunOptions): Promise<R<RunReport>> {
  const state = newState();
  const start = await step(d, "start", () => readStart(d, options.planText));
  if (start.isErr()) return err(start.error);
  const pre = preconditions(d, start.value, options.planText);
  if (pre.isErr()) return err(pre.error);
  // Before anything is set aside, switched or run: the marker's commit must be one git can read.
  const { startedAt } = start.value.claim;
  if (startedAt !== null) {
    const held = await step(d, "started-at", () => startedHere(d, startedAt, start.value.head));
    if (held.isErr()) return err(held.error);
  }
  // An existing plan/<slug> made for another version of the plan is refused before the switch.
  const from = await step(d, "branch-plan", () => workingCommit(d, start.value));
  if (from.isErr()) return err(from.error);
  // Every stage pins its surface; one the gate cannot pin is refused here, before anything is spent.
  const pinnable = await step(d, "surface-check", async () => (await surfaceRows(d, from.value)).map((r) => r.files));
  if (pinnable.isErr()) return err(pinnable.error);
  const own = `plan/${d.slug}`;
  const taken = await takeOver(d, start.value, from.value);
  if (taken.isErr()) return err(taken.error);
  const setAside = taken.value;
  const ws = await step(d, "workspace", () => prepareWorkspace(d));
  if (ws.isErr()) return err(ws.error);
  // An earlier report names ledger files this run writes again: a run stopped before its own
  // report must leave none that its files contradict.
  const cleared = await step(d, "old-report", () => clearReports(d));
  if (cleared.isErr()) return err(cleared.error);
  const head = await step(d, "head", () => d.git.head());
  if (head.isErr()) return err(head.error);
  d.emit({ type: "run-started", slug: d.slug, branch: own, head: head.value });
  let stale: string[] = [];
  if (d.settings.assumptions !== null) {
    const rows = await step(d, "fresh", () => staleRows(d, d.settings.assumptions as string, head.value));
    if (rows.isErr()) return err(rows.error);
    stale = rows.value;
    if (stale.length > 0)
      state.stop = {
        status: "stale-plan",
        stage: "start",
        reason: "the plan's assumptions no longer hold: re-plan from the tree as it is now",
        diverged: stale,
      };
  }
  const stages = included(d);
  d.emit({ type: "command-running", stage: "*", phase: "preflight", rows: stages.flatMap((s) => s.acceptance.map((r) => r.id)) });
  const preflight = await step(d, "preflight", () =>
    verifyPass(d, { kind: "preflight", commit: head.value, ledger: d.paths.ledger, stages, attempt: null, room: "preflight" }),
  );
  if (preflight.isErr()) return err(preflight.error);
  const startGreen = stages.filter((s) => preflight.value[s.id]?.green).map((s) => s.id);
  d.emit({ type: "preflight", green: startGreen });
  // Only runs that did not end can have left commits no run checked, and only since the first of
  // them started; what changed before is someone's own work (a test edited by hand after a run
  // that ended), never held against a stage. A stage red at the start is looked at too (an execute
  // may not edit its surface): else its next base would take a killed execute's edit of its own
  // test as the acceptance to meet.
  const { claim } = start.value;
  const opened = d.settings.executeMayEditSurface ? startGreen : stages.map((s) => s.id);
  const suspect = claim.unfinished ? opened : [];
  const unchecked = await step(d, "preflight-surface", () =>
    claim.startedAt === null ? changedSinceOpened(d, suspect, head.value) : changedSinceStarted(d, suspect, claim.startedAt, head.value),
  );
  if (unchecked.isErr()) return err(unchecked.error);
  const loops = await loopStages(d, state, preflight.value, unchecked.value);
  if (loops.isErr()) return err(loops.error);
  const end = await step(d, "end-head", () => d.git.head());
  if (end.isErr()) return err(end.error);
  d.emit({ type: "command-running", stage: "*", phase: "final", rows: stages.flatMap((s) => s.acceptance.map((r) => r.id)) });
  const final = await step(d, "final", () => verifyPass(d, { kind: "final", commit: end.value, ledger: d.paths.ledger, stages, attempt: null, room: "final" }));
  if (final.isErr()) return err(final.error);
  const tail = await step(d, "finish", async () => {
    const log = await d.git.log(start.value.head, end.value);
    return log.map((commits) => ({ commits: commits.map((c) => c.id).reverse(), finishedAt: Date.now() }));
  });
  if (tail.isErr()) return err(tail.error);
  const report = buildReport(d, {
    state,
    loops: loops.value,
    preflight: preflight.value,
    final: final.value,
    startHead: start.value.head,
    startGreen,
    endHead: end.value,
    commits: tail.value.commits,
    setAside,
    wallMs: Math.max(0, tail.value.finishedAt - start.value.startedAt),
  });
  const written = await step(d, "report", () => writeReport(d, report));
  if (written.isErr()) return err(written.error);
  d.emit({ type: "done", status: report.status, green: report.end.green });
  return ok(report);
}

/**
 * Run an acceptance contract stage by stage (docs/executor.md). Every effect goes through the
 * ports in `options`; every effect happens inside a named step of `options.runner`. A stage is
 * green in the report only when the final, independent re-run of its acceptance in a fresh
 * clean room of the final HEAD passed. A fault is never a verdict: it is the error.
 */
export function runPlan(contract: Contract, options: RunOptions): ResultAsync<RunReport, ExecFault> {
  const d = depsOf(contract, options);
  if (d.isErr()) return new ResultAsync(Promise.resolve(err(d.error)));
  const deps = d.value;
  const run = () => body(deps, options).catch((e) => interrupted(deps, e));
  if (options.lock === undefined) return new ResultAsync(run());
  // Held from before the first look at the tree to after the last write, whatever the end.
  return options.lock.acquire(deps.repo).andThen((release) => new ResultAsync(run().finally(release)));
}

/** The caller aborted: write RESUME.md (nothing else is claimed) and end with the fault `interrupted`. */
async function interrupted(d: Deps, e: unknown): Promise<R<RunReport>> {
  if (!(e instanceof Interrupted)) throw e;
  const written = await writeFile(d, d.paths.resume, renderInterruptedMd(d.contract.plan, e.step, d.settings.resumeCommand));
  if (written.isErr()) return err(written.error);
  d.emit({ type: "parked", stage: e.step.split("/")[0] ?? e.step, resume: d.paths.resume });
  return err({ code: "interrupted", step: e.step });
}

/** The run's dependencies from a contract and options: the contract checked, defaults applied. */
export function depsOf(contract: Contract, options: RunOptions): Result<Deps, ExecFault> {
  return validContract(contract).andThen((c) =>
    settingsOf(options, c.plan).map((settings): Deps => {
      const slug = slugOf(c.plan);
      return {
        repo: options.repo.replace(/\/+$/, "") || "/",
        fs: options.fs,
        git: options.git,
        shell: options.shell,
        cleanRoom: options.cleanRoom,
        agent: options.agent,
        ctx: options.runner ?? inMemoryRunner(),
        patterns: options.patterns ?? directPatterns(),
        tracked: listedOnce(options.git),
        settings,
        contract: c,
        contractText: renderContract(c),
        slug,
        paths: workspacePaths(slug),
        emit: options.onEvent ?? (() => undefined),
        signal: options.signal,
      };
    }),
  );
}
