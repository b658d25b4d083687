// One run per working tree: a claim file in the repository's git directory (never in the working
// tree, so it is neither dirty nor committed), created whole by a hard link, which fails when one
// is there. A claim whose process is surely gone (this host, this boot, this pid namespace, no
// such pid) is taken over; any other claim refuses the run, naming it.
import { randomBytes } from "node:crypto";
import { linkSync, readFileSync, readlinkSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { thrownCode } from "@decay/portable";
import { errAsync, ResultAsync } from "neverthrow";
import { type ExecFault, reasonOf } from "../fault.js";
import type { RunLock } from "../ports.js";
import { gitInvoker } from "./git-process.js";

/** Options of `nodeRunLock`. */
export interface NodeRunLockOptions {
  /** The environment git runs with (default `process.env`; as for `systemGit`, `GIT_DIR` and the like are left out): where the repository's git directory is found. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** The claim's file name, in the working tree's own git directory (`git rev-parse --absolute-git-dir`). */
export const RUN_LOCK_FILE = "decay-run.lock";

/** A breaker's mutex older than this was left by a process killed while breaking: removed. */
const STALE_BREAK_MS = 10_000;

interface Holder {
  readonly pid: number;
  readonly host: string;
  /** The boot the claim was made in (Linux's boot id), or `-` where it cannot be read. */
  readonly boot: string;
  /** The pid namespace its pid means something in (Linux), or `-` where it cannot be read. */
  readonly pidns: string;
  readonly since: string;
}

/** What the kernel says at `read`, or `-` where it cannot be read (off Linux). */
function kernel(read: () => string): string {
  try {
    return read().trim() || "-";
  } catch {
    return "-";
  }
}

const bootId = () => kernel(() => readFileSync("/proc/sys/kernel/random/boot_id", "utf8"));
const pidNamespace = () => kernel(() => readlinkSync("/proc/self/ns/pid"));

function claimText(h: Holder, nonce: string): string {
  return `pid ${h.pid}\nhost ${h.host}\nboot ${h.boot}\npidns ${h.pidns}\nsince ${h.since}\nclaim ${nonce}\n`;
}

function parseClaim(text: string): Holder | null {
  const m = /^pid (\d+)\nhost (.*)\nboot (.*)\npidns (.*)\nsince (.*)\nclaim [0-9a-f]+\n$/.exec(text);
  return m ? { pid: Number(m[1]), host: m[2] as string, boot: m[3] as string, pidns: m[4] as string, since: m[5] as string } : null;
}

function describeHolder(text: string): string {
  const h = parseClaim(text);
  return h ? `pid ${h.pid} on ${h.host}, since ${h.since}` : "a claim this version cannot read";
}

/**
 * Whether the claim's process is surely gone: written on this host in an earlier boot (a reboot
 * ended it), or in this boot and pid namespace (a pid of another container means nothing here)
 * by a pid no process has now.
 */
function gone(text: string): boolean {
  const h = parseClaim(text);
  if (h === null || h.host !== hostname()) return false;
  const boot = bootId();
  if (boot !== "-" && h.boot !== "-" && h.boot !== boot) return true;
  if (h.boot !== boot || h.pidns !== pidNamespace() || h.pid === process.pid) return false;
  try {
    process.kill(h.pid, 0);
    return false;
  } catch (e) {
    return thrownCode(e) === "ESRCH";
  }
}

/** What `op` gives, or null when what it acts on is already gone (ENOENT). */
function unlessGone<T>(op: () => T): T | null {
  try {
    return op();
  } catch (e) {
    if (thrownCode(e) === "ENOENT") return null;
    throw e;
  }
}

const readOrNull = (path: string): string | null => unlessGone(() => readFileSync(path, "utf8"));

/** Creates `path` holding `text`, or answers false when it exists. */
function createdAnew(path: string, text: string): boolean {
  try {
    writeFileSync(path, text, { flag: "wx" });
    return true;
  } catch (e) {
    if (thrownCode(e) === "EEXIST") return false;
    throw e;
  }
}

const unlinkIfThere = (path: string): void => void unlessGone(() => unlinkSync(path));

/** The working tree's own git directory, found as `systemGit` finds its repository (the same git environment). */
function gitDir(repo: string, env: NodeRunLockOptions["env"]): ResultAsync<string, ExecFault> {
  return gitInvoker(repo, env)
    .ok(["rev-parse", "--absolute-git-dir"])
    .map((out) => out.replace(/\n$/, ""));
}

/**
 * Drop the claim `held` (read as gone) from `lock`, under a mutex of its own (`<lock>.break`,
 * created exclusively): with one breaker at a time, a claim still reading `held` inside it is the
 * dead one, since only a breaker removes a claim it does not own. False when another breaker is
 * at work.
 */
function breakStale(lock: string, held: string, mine: string, nonce: string): boolean {
  const mutex = `${lock}.break`;
  if (!createdAnew(mutex, mine)) {
    // A breaker killed inside its few microseconds leaves the mutex: old enough, it goes, moved
    // aside by rename (of two takers one moves it) rather than unlinked (which could take a fresh one).
    const made = statSync(mutex, { throwIfNoEntry: false })?.mtimeMs;
    if (made !== undefined && Date.now() - made <= STALE_BREAK_MS) return false;
    const aside = `${mutex}.${nonce}`;
    if (unlessGone(() => renameSync(mutex, aside)) === null) return false;
    // Another taker may have replaced the old mutex after it was looked at: a fresh one goes back.
    const moved = statSync(aside).mtimeMs;
    if (Date.now() - moved <= STALE_BREAK_MS) {
      try {
        linkSync(aside, mutex);
      } catch {}
      unlinkIfThere(aside);
      return false;
    }
    unlinkIfThere(aside);
    if (!createdAnew(mutex, mine)) return false;
  }
  try {
    if (readOrNull(lock) === held) unlinkIfThere(lock);
  } finally {
    unlinkIfThere(mutex);
  }
  return true;
}

/**
 * Take `lock` for this process, or say who holds it. The claim is written whole to a file of its
 * own (named with a random nonce: two processes may share a pid across containers), then
 * hard-linked to `lock`, which fails when `lock` exists.
 */
function take(repo: string, lock: string): { release: () => Promise<void> } | ExecFault {
  const nonce = randomBytes(8).toString("hex");
  const mine = claimText({ pid: process.pid, host: hostname(), boot: bootId(), pidns: pidNamespace(), since: new Date().toISOString() }, nonce);
  const draft = `${lock}.${nonce}`;
  writeFileSync(draft, mine, { flag: "wx" });
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
        if (thrownCode(e) !== "EEXIST") throw e;
      }
      const held = readOrNull(lock);
      if (held === null) continue;
      if (!gone(held) || !breakStale(lock, held, mine, nonce)) return { code: "run-in-progress", repo, holder: describeHolder(held), lock };
    }
    return { code: "run-in-progress", repo, holder: "runs starting at the same moment", lock };
  } finally {
    unlinkIfThere(draft);
  }
}

/**
 * A `RunLock` over the filesystem: the claim is `decay-run.lock` in the working tree's git
 * directory, holding the pid, host, boot and pid namespace, and start of the run. A claim left by
 * a run that was killed (its pid gone, on this host, boot and namespace) or ended by a reboot is
 * taken over; one from another host or container is never guessed about.
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
