import { existsSync, readdirSync, readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { lowerHelperThreads } from "./threads.js";

// A thread's nice value (field 19 of its stat line, counted after the name); undefined once the
// thread has ended.
function niceOf(tid: string): number | undefined {
  try {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]);
  } catch {
    return undefined;
  }
}

describe("lowerHelperThreads", () => {
  // The test runs in a forked process of its own (vitest's forks pool), on its main thread.
  test.runIf(existsSync("/proc/self/task"))("lowers every thread but the main one to nice 19", () => {
    const main = String(process.pid);
    const before = readdirSync("/proc/self/task").filter((t) => t !== main);
    expect(before.length).toBeGreaterThan(0);
    const mainNice = niceOf(main);
    const lowered = lowerHelperThreads();
    expect(niceOf(main)).toBe(mainNice);
    // Threads that lived through the call are at 19; one may end meanwhile (V8 owns them).
    const still = before.filter((t) => niceOf(t) !== undefined);
    expect(still.map(niceOf)).toEqual(still.map(() => 19));
    expect(lowered).toBeGreaterThanOrEqual(still.length);
  });
});
