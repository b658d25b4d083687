// One process per data directory: a lock file holding the owner's pid, taken over only when that
// process is gone.
import { thrownCode } from "@decay/portable";
import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { join } from "node:path";
import { err, ok, type Result } from "neverthrow";
import { type DbosFault, thrown } from "./fault.js";

/** A held lock; `release` removes the file (idempotent). */
export interface DirLock {
  readonly path: string;
  release(): void;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return thrownCode(e) === "EPERM";
  }
}

function create(path: string): boolean {
  try {
    const fd = openSync(path, "wx");
    writeSync(fd, `${process.pid}\n`);
    closeSync(fd);
    return true;
  } catch (e) {
    if (thrownCode(e) === "EEXIST") return false;
    throw e;
  }
}

function holder(path: string): number | null {
  try {
    const pid = Number.parseInt(readFileSync(path, "utf8").trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/**
 * Take `<dataDir>/lock`. A lock whose pid is no longer running (the process was killed) is stale
 * and taken over; a live one is the fault `data-dir-locked`.
 */
export function lockDataDir(dataDir: string): Result<DirLock, DbosFault> {
  const path = join(dataDir, "lock");
  try {
    mkdirSync(dataDir, { recursive: true });
    for (let tries = 0; tries < 3; tries++) {
      if (create(path)) {
        let held = true;
        const release = () => {
          if (!held) return;
          held = false;
          try {
            unlinkSync(path);
          } catch {
            // Already gone: nothing to release.
          }
        };
        return ok({ path, release });
      }
      const pid = holder(path);
      if (pid !== null && pid !== process.pid && alive(pid)) return err({ code: "data-dir-locked", dataDir, pid });
      if (pid === process.pid) return err({ code: "data-dir-locked", dataDir, pid });
      unlinkSync(path);
    }
    return err({ code: "data-dir-failed", dataDir, reason: "the lock file keeps changing under this process" });
  } catch (e) {
    return err({ code: "data-dir-failed", dataDir, reason: thrown(e) });
  }
}
