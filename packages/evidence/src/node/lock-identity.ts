import { thrownCode } from "@decay/portable";
import { hostname } from "node:os";
import type { LockIdentity } from "../store/lock.js";

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return thrownCode(e) === "EPERM";
  }
}

/** This process: its pid, host name, `kill(pid, 0)` liveness and the wall clock. */
export function processLockIdentity(): LockIdentity {
  return { pid: process.pid, host: hostname(), isAlive: processAlive, now: () => Date.now() };
}
