import type { Stage } from "@decay/contract";
import { err, ok, type Result } from "neverthrow";
import type { ExecFault } from "../fault.js";
import { type Deps, step } from "./deps.js";
import { inWorkspaces, WORKSPACES } from "./paths.js";

/**
 * Make a commit once. Where HEAD stood when the step first began (`from`) is recorded as a step of
 * its own before anything is made; when HEAD is now one commit on top of it carrying this step's
 * `Decay-Step:` marker line (the step made it and was interrupted before it was recorded), that
 * commit is the result and nothing is made again. Any other commit carrying the marker is not the
 * run's: an agent may write any message, and a commit it made during its call, or earlier, is never
 * taken for the run's own. `make` gets the marker line to put in its message and answers the new
 * commit (null: nothing to commit, HEAD is the result).
 */
async function once(
  d: Deps,
  from: string,
  key: string,
  make: (marker: string) => PromiseLike<Result<string | null, ExecFault>>,
): Promise<Result<string, ExecFault>> {
  const marker = `Decay-Step: ${d.slug}/${key}`;
  const head = await d.git.head();
  if (head.isErr()) return err(head.error);
  if (head.value !== from) {
    const log = await d.git.log(from, head.value);
    if (log.isErr()) return err(log.error);
    const [only] = log.value;
    if (log.value.length === 1 && only?.id === head.value && only.message.split("\n").includes(marker)) return ok(head.value);
  }
  const made = await make(marker);
  return made.map((id) => id ?? head.value);
}

/**
 * A step made once (`once`), HEAD before it recorded first as the step `<key>/from`; `make` also
 * gets that HEAD. Answers the commit and where HEAD stood before it.
 */
async function madeOnce(
  d: Deps,
  key: string,
  make: (marker: string, from: string) => PromiseLike<Result<string | null, ExecFault>>,
): Promise<Result<{ from: string; id: string }, ExecFault>> {
  const from = await step(d, `${key}/from`, () => d.git.head());
  if (from.isErr()) return err(from.error);
  const made = await step(d, key, () => once(d, from.value, key, (marker) => make(marker, from.value)));
  return made.map((id) => ({ from: from.value, id }));
}

/**
 * The run's own branch is still checked out and `since` is still in its history. An agent call may
 * add commits, never switch branches or rewrite what the run verified; checked after every agent
 * call and before every commit, so no commit of the run lands anywhere else.
 */
export async function onOwnBranch(d: Deps, since: string, after: string): Promise<Result<string, ExecFault>> {
  const own = `plan/${d.slug}`;
  const branch = await d.git.branch();
  if (branch.isErr()) return err(branch.error);
  if (branch.value !== own) return err({ code: "branch-switched", expected: own, actual: branch.value, after });
  const head = await d.git.head();
  if (head.isErr()) return err(head.error);
  // Commits of `since` that HEAD no longer reaches: a reset, rebase or amend took them away.
  const lost = await d.git.log(head.value, since);
  if (lost.isErr()) return err(lost.error);
  if (lost.value.length > 0) return err({ code: "history-rewritten", branch: own, commit: since, head: head.value, after });
  return ok(head.value);
}

/** HEAD and the paths with uncommitted changes before a call that only reads. */
export interface Untouched {
  readonly head: string;
  readonly dirty: readonly string[];
}

/** The repository as a read-only call (diagnose, adjudicate) is about to find it. */
export async function untouchedBefore(d: Deps, head: string): Promise<Result<Untouched, ExecFault>> {
  return (await d.git.dirty()).map((dirty) => ({ head, dirty }));
}

/**
 * A call that only reads left HEAD where it was and changed no path that was clean before: its
 * edits would otherwise be committed as the next fix's work, and the lenses asked after it would
 * see them. Else the fault `read-only-call-wrote`, naming the call (`after`) and what it changed.
 */
export async function leftUntouched(d: Deps, before: Untouched, after: string): Promise<Result<void, ExecFault>> {
  const head = await d.git.head();
  if (head.isErr()) return err(head.error);
  const dirty = await d.git.dirty();
  if (dirty.isErr()) return err(dirty.error);
  const was = new Set(before.dirty);
  const paths = dirty.value.filter((p) => !was.has(p));
  const moved = head.value === before.head ? null : head.value;
  return paths.length === 0 && moved === null ? ok(undefined) : err({ code: "read-only-call-wrote", after, paths, head: moved });
}

/**
 * Nothing of the runs' workspace is about to be committed: no path under `.plan-runs/` shows as a
 * change (an agent took its line out of .gitignore) and no commit since `since` holds one (an agent
 * added it itself). Else the fault `workspace-unignored`: the branch would carry the run's ledgers.
 */
async function workspaceKeptOut(d: Deps, since: string, head: string, after: string): Promise<Result<void, ExecFault>> {
  const dirty = await d.git.dirty();
  if (dirty.isErr()) return err(dirty.error);
  const commits = await d.git.log(since, head, [WORKSPACES]);
  if (commits.isErr()) return err(commits.error);
  const paths = dirty.value.filter(inWorkspaces);
  return paths.length === 0 && commits.value.length === 0
    ? ok(undefined)
    : err({ code: "workspace-unignored", after, paths, commits: commits.value.map((c) => c.id) });
}

/**
 * Commit what an execute or fix call left in the working tree, as a step safe to run twice, once
 * the branch is checked to still hold `since` (the HEAD before the call). Returns HEAD afterwards
 * (unchanged when there was nothing to commit).
 */
export async function commitStep(d: Deps, at: { since: string }, stage: Stage, attempt: number, what: "execute" | "fix"): Promise<Result<string, ExecFault>> {
  const after = `the ${what} call of ${stage.id} (attempt ${attempt})`;
  const on = await onOwnBranch(d, at.since, after);
  if (on.isErr()) return err(on.error);
  const kept = await workspaceKeptOut(d, at.since, on.value, after);
  if (kept.isErr()) return err(kept.error);
  const key = `${stage.id}/a${attempt}/commit`;
  const made = await madeOnce(d, key, (marker) =>
    d.git.commitAll(`decay(${d.slug}): ${stage.id} ${stage.title || stage.label}, attempt ${attempt} (${what})\n\n${marker}\n`),
  );
  return made.map(({ id }) => id);
}

/**
 * Undo a refused fix or execute, as a step safe to run twice: one commit reverting every commit
 * since `from` (the HEAD before the call), the agent's own commits included. The last commit undone
 * and the revert commit; null when HEAD is still `from`.
 */
export async function revertStep(
  d: Deps,
  stage: Stage,
  attempt: number,
  from: string,
  what: "execute" | "fix" = "fix",
): Promise<Result<{ to: string; by: string } | null, ExecFault>> {
  const on = await onOwnBranch(d, from, `the refused ${what} of ${stage.id} (attempt ${attempt})`);
  if (on.isErr()) return err(on.error);
  const to = on.value;
  if (to === from) return ok(null);
  const key = `${stage.id}/a${attempt}/revert`;
  const message = (upTo: string) =>
    `decay(${d.slug}): revert ${from.slice(0, 12)}..${upTo.slice(0, 12)}, ${what === "fix" ? "a fix" : "an execute"} that touched acceptance\n\n`;
  // The range's end is HEAD as recorded when the step began, so a resumed run reverts and reports
  // the range it undid, never its own revert.
  const made = await madeOnce(d, key, (marker, upTo) => d.git.revert(from, upTo, `${message(upTo)}${marker}\n`).map((id): string | null => id));
  return made.map(({ from: upTo, id }) => ({ to: upTo, by: id }));
}
