// Whether an existing `plan/<slug>` was made for the plan the run executes: the branch's own plan
// file is the one its stages pin, so a branch made for another version of the plan is refused
// before the run switches to it.
import { planSha256 } from "@decay/contract";
import { sameBytes } from "@decay/portable";
import { err, ok, type Result } from "neverthrow";
import type { ExecFault } from "../fault.js";
import { type Deps, inRepo, readBytes } from "./deps.js";
import { inRepository } from "./paths.js";
import { planPath } from "./plan-place.js";

type R<T> = Result<T, ExecFault>;

/** Links followed inside the tree before the plan is taken as unreadable. */
const MOST_LINKS = 8;

/**
 * The plan file's bytes at `commit`, its links followed inside the tree (a link leaving it, or more
 * than MOST_LINKS, is read as its own text); null when the commit holds no such file.
 */
async function planAt(d: Deps, commit: string, path: string): Promise<R<Uint8Array | null>> {
  const tree = d.git.tree(commit);
  let at = path;
  for (let hops = 0; ; hops += 1) {
    const read = await tree.read(at, d.settings.maxReadBytes);
    if (read.isOk()) return ok(read.value);
    if (read.error.code === "tree-not-found") return ok(null);
    const link = read.error.code === "tree-not-a-file" ? await tree.readLink(at) : undefined;
    if (link === undefined || link.isErr()) return err({ code: "workspace-io", path: `${at} at ${commit}`, reason: read.error.message });
    // The link read from the directory it sits in, as a path from the top; null when it leaves the tree.
    const slash = at.lastIndexOf("/");
    const next = hops < MOST_LINKS ? inRepository(slash === -1 ? "" : at.slice(0, slash), link.value) : null;
    if (next === null) return ok(new TextEncoder().encode(`link ${link.value}`));
    at = next;
  }
}

/** `bytes` with each CR LF as LF: what git's line-end rules (`core.autocrlf`, `eol=crlf`) undo on the way in. */
function lfOnly(bytes: Uint8Array): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < bytes.length; i++) if (!(bytes[i] === 13 && bytes[i + 1] === 10)) out.push(bytes[i] as number);
  return Uint8Array.from(out);
}

/**
 * Whether the working tree's plan, the file the contract was compiled from (its hash is the
 * contract's), is `committed` once its CR LF are read as LF: git checks a file out through its
 * line-end rules, so the bytes the contract hashed may hold CR LF where the committed ones hold LF.
 * The bytes themselves are compared, never what `git status` says, which a flag
 * (`assume-unchanged`, `skip-worktree`) can silence.
 */
async function checkedOutFrom(d: Deps, path: string, committed: Uint8Array): Promise<R<boolean>> {
  const working = await readBytes(d, inRepo(d, path));
  if (working.isErr()) return err(working.error);
  const bytes = working.value;
  return ok(bytes !== null && planSha256(bytes) === d.contract.plan_sha256 && sameBytes(lfOnly(bytes), lfOnly(committed)));
}

/**
 * The commit the run will work from: HEAD when it is already on `plan/<slug>` or no such branch
 * exists, else the branch's commit, when its plan file is the contract's plan: the same bytes, or
 * the same once CR LF is read as LF (`checkedOutFrom`: git may have changed its line ends on
 * checkout); or the plan is tracked neither there nor at HEAD. A branch whose
 * plan file differs, or lacks one HEAD tracks, is the fault `branch-plan-differs`: switching to it
 * would run the old plan's branch.
 */
export async function workingCommit(d: Deps, start: { head: string; branch: string | null }): Promise<R<string>> {
  const own = `plan/${d.slug}`;
  if (start.branch === own) return ok(start.head);
  const tip = await d.git.branchHead(own);
  if (tip.isErr() || tip.value === null) return tip.map(() => start.head);
  const placedPlan = await planPath(d);
  if (placedPlan.isErr()) return err(placedPlan.error);
  const path = placedPlan.value;
  if (path === null) return ok(tip.value);
  const there = await planAt(d, tip.value, path);
  if (there.isErr()) return err(there.error);
  const actual = there.value === null ? null : planSha256(there.value);
  if (actual === d.contract.plan_sha256) return ok(tip.value);
  const here = await planAt(d, start.head, path);
  if (here.isErr()) return err(here.error);
  if (there.value === null && here.value === null) return ok(tip.value);
  if (there.value !== null) {
    const same = await checkedOutFrom(d, path, there.value);
    if (same.isErr()) return err(same.error);
    if (same.value) return ok(tip.value);
  }
  return err({ code: "branch-plan-differs", branch: own, commit: tip.value, plan: d.contract.plan, recorded: d.contract.plan_sha256, actual });
}
