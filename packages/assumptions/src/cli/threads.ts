import { readdirSync, readlinkSync } from "node:fs";
import { setPriority } from "node:os";

/** The lowest scheduling priority: a nice value of 19. */
const BACKGROUND = 19;

/**
 * Lowers every other thread of this process to background priority, so V8's helper threads
 * (the optimising compiler, the collector's helpers) take a core only when the main thread does
 * not want it. Chrome runs them at background priority; Node does not, and on a two-core machine
 * they took the core from the check's own thread (docs/performance.md). Linux keeps a nice value
 * per thread and lists them under /proc/self/task; elsewhere, or when that /proc belongs to
 * another PID namespace (its numbers are not this process's), this does nothing. Returns how many
 * threads it lowered. Threads made later by the main thread (libuv's pool) keep its priority.
 * Never throws: a priority is a preference, not a condition of the run.
 */
export function lowerHelperThreads(): number {
  let tasks: string[];
  try {
    if (Number(readlinkSync("/proc/self")) !== process.pid) return 0;
    tasks = readdirSync("/proc/self/task");
  } catch {
    return 0;
  }
  let lowered = 0;
  for (const task of tasks) {
    const tid = Number(task);
    if (!Number.isInteger(tid) || tid === process.pid) continue;
    try {
      setPriority(tid, BACKGROUND);
      lowered += 1;
    } catch {
      // The thread ended meanwhile, or the system refuses: it keeps its priority.
    }
  }
  return lowered;
}
