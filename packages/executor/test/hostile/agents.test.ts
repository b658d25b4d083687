// decay (the built bin) against commands and agents that misbehave: a row or an agent that leaves
// a daemon holding its output, a signal other than Ctrl-C. Nothing hangs, and a fault is never a
// verdict.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { ended } from "../../../../test-utils/process.js";
import { tempDir } from "../../../../test-utils/tmp.js";
import { agentFlag, decay, start } from "../cli-process.js";
import { fixtureRepo, git, makeRepo, planOf } from "../harness.js";

/** A shell line that starts `sleep 300` in a session of its own (out of any group kill), its pid added to `pidFile`. */
const daemon = (pidFile: string) => `setsid sleep 300 & echo $! >> ${pidFile}; sleep 0.3`;

/** Kill every process whose pid `pidFile` lists and that still runs. */
function reap(pidFile: string): void {
  if (!existsSync(pidFile)) return;
  const pids = readFileSync(pidFile, "utf8")
    .split("\n")
    .filter((l) => l !== "");
  for (const pid of pids) {
    try {
      process.kill(Number(pid), "SIGKILL");
    } catch {
      // ended already
    }
  }
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

describe("decay: a signal other than Ctrl-C", () => {
  test.each(["SIGTERM", "SIGHUP"] as const)(
    "%s mid-call parks the run as Ctrl-C does: the agent's group is killed, RESUME.md written, exit 1",
    async (signal) => {
      const dir = await tempDir("decay-signal-");
      const pidFile = join(dir, "agent.pid");
      const agent = join(dir, "agent.sh");
      // The agent's own child, in its group: what a real agent runs (a build, a test) while it works.
      writeFileSync(agent, `#!/bin/sh\ncat >/dev/null\nsleep 300 &\necho $! > ${pidFile}\nwait\n`, { mode: 0o755 });
      const repo = await makeRepo({ "docs/d.plan.md": planOf([["work", ["`test -f done.txt` exits 0"]]]) });
      const run = start(["run", "docs/d.plan.md", "--agent", agent], repo, (line, child) => {
        if (!/S1 a1 execute/.test(line)) return;
        const sent = setInterval(() => {
          if (!existsSync(pidFile)) return;
          clearInterval(sent);
          child.kill(signal);
        }, 20);
      });
      const r = await run.done;
      const left = await ended(Number(readFileSync(pidFile, "utf8")));
      reap(pidFile);
      expect(r.code).toBe(1);
      expect(r.stdout.trim().split("\n").at(-1)).toBe("parked: interrupted at step S1/a1/execute/t1; RESUME.md written; run the same command again to resume");
      expect(existsSync(join(repo, ".plan-runs/d/RESUME.md"))).toBe(true);
      expect(left, "the agent's child ended with the run").toBe(true);
    },
    60_000,
  );
});

describe("decay: an agent that edits during a diagnosis", () => {
  test("exit 2 naming the diagnose call and the path; the edit is not committed as the fix's", async () => {
    const repo = await fixtureRepo();
    const script = join(await tempDir("decay-diagnose-"), "script.json");
    const solved = "export function count(xs) {\n  return xs.length;\n}\nexport function sum(xs) {\n  return xs.reduce((a, b) => a + b, 0);\n}\n";
    writeFileSync(
      script,
      JSON.stringify({
        "S1 execute": { tokens: 5 },
        "S1 diagnose what-changed": { edit: { "src/stats.mjs": solved }, reply: { tokens: 1, cause: "c", fix: "f", acceptance_effect: "none" } },
      }),
    );
    const r = await decay(["run", "docs/stats.plan.md", "--agent", agentFlag(script)], repo);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      "decay: docs/stats.plan.md: the diagnose call S1/a1/diagnose/what-changed/t1 only reads, but it changed src/stats.mjs in the working tree: the run commits an execute's or a fix's work only, and the diagnoses after it must not see it; undo that and run again\n",
    );
    expect(r.stdout).not.toMatch(/S1 verify a2|done:/);
    expect(git(repo, "log", "--format=%s", "main..plan/stats")).not.toMatch(/\(fix\)/);
  }, 60_000);
});

describe("decay run --agent-timeout-ms", () => {
  test("an agent that never answers is stopped at the bound given, returns nothing, and the run parks", async () => {
    const dir = await tempDir("decay-slow-agent-");
    const agent = join(dir, "agent.sh");
    writeFileSync(agent, "#!/bin/sh\ncat >/dev/null\nexec sleep 600\n", { mode: 0o755 });
    const repo = await makeRepo({ "docs/d.plan.md": planOf([["work", ["`test -f done.txt` exits 0"]]]) });
    // Without the flag, each call would wait the default 30 minutes and the test time out.
    const r = await decay(["run", "docs/d.plan.md", "--agent", agent, "--agent-timeout-ms", "400"], repo);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/parked: the agent returned nothing 3 times in a row \(last: the agent failed: .*agent\.sh: timed out after 400 ms/);
    expect(git(repo, "log", "--format=%s", "plan/d")).not.toMatch(/S1 work/);
  }, 30_000);
});
