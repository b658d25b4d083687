// A fleet worker's side of a run's repository: clone the job's source into the worker's own
// workspace (fetch only: nothing is ever pushed), read REPORT.md back, write a git bundle.
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { err, ok, type Result } from "neverthrow";
import type { ExecFault } from "../../fault.js";
import type { RunReport } from "../../schema.js";
import { thrown } from "./fault.js";
import type { Bundle, Checkout, Results } from "./workflow.js";

function git(args: readonly string[], cwd: string, env?: Readonly<Record<string, string | undefined>>): Promise<Result<string, ExecFault>> {
  return new Promise((resolve) => {
    execFile("git", [...args], { cwd, env: { ...(env ?? process.env), GIT_TERMINAL_PROMPT: "0" }, maxBuffer: 16 << 20 }, (e, stdout, stderr) => {
      if (e === null) resolve(ok(stdout.trim()));
      else resolve(err({ code: "git-failed", op: args[0] ?? "git", reason: String(stderr).trim() || thrown(e) }));
    });
  });
}

/**
 * Clone the job's repository (a path or git URL) into `<workspace>/<run id>` and check out its base
 * commit, detached. A directory left by a clone that was killed half-way is removed first: nothing
 * of the run has happened in it yet, since this step's result was never recorded.
 */
export function gitCheckout(workspace: string, env?: Readonly<Record<string, string | undefined>>): Checkout {
  return async (job, runId) => {
    const dir = join(workspace, runId);
    try {
      mkdirSync(workspace, { recursive: true });
      if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
    } catch (e) {
      return err({ code: "workspace-io", path: dir, reason: thrown(e) });
    }
    const cloned = await git(["clone", "--quiet", "--no-checkout", "--", job.repo, dir], workspace, env);
    if (cloned.isErr()) return err(cloned.error);
    const base = job.base ?? "HEAD";
    const checked = await git(["checkout", "--quiet", "--detach", base], dir, env);
    return checked.map(() => dir);
  };
}

/** The embedded checkout: the job's repository is the working directory itself. */
export const inPlace: Checkout = async (job) => ok(job.repo);

/** REPORT.md of a finished run, read from its workspace; null when it is not there. */
export const readReportMd: Results = async (dir: string, report: RunReport) => {
  try {
    return readFileSync(join(dir, report.workspace, "REPORT.md"), "utf8");
  } catch {
    return null;
  }
};

/** Write the run's branch as `<dir>/<run id>.bundle` (`git bundle create`), for an operator to fetch from. */
export function gitBundle(into: string, env?: Readonly<Record<string, string | undefined>>): Bundle {
  return async (repo, branch, runId) => {
    const file = join(into, `${runId}.bundle`);
    try {
      mkdirSync(into, { recursive: true });
    } catch (e) {
      return err({ code: "workspace-io", path: into, reason: thrown(e) });
    }
    return (await git(["bundle", "create", "--quiet", file, branch], repo, env)).map(() => file);
  };
}
