import { existsSync, readdirSync, readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { lowerHelperThreads } from "./threads.js";

// A thread's nice value: field 19 of /proc/<pid>/task/<tid>/stat, counted after the name.
function niceOf(tid: string): number {
  const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]);
}

describe("lowerHelperThreads", () => {
  // The test runs in a forked process of its own (vitest's forks pool), on its main thread.
  test.runIf(existsSync("/proc/self/task"))("lowers every thread but the main one to nice 19", () => {
    const others = () => readdirSync("/proc/self/task").filter((t) => Number(t) !== process.pid);
    expect(others().length).toBeGreaterThan(0);
    const lowered = lowerHelperThreads();
    expect(niceOf(String(process.pid))).toBe(0);
    expect(lowered).toBe(others().length);
    expect(others().map(niceOf)).toEqual(others().map(() => 19));
  });
});
