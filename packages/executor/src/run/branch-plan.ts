// Whether an existing `plan/<slug>` was made for the plan the run executes: the branch's own plan
// file is the one its stages pin, so a branch made for another version of the plan is refused
// before the run switches to it.
import { planSha256 } from "@decay/contract";
import { err, ok, type Result } from "neverthrow";
import type { ExecFault } from "../fault.js";
import type { Deps } from "./deps.js";
import { inRepository } from "./paths.js";

type R<T> = Result<T, ExecFault>;

/** The plan's path from the repository's top, as the contract names it; null when it lies outside. */
function planInRepo(d: Deps): string | null {
  const plan = d.contract.plan;
  const rel = plan.startsWith(`${d.repo}/`) ? plan.slice(d.repo.length + 1) : plan;
  const path = inRepository("", rel);
  return path === "" ? null : path;
}

/** sha256 of the plan file at `commit`; null when the commit holds no such file. */
async function planAt(d: Deps, commit: string, path: string): Promise<R<string | null>> {
  const read = await d.git.tree(commit).read(path, d.settings.maxReadBytes);
  if (read.isOk()) return ok(planSha256(read.value));
  if (read.error.code === "tree-not-found") return ok(null);
  return err({ code: "workspace-io", path: `${path} at ${commit}`, reason: read.error.message });
}

/**
 * The commit the run will work from: HEAD when it is already on `plan/<slug>` or no such branch
 * exists, else the branch's commit, when its plan file is the contract's plan (or the plan is
 * tracked neither there nor at HEAD). A branch whose plan file differs, or lacks one HEAD
 * tracks, is the fault `branch-plan-differs`: switching to it would run the old plan's branch.
 */
export async function workingCommit(d: Deps, start: { head: string; branch: string | null }): Promise<R<string>> {
  const own = `plan/${d.slug}`;
  if (start.branch === own) return ok(start.head);
  const tip = await d.git.branchHead(own);
  if (tip.isErr() || tip.value === null) return tip.map(() => start.head);
  const path = planInRepo(d);
  if (path === null) return ok(tip.value);
  const there = await planAt(d, tip.value, path);
  if (there.isErr()) return err(there.error);
  if (there.value === d.contract.plan_sha256) return ok(tip.value);
  if (there.value === null) {
    const here = await planAt(d, start.head, path);
    if (here.isErr()) return err(here.error);
    if (here.value === null) return ok(tip.value);
  }
  return err({ code: "branch-plan-differs", branch: own, commit: tip.value, plan: d.contract.plan, recorded: d.contract.plan_sha256, actual: there.value });
}
