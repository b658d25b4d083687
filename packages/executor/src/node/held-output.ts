// A child's process group, signalled whole; and a child that has exited while its pipes stay open:
// something it started outside its process group (`setsid`, a daemon) still holds them. The group
// kill does not reach that process, and `close` would never come: whoever waits would wait forever.
import type { ChildProcess } from "node:child_process";

/** Sends `signal` to the process group led by `child` (spawned `detached`); a group already gone is no error. */
export function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // ESRCH: every process of the group has ended already.
  }
}

/** How long the pipes of an exited child may stay open before they are given up, by default. */
export const OUTPUT_GRACE_MS = 2000;

/** Whether an exited child's pipes were given up because something kept them open. */
export interface HeldOutput {
  held(): boolean;
}

/**
 * Waits at most `graceMs` after `child` exits for its pipes to close; past that, destroys them so
 * `close` comes, and `held()` says so: the output read by then may be cut short, and a process the
 * child left behind may still be running.
 */
export function releaseHeldOutput(child: ChildProcess, graceMs: number): HeldOutput {
  let held = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  child.on("exit", () => {
    timer = setTimeout(() => {
      held = true;
      child.stdout?.destroy();
      child.stderr?.destroy();
    }, graceMs);
  });
  child.on("close", () => clearTimeout(timer));
  return { held: () => held };
}

/** The sentence for held output, after "exited": one shared wording for the agent and the shell. */
export function heldSentence(graceMs: number): string {
  return `but a process it started outside its process group (setsid, a daemon) still held its stdout or stderr open ${graceMs} ms later, so its output may be cut short; that process may still be running`;
}
