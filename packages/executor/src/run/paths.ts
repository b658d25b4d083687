// POSIX path helpers for the run's workspace, so the core needs no runtime path module.
import { isAbsolutePath, posixNormalize } from "@decay/portable";

/** Join path segments with `/`, collapsing doubled separators; absolute when the first is. */
export function joinPath(...parts: string[]): string {
  const joined = parts.filter((p) => p !== "").join("/");
  return joined.replace(/\/{2,}/g, "/").replace(/(.)\/$/, "$1");
}

/** The run's slug: the plan file's base name without `.plan.md`/`.md`, lowercased, `[a-z0-9-]` only. */
export function slugOf(planPath: string): string {
  const base = planPath.split(/[\\/]/).pop() ?? planPath;
  const stem = base.replace(/\.md$/i, "").replace(/\.(plan|contract)$/i, "");
  const slug = stem
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return slug === "" ? "plan" : slug.slice(0, 60);
}

/**
 * `rel` read from the repository folder `dir` (`""` for the top) as git reads a path: `.` and empty
 * components dropped, `..` taking the one before it away. `""` is the top; null for an absolute
 * path or one that climbs out of the repository.
 */
export function inRepository(dir: string, rel: string): string | null {
  if (isAbsolutePath(rel)) return null;
  const path = posixNormalize(dir === "" ? rel : `${dir}/${rel}`);
  // A `..` left at the front is one the repository's top could not take away.
  if (path === ".." || path.startsWith("../")) return null;
  return path === "." ? "" : path;
}

/** The folder of every run's workspace, relative to the repository root. */
export const WORKSPACES = ".plan-runs";

/** Whether a repository path (as git lists it) lies in the runs' workspace folder: the run's own records, never work. */
export function inWorkspaces(path: string): boolean {
  return path === WORKSPACES || path.startsWith(`${WORKSPACES}/`);
}

/** Where everything of one run lives, relative to the repository root. */
export interface WorkspacePaths {
  readonly root: string;
  readonly contract: string;
  /** The run's own ledger files (`preflight-Sk.md`, `verify-Sk-an.md`, `final-Sk.md`). */
  readonly ledger: string;
  /** Where `verifyContract` (`decay preflight`, `decay verify`) writes, one folder per commit judged: never the run's ledger. */
  readonly verifications: string;
  readonly freeze: string;
  readonly report: string;
  readonly reportJson: string;
  readonly resume: string;
  /** The path of the plan this workspace and `plan/<slug>` belong to, one line; written when the workspace is first used. */
  readonly owner: string;
  /** There from a run's start until it ends with a report other than parked: the last run did not end. */
  readonly unfinished: string;
}

/** The workspace of a run: `.plan-runs/<slug>/` inside the repository. */
export function workspacePaths(slug: string): WorkspacePaths {
  const root = `${WORKSPACES}/${slug}`;
  return {
    root,
    contract: `${root}/contract.md`,
    ledger: `${root}/ledger`,
    verifications: `${root}/verifications`,
    freeze: `${root}/freeze`,
    report: `${root}/REPORT.md`,
    reportJson: `${root}/report.json`,
    resume: `${root}/RESUME.md`,
    owner: `${root}/plan.txt`,
    unfinished: `${root}/unfinished.txt`,
  };
}

/** A full commit id, SHA-1 or SHA-256; a ref or an abbreviated id may name another commit later. */
export function isFullCommitId(text: string): boolean {
  return /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(text);
}

/**
 * The folder of a standalone verification's ledger files (`verifyContract`: `decay preflight`,
 * `decay verify`) at `commit`: `.plan-runs/<slug>/verifications/<commit>`.
 */
export function verificationLedger(paths: Pick<WorkspacePaths, "verifications">, commit: string): string {
  return `${paths.verifications}/${commit}`;
}
