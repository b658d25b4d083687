// Whose `plan/<slug>` and `.plan-runs/<slug>/` these are, and whether the last run there ended.
// The slug comes from the plan's file name alone, so two plans can share one; the plan path
// recorded in the workspace tells them apart, and a second plan is refused instead of piling
// commits onto the first one's branch and overwriting its report.
import { parseContract } from "@decay/contract";
import { err, ok, type Result } from "neverthrow";
import type { ExecFault } from "../fault.js";
import { type Deps, inRepo, readText, writeFile } from "./deps.js";

type R<T> = Result<T, ExecFault>;

/** What the workspace says before a run or a verification uses it. */
export interface WorkspaceClaim {
  /** The plan the workspace belongs to; null when none is recorded yet. */
  readonly owner: string | null;
  /** A run started here and has not ended with a report (interrupted, killed, parked or stopped by a fault). */
  readonly unfinished: boolean;
  /**
   * When unfinished: the commit `plan/<slug>` stood at when the first of the runs that have not
   * ended started (every commit since is theirs, and some no run checked); null when the marker
   * names none (a marker written before it did).
   */
  readonly startedAt: string | null;
}

const STARTED_AT = /^started at ([0-9a-f]{40}|[0-9a-f]{64})$/m;

/** The plan a workspace records: its `plan.txt`, or for a workspace made before that file existed, its contract.md's plan. */
async function recordedOwner(d: Deps): Promise<R<string | null>> {
  const recorded = await readText(d, inRepo(d, d.paths.owner));
  if (recorded.isErr()) return err(recorded.error);
  const line = recorded.value?.replace(/\r?\n$/, "") ?? "";
  if (line !== "") return ok(line);
  const contract = await readText(d, inRepo(d, d.paths.contract));
  if (contract.isErr()) return err(contract.error);
  if (contract.value === null) return ok(null);
  const parsed = parseContract(contract.value);
  return ok(parsed.isOk() ? parsed.value.plan : null);
}

/** Read the workspace's claim: whose it is, and whether a run there is unfinished. */
export async function readClaim(d: Deps): Promise<R<WorkspaceClaim>> {
  const owner = await recordedOwner(d);
  if (owner.isErr()) return err(owner.error);
  const marker = await readText(d, inRepo(d, d.paths.unfinished));
  if (marker.isErr()) return err(marker.error);
  const startedAt = marker.value === null ? null : (STARTED_AT.exec(marker.value)?.[1] ?? null);
  return ok({ owner: owner.value, unfinished: marker.value !== null, startedAt });
}

/** A workspace recorded for another plan is the fault `workspace-taken`: nothing of it is used. */
export function ownedHere(d: Deps, claim: WorkspaceClaim): R<void> {
  if (claim.owner === null || claim.owner === d.contract.plan) return ok(undefined);
  return err({ code: "workspace-taken", slug: d.slug, plan: d.contract.plan, owner: claim.owner });
}

/**
 * Record this plan as the workspace's owner when none is yet, and for a run starting at commit
 * `run` mark a run as started: the marker names where the first run that has not ended started
 * (kept from the marker there, if any).
 */
export async function claimWorkspace(d: Deps, claim: WorkspaceClaim, run: string | null): Promise<R<null>> {
  if (claim.owner === null) {
    const written = await writeFile(d, d.paths.owner, `${d.contract.plan}\n`);
    if (written.isErr()) return err(written.error);
  }
  if (run === null) return ok(null);
  const since = claim.unfinished ? (claim.startedAt ?? run) : run;
  const text = `A run of ${d.contract.plan} started and has not ended with a report: what it leaves uncommitted on plan/${d.slug} is set aside when it runs again.\nstarted at ${since}\n`;
  return (await writeFile(d, d.paths.unfinished, text)).map(() => null);
}

/** For a verification: refuse another plan's workspace, and record this plan when none is recorded. */
export async function claimForVerification(d: Deps): Promise<R<null>> {
  const claim = await readClaim(d);
  if (claim.isErr()) return err(claim.error);
  const mine = ownedHere(d, claim.value);
  if (mine.isErr()) return err(mine.error);
  return claimWorkspace(d, claim.value, null);
}
