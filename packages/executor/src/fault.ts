import { thrownCode } from "@decay/portable";
import type { Finding } from "@decay/contract";

/**
 * Every expected failure of @decay/executor: a stable `code` plus the data that names the input.
 * A fault is never a verdict: a run that hits one reports no stage green or red.
 */
export type ExecFault =
  | { code: "contract-invalid"; issue: string }
  | { code: "self-check-refused"; findings: Finding[] }
  | { code: "plan-drift"; plan: string; recorded: string; actual: string }
  | { code: "depends-unknown"; stage: string; ref: string }
  | { code: "depends-cycle"; stages: string[] }
  | { code: "dirty-tree"; paths: string[] }
  | { code: "no-head"; repo: string }
  | { code: "git-failed"; op: string; reason: string }
  | { code: "shell-failed"; command: string; cwd: string; reason: string }
  | { code: "room-failed"; commit: string; reason: string }
  | { code: "setup-failed"; commit: string; command: string; exit: number | null; timedOut: boolean; stderr: string }
  | { code: "workspace-io"; path: string; reason: string }
  | { code: "assumptions-fault"; path: string; message: string }
  /** The acceptance surface at `commit` cannot be written as assumptions rows: `message` names the file and why. */
  | { code: "surface-unpinnable"; commit: string; message: string }
  /** `option` as the caller knows it: an options key (`dir`), or the variable a CLI took it from (`$TMPDIR`). */
  | { code: "option-invalid"; option: string; issue: string }
  | { code: "interrupted"; step: string }
  | { code: "branch-switched"; expected: string; actual: string | null; after: string }
  | { code: "history-rewritten"; branch: string; commit: string; head: string; after: string }
  /** A call that only reads (diagnose, adjudicate) changed paths, or committed (`head`: where HEAD is now, else null). */
  | { code: "read-only-call-wrote"; after: string; paths: string[]; head: string | null }
  /** The runs' workspace (`.plan-runs/`) would be committed: `paths` no longer ignored, `commits` an agent made that hold it. */
  | { code: "workspace-unignored"; after: string; paths: string[]; commits: string[] }
  | { code: "workspace-taken"; slug: string; plan: string; owner: string }
  /** Another run holds the working tree (`RunLock`): `holder` says which (pid, host, since), `lock` where its claim is. */
  | { code: "run-in-progress"; repo: string; holder: string; lock: string }
  /** `branch` (at `commit`) holds another version of the plan than the contract's (`actual`: its sha256 there, null when it holds none). */
  | { code: "branch-plan-differs"; branch: string; commit: string; plan: string; recorded: string; actual: string | null }
  | { code: "repo-not-top"; repo: string; top: string }
  | { code: "stage-without-acceptance"; stage: string }
  | { code: "pattern-timeout"; row: string; pattern: string; timeoutMs: number }
  | { code: "pattern-interrupted"; row: string; pattern: string };

/** Every fault code, for exhaustive tables (exit codes, docs). */
export const EXEC_FAULT_CODES = [
  "contract-invalid",
  "self-check-refused",
  "plan-drift",
  "depends-unknown",
  "depends-cycle",
  "dirty-tree",
  "no-head",
  "git-failed",
  "shell-failed",
  "room-failed",
  "setup-failed",
  "workspace-io",
  "assumptions-fault",
  "surface-unpinnable",
  "option-invalid",
  "interrupted",
  "branch-switched",
  "history-rewritten",
  "read-only-call-wrote",
  "workspace-unignored",
  "workspace-taken",
  "run-in-progress",
  "branch-plan-differs",
  "repo-not-top",
  "stage-without-acceptance",
  "pattern-timeout",
  "pattern-interrupted",
] as const satisfies readonly ExecFault["code"][];

/** Where bytes stop being UTF-8, in words: the first byte that cannot be decoded and its offset. */
export function badUtf8Said(bytes: Uint8Array, at: number): string {
  return `byte 0x${(bytes[at] ?? 0).toString(16).toUpperCase().padStart(2, "0")} at byte offset ${at} cannot be decoded`;
}

const list = (items: readonly string[], max = 10) => items.slice(0, max).join(", ") + (items.length > max ? `, and ${items.length - max} more` : "");

/** The sentence for a fault, rendered from its data; the one place executor faults become words. */
export function describeExecFault(fault: ExecFault): string {
  switch (fault.code) {
    case "contract-invalid":
      return `the contract is invalid: ${fault.issue}`;
    case "self-check-refused":
      return `the contract's self-check refuses to start: ${fault.findings.map((f) => f.message).join("; ")}`;
    case "plan-drift":
      return `the plan ${fault.plan} changed under its contract: the contract records sha256 ${fault.recorded}, the plan now hashes to ${fault.actual}; compile the contract again`;
    case "depends-unknown":
      return `stage ${fault.stage} depends on ${fault.ref}, which is no stage of this contract`;
    case "depends-cycle":
      return `stages ${fault.stages.join(" -> ")} depend on each other in a cycle`;
    case "dirty-tree":
      return `the working tree has uncommitted changes (${list(fault.paths)}); the run commits and must not sweep them in: commit or stash them first`;
    case "no-head":
      return `${fault.repo} has no commit yet; a run starts from a commit`;
    case "git-failed":
      return `git ${fault.op} failed: ${fault.reason}`;
    case "shell-failed":
      return `could not run ${JSON.stringify(fault.command)} in ${fault.cwd}: ${fault.reason}`;
    case "room-failed":
      return `could not materialise commit ${fault.commit} in a clean room: ${fault.reason}`;
    case "setup-failed":
      return `the clean-room setup ${JSON.stringify(fault.command)} failed at commit ${fault.commit} (${fault.timedOut ? "timed out" : `exit ${fault.exit}`}): ${fault.stderr.trim().split("\n").slice(-3).join(" / ")}`;
    case "workspace-io":
      return `${fault.path}: ${fault.reason}`;
    case "assumptions-fault":
      return `the assumptions file ${fault.path} could not be checked: ${fault.message}`;
    case "surface-unpinnable":
      return `the acceptance surface at ${fault.commit.slice(0, 12)} cannot be pinned, so no stage could be held to it: ${fault.message}; rename that file, or keep it off the surface (the acceptance commands, the pin globs)`;
    case "option-invalid":
      return `${fault.option.startsWith("$") ? fault.option : `option ${fault.option}`}: ${fault.issue}`;
    case "interrupted":
      return `the run was interrupted at step ${fault.step}`;
    case "branch-switched":
      return `after ${fault.after}, ${fault.actual === null ? "HEAD is detached" : `branch ${fault.actual} is checked out`}, not the run's branch ${fault.expected}: the run makes no commit anywhere else; switch back to ${fault.expected} and run again`;
    case "history-rewritten":
      return `after ${fault.after}, ${fault.branch} no longer holds commit ${fault.commit} (HEAD is ${fault.head}): its history was rewritten (a reset, rebase or amend); the run commits only on top of what it verified`;
    case "read-only-call-wrote":
      return `${fault.after} only reads, but it ${[
        ...(fault.paths.length > 0 ? [`changed ${list(fault.paths)} in the working tree`] : []),
        ...(fault.head === null ? [] : [`committed (HEAD is now ${fault.head})`]),
      ].join(" and ")}: the run commits an execute's or a fix's work only, and the diagnoses after it must not see it; undo that and run again`;
    case "workspace-unignored":
      return `after ${fault.after}, the runs' workspace .plan-runs/ would be committed (${list([...fault.paths, ...fault.commits.map((c) => `commit ${c.slice(0, 12)}`)])}): the run never commits its own records; keep .plan-runs/ ignored (its line in .gitignore) and untracked (git rm -r --cached .plan-runs)${fault.commits.length > 0 ? ", drop those commits" : ""}, then run again`;
    case "workspace-taken":
      return `the slug ${JSON.stringify(fault.slug)} of the plan ${fault.plan} is taken: the workspace .plan-runs/${fault.slug}/ and the branch plan/${fault.slug} belong to the plan ${fault.owner} (plan files with the same name share a slug); rename ${fault.plan} so its file name differs, or, once ${fault.owner}'s run is no longer wanted, remove .plan-runs/${fault.slug}/ and the branch plan/${fault.slug}`;
    case "run-in-progress":
      return `another run holds the working tree ${fault.repo} (${fault.holder}): two runs in one working tree would take each other's work; wait for it to end, or, if it is gone, remove ${fault.lock} and run again`;
    case "branch-plan-differs":
      return `${fault.branch} (at ${fault.commit.slice(0, 12)}) was made for another version of the plan ${fault.plan}: ${fault.actual === null ? "it holds no such file" : `there the plan hashes to sha256 ${fault.actual}`}, the contract records ${fault.recorded}; running would carry on that branch under its old plan. To go on with the new plan there, switch to ${fault.branch}, bring the new plan onto it (merge or commit it) and run again; to start afresh, rename the old branch (git branch -m ${fault.branch} ${fault.branch}-old)`;
    case "repo-not-top":
      return `${fault.repo} is not the top of its git working tree, ${fault.top} is: a clean room is a checkout of the whole repository and runs acceptance at its top; run in ${fault.top}`;
    case "stage-without-acceptance":
      return `stage ${fault.stage} has no acceptance row: nothing can verify it, and a stage is never green by default`;
    case "pattern-timeout":
      return `acceptance row ${fault.row}: matching /${fault.pattern}/ against the command's output took longer than ${fault.timeoutMs} ms and was stopped, so the row has no verdict; simplify the pattern (it backtracks)`;
    case "pattern-interrupted":
      return `acceptance row ${fault.row}: matching /${fault.pattern}/ against the command's output was interrupted (SIGINT), so the row has no verdict`;
  }
}

/** The text of a thrown value, for faults built at an adapter's edge. */
export function reasonOf(e: unknown): string {
  if (e instanceof Error) {
    const code = thrownCode(e);
    return typeof code === "string" && !e.message.includes(code) ? `${code}: ${e.message}` : e.message;
  }
  return String(e);
}
