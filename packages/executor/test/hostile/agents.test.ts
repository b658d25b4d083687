// decay (the built bin) against commands and agents that misbehave: a row or an agent that leaves
// a daemon holding its output, a signal other than Ctrl-C. Nothing hangs, and a fault is never a
// verdict.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { tempDir } from "../../../../test-utils/tmp.js";
import { decay } from "../cli-process.js";
import { git, makeRepo, planOf } from "../harness.js";

/** A shell line that starts `sleep 300` in a session of its own (out of any group kill), its pid added to `pidFile`. */
const daemon = (pidFile: string) => `setsid sleep 300 & echo $! >> ${pidFile}; sleep 0.3`;

/** Kill every daemon whose pid `pidFile` lists. */
function reap(pidFile: string): void {
  if (!existsSync(pidFile)) return;
  for (const pid of readFileSync(pidFile, "utf8")
    .split("\n")
    .filter((l) => l !== ""))
    process.kill(Number(pid), "SIGKILL");
}

describe("decay: a process left holding a command's output", () => {
  test("an acceptance row that leaves a daemon holding its stdout: exit 2 naming the command, no verdict, no hang", async () => {
    const pidFile = join(await tempDir("decay-daemon-"), "daemon.pid");
    const row = `sh -c '${daemon(pidFile)}; echo ok'`;
    const repo = await makeRepo({ "docs/d.plan.md": planOf([["daemon", [`\`${row}\` exits 0`]]]) });
    try {
      const r = await decay(["preflight", "docs/d.plan.md"], repo);
      expect(r.code).toBe(2);
      expect(r.stdout).not.toMatch(/green|red/);
      expect(r.stderr).toMatch(
        /^decay: docs\/d\.plan\.md: could not run "sh -c .*setsid sleep 300.*" in \S+: it exited 0, but a process it started outside its process group/,
      );
    } finally {
      reap(pidFile);
    }
  }, 30_000);

  test("an agent that leaves a daemon holding its stdout returns nothing each time and the run parks: no hang", async () => {
    const dir = await tempDir("decay-daemon-");
    const pidFile = join(dir, "daemon.pid");
    const agent = join(dir, "agent.sh");
    writeFileSync(agent, `#!/bin/sh\ncat >/dev/null\n${daemon(pidFile)}\necho '{"tokens":1,"summary":"started a daemon"}'\n`, { mode: 0o755 });
    const repo = await makeRepo({ "docs/d.plan.md": planOf([["work", ["`test -f done.txt` exits 0"]]]) });
    try {
      const r = await decay(["run", "docs/d.plan.md", "--agent", agent], repo);
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(
        /parked: the agent returned nothing 3 times in a row \(last: the agent failed: .*agent\.sh: exited 0, but a process it started outside its process group/,
      );
      expect(git(repo, "log", "--format=%s", "plan/d")).not.toMatch(/S1 work/);
    } finally {
      reap(pidFile);
    }
  }, 60_000);
});
