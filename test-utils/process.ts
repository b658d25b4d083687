import { readFileSync } from "node:fs";

/** A process that has ended now: no such pid, or a zombie nobody has reaped yet. */
function endedNow(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    return true;
  }
}

/**
 * Whether a process has ended, allowing it up to `withinMs` to finish dying: the kernel closes a
 * killed process's pipes (which is what tells the parent it is gone) a moment before the process
 * itself is a zombie, so a check made at once can still see it running.
 */
export async function ended(pid: number, withinMs = 2000): Promise<boolean> {
  for (let waited = 0; ; waited += 20) {
    if (endedNow(pid)) return true;
    if (waited >= withinMs) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
}
