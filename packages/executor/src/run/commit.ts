import type { Stage } from "@decay/contract";
import { err, ok, type Result } from "neverthrow";
import type { ExecFault } from "../fault.js";
import { type Deps, step } from "./deps.js";
import { inWorkspaces, WORKSPACES } from "./paths.js";

/**
 * Make a commit once: when a commit since `base` already carries this step's `Decay-Step:` marker
 * (the step ran before and was interrupted), that commit is the result and nothing is made again.
 * `make` gets the marker line to put in its message and answers the new commit (null: nothing to
 * commit, HEAD is the result).
 */
async function once(
  d: Deps,
  base: string,
  key: string,
  make: (marker: string) => PromiseLike<Result<string | null, ExecFault>>,
): Promise<Result<string, ExecFault>> {
  const marker = `Decay-Step: ${d.slug}/${key}`;
  const head = await d.git.head();
  if (head.isErr()) return err(head.error);
  const log = await d.git.log(base, head.value);
  if (log.isErr()) return err(log.error);
  const done = log.value.find((c) => c.message.includes(marker));
  if (done) return ok(done.id);
  const made = await make(marker);
  return made.map((id) => id ?? head.value);
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
export async function commitStep(
  d: Deps,
  at: { base: string; since: string },
  stage: Stage,
  attempt: number,
  what: "execute" | "fix",
): Promise<Result<string, ExecFault>> {
  const after = `the ${what} call of ${stage.id} (attempt ${attempt})`;
  const on = await onOwnBranch(d, at.since, after);
  if (on.isErr()) return err(on.error);
  const kept = await workspaceKeptOut(d, at.since, on.value, after);
  if (kept.isErr()) return err(kept.error);
  const key = `${stage.id}/a${attempt}/commit`;
  return step(d, key, () =>
    once(d, at.base, key, (marker) =>
      d.git.commitAll(`decay(${d.slug}): ${stage.id} ${stage.title || stage.label}, attempt ${attempt} (${what})\n\n${marker}\n`),
    ),
  );
}

/**
 * Undo a refused fix or execute, as a step safe to run twice: one commit reverting every commit
 * since `from` (the HEAD before the call), the agent's own commits included. The last commit undone
 * and the revert commit; null when HEAD is still `from`.
 */
export async function revertStep(
  d: Deps,
  base: string,
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
  const message = `decay(${d.slug}): revert ${from.slice(0, 12)}..${to.slice(0, 12)}, ${what === "fix" ? "a fix" : "an execute"} that touched acceptance\n\n`;
  // `to` is part of the step's result, so a resumed run reports the range it undid, not its own revert.
  return step(d, key, async () => {
    const by = await once(d, base, key, (marker) => d.git.revert(from, to, `${message}${marker}\n`).map((id): string | null => id));
    return by.map((id) => ({ to, by: id }));
  });
}
