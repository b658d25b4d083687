// One run per working tree: a claim file in the repository's git directory (never in the working
// tree, so it is neither dirty nor committed), created whole by a hard link, which fails when one
// is there. A claim whose process is gone (same host, no such pid) is taken over; any other
// claim refuses the run, naming it.
import { execFile } from "node:child_process";
import { linkSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { errAsync, ResultAsync } from "neverthrow";
import { type ExecFault, reasonOf } from "../fault.js";
import type { RunLock } from "../ports.js";

/** Options of `nodeRunLock`. */
export interface NodeRunLockOptions {
  /** The environment git runs with (default `process.env`): where the repository's git directory is found. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** The claim's file name, in the working tree's own git directory (`git rev-parse --absolute-git-dir`). */
export const RUN_LOCK_FILE = "decay-run.lock";

interface Holder {
  readonly pid: number;
  readonly host: string;
  readonly since: string;
}

function claimText(h: Holder): string {
  return `pid ${h.pid}\nhost ${h.host}\nsince ${h.since}\n`;
}

function parseClaim(text: string): Holder | null {
  const m = /^pid (\d+)\nhost (.*)\nsince (.*)\n$/.exec(text);
  return m ? { pid: Number(m[1]), host: m[2] as string, since: m[3] as string } : null;
}

function describeHolder(text: string): string {
  const h = parseClaim(text);
  return h ? `pid ${h.pid} on ${h.host}, since ${h.since}` : "a claim this version cannot read";
}

/** Whether the claim's process is surely gone: this host, and no process has its pid. */
function gone(text: string): boolean {
  const h = parseClaim(text);
  if (h === null || h.host !== hostname() || h.pid === process.pid) return false;
  try {
    process.kill(h.pid, 0);
    return false;
  } catch (e) {
    return (e as { code?: unknown }).code === "ESRCH";
  }
}

const codeOf = (e: unknown): unknown => (e as { code?: unknown }).code;

function readOrNull(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch (e) {
    if (codeOf(e) === "ENOENT") return null;
    throw e;
  }
}

function gitDir(repo: string, env: NodeRunLockOptions["env"]): ResultAsync<string, ExecFault> {
  return ResultAsync.fromPromise(
    new Promise<string>((resolve, reject) =>
      execFile("git", ["rev-parse", "--absolute-git-dir"], { cwd: repo, env: env as NodeJS.ProcessEnv }, (e, stdout, stderr) =>
        e ? reject(new Error(stderr.trim() || reasonOf(e))) : resolve(stdout.replace(/\n$/, "")),
      ),
    ),
    (e): ExecFault => ({ code: "git-failed", op: "rev-parse --absolute-git-dir", reason: reasonOf(e) }),
  );
}

/**
 * Take `lock` for this process, or say who holds it. The claim is written whole to a file of its
 * own, then hard-linked to `lock` (a link fails when `lock` exists). A claim of a process gone
 * is moved aside by rename (of two takers only one moves it) and dropped only when it is still
 * the one read; else it is put back and the run refused.
 */
function take(repo: string, lock: string): { release: () => Promise<void> } | ExecFault {
  const mine = claimText({ pid: process.pid, host: hostname(), since: new Date().toISOString() });
  const draft = `${lock}.${process.pid}`;
  writeFileSync(draft, mine);
  try {
    for (let tries = 0; tries < 3; tries += 1) {
      try {
        linkSync(draft, lock);
        // Only our own claim is removed; one left behind (a failed unlink) is taken over as gone.
        const release = async () => {
          try {
            if (readOrNull(lock) === mine) unlinkSync(lock);
          } catch {}
        };
        return { release };
      } catch (e) {
        if (codeOf(e) !== "EEXIST") throw e;
      }
      const held = readOrNull(lock);
      if (held === null) continue;
      if (!gone(held)) return { code: "run-in-progress", repo, holder: describeHolder(held), lock };
      const aside = `${lock}.gone.${process.pid}`;
      try {
        renameSync(lock, aside);
      } catch (e) {
        if (codeOf(e) === "ENOENT") continue;
        throw e;
      }
      const moved = readOrNull(aside) ?? "";
      if (moved === held) {
        unlinkSync(aside);
        continue;
      }
      // Between the read and the rename a live run took the lock: give it back.
      try {
        linkSync(aside, lock);
      } finally {
        unlinkSync(aside);
      }
      return { code: "run-in-progress", repo, holder: describeHolder(moved), lock };
    }
    return { code: "run-in-progress", repo, holder: "runs starting at the same moment", lock };
  } finally {
    unlinkSync(draft);
  }
}

/**
 * A `RunLock` over the filesystem: the claim is `decay-run.lock` in the working tree's git
 * directory, holding the pid, host and start of the run. A claim left by a run that was killed
 * (its pid gone on this host) is taken over; one of another host is never guessed about.
 */
export function nodeRunLock(options: NodeRunLockOptions = {}): RunLock {
  const env = options.env ?? process.env;
  return {
    acquire: (repo) =>
      gitDir(repo, env).andThen((dir) => {
        const lock = join(dir, RUN_LOCK_FILE);
        let taken: ReturnType<typeof take>;
        try {
          taken = take(repo, lock);
        } catch (e) {
          return errAsync<() => Promise<void>, ExecFault>({ code: "workspace-io", path: lock, reason: reasonOf(e) });
        }
        return "code" in taken ? errAsync(taken) : ResultAsync.fromSafePromise(Promise.resolve(taken.release));
      }),
  };
}
