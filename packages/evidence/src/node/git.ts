import { execFile } from "node:child_process";
import { err, ok, ResultAsync } from "neverthrow";
import type { StoreFault } from "../store/fault.js";
import type { GitRun, GitRunner } from "../store/port.js";

/** The environment without any inherited `GIT_*` variable, so git reads the repository itself. */
export function withoutGitVars(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) {
    if (!k.startsWith("GIT_") && v !== undefined) kept[k] = v;
  }
  return kept;
}

/**
 * Runs `git -C repo ...args` in `env` (with this process's PATH when `env` has none) minus every
 * `GIT_*` variable. Any exit status is a value; only a
 * git that cannot run at all (or dies by a signal) is a `git-failed` fault.
 */
export const runGit: GitRunner = (repo, args, env): ResultAsync<GitRun, StoreFault> => {
  const all = ["-C", repo, ...args];
  return new ResultAsync(
    new Promise((resolve) => {
      try {
        execFile("git", all, { env: withoutGitVars({ PATH: process.env.PATH, ...env }), encoding: "utf8", maxBuffer: 16 << 20 }, (e, stdout, stderr) => {
          const status = e === null ? 0 : typeof e.code === "number" ? e.code : null;
          if (status === null) resolve(err({ code: "git-failed", args, detail: stderr.trim() || e?.message || "git did not run" }));
          else resolve(ok({ status, stdout }));
        });
      } catch (e) {
        resolve(err({ code: "git-failed", args, detail: e instanceof Error ? e.message : String(e) }));
      }
    }),
  );
};
