import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ended } from "../../../../test-utils/process.js";
import { tempDir } from "../../../../test-utils/tmp.js";
import type { ShellRequest, ShellResult } from "../ports.js";
import { nodeShell } from "./shell.js";

const shell = nodeShell();

async function ran(request: Partial<ShellRequest> & { command: string; cwd: string }, sh = shell): Promise<ShellResult> {
  const r = await sh.run({ timeoutMs: 30_000, ...request });
  if (r.isErr()) throw new Error(JSON.stringify(r.error));
  return r.value;
}

describe("nodeShell", () => {
  it("runs sh -c in the directory and reports exit, stdout and stderr", async () => {
    const cwd = await tempDir();
    const r = await ran({ command: "pwd; echo err >&2; exit 7", cwd });
    expect(r).toMatchObject({ exit: 7, signal: null, stdout: `${cwd}\n`, stderr: "err\n", timedOut: false, truncated: false });
    expect(r.durationMs).toBeGreaterThanOrEqual(0);
  });

  it("reports the signal that ended a command, with no exit code", async () => {
    const r = await ran({ command: "kill -TERM $$", cwd: await tempDir() });
    expect(r).toMatchObject({ exit: null, signal: "SIGTERM", timedOut: false });
  });

  it("merges the request's environment over the base environment", async () => {
    const sh = nodeShell({ env: { PATH: process.env.PATH, A: "base-a", B: "base-b", GONE: undefined } });
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell parameter expansion, for sh to read.
    const r = await ran({ command: 'echo "$A $B ${GONE-unset} ${HOME-nohome}"', cwd: await tempDir(), env: { B: "req-b" } }, sh);
    expect(r.stdout).toBe("base-a req-b unset nohome\n");
  });

  it("keeps the tails of long outputs and says it cut them", async () => {
    const command = "i=0; while [ $i -lt 5000 ]; do echo line-$i; echo err-$i >&2; i=$((i+1)); done";
    const r = await ran({ command, cwd: await tempDir(), maxOutputBytes: 1000 });
    expect(r.truncated).toBe(true);
    expect(r.stdout.length).toBeLessThanOrEqual(1000);
    expect(r.stdout.endsWith("line-4998\nline-4999\n")).toBe(true);
    expect(r.stderr.endsWith("err-4999\n")).toBe(true);
    expect(r.stdout).not.toContain("line-0\n");
  });

  it("never starts a tail with half a character", async () => {
    const r = await ran({ command: "i=0; while [ $i -lt 300 ]; do printf 'é'; i=$((i+1)); done", cwd: await tempDir(), maxOutputBytes: 101 });
    expect(r.truncated).toBe(true);
    expect(r.stdout).toBe("é".repeat(50));
  });

  it("kills a timed-out command with its whole process group, grandchildren included", async () => {
    const cwd = await tempDir();
    const r = await ran({ command: "sh -c 'sleep 300 & echo $! > grandchild.pid; wait' & echo $! > child.pid; wait", cwd, timeoutMs: 300 });
    expect(r).toMatchObject({ timedOut: true, exit: null });
    for (const file of ["child.pid", "grandchild.pid"]) expect(await ended(Number(readFileSync(join(cwd, file), "utf8")))).toBe(true);
  });

  it("follows SIGTERM with SIGKILL for a group that ignores SIGTERM", async () => {
    const cwd = await tempDir();
    const sh = nodeShell({ killGraceMs: 100 });
    const r = await ran({ command: "trap '' TERM; sleep 300 & echo $! > sleeper.pid; wait", cwd, timeoutMs: 200 }, sh);
    expect(r).toMatchObject({ timedOut: true, exit: null, signal: "SIGKILL" });
    expect(await ended(Number(readFileSync(join(cwd, "sleeper.pid"), "utf8")))).toBe(true);
  });

  it("leaves no process of the command running after it exits", async () => {
    const cwd = await tempDir();
    const r = await ran({ command: "sleep 300 & echo $! > bg.pid", cwd });
    expect(r).toMatchObject({ exit: 0, timedOut: false });
    expect(await ended(Number(readFileSync(join(cwd, "bg.pid"), "utf8")))).toBe(true);
  });

  it("a command that exits while a process of another session holds its output is a fault, never a result, and does not hang", async () => {
    const cwd = await tempDir();
    const sh = nodeShell({ outputGraceMs: 200 });
    const r = await sh.run({ command: "setsid sleep 300 & echo $! > daemon.pid; sleep 0.2; echo ok", cwd, timeoutMs: 30_000 });
    const pid = Number(readFileSync(join(cwd, "daemon.pid"), "utf8"));
    try {
      expect(r._unsafeUnwrapErr()).toMatchObject({
        code: "shell-failed",
        reason: expect.stringMatching(/^it exited 0, but a process it started outside its process group .* 200 ms later/),
      });
    } finally {
      process.kill(pid, "SIGKILL");
    }
  });

  it("a directory that does not exist is a shell-failed fault, not a throw", async () => {
    const cwd = join(await tempDir(), "missing");
    const r = await shell.run({ command: "true", cwd, timeoutMs: 1000 });
    expect(r._unsafeUnwrapErr()).toEqual({ code: "shell-failed", command: "true", cwd, reason: "the working directory does not exist" });
  });

  it("a command that cannot be spawned is a shell-failed fault, not a throw", async () => {
    const r = await shell.run({ command: "echo \0", cwd: await tempDir(), timeoutMs: 1000 });
    expect(r._unsafeUnwrapErr()).toMatchObject({ code: "shell-failed" });
  });

  it("kills the running command's process group when its signal aborts, and starts nothing after", async () => {
    const cwd = await tempDir();
    const controller = new AbortController();
    const sh = nodeShell({ killGraceMs: 100, signal: controller.signal });
    const pending = ran({ command: "sleep 60 & echo $! > sleeper.pid; echo started > started; wait", cwd }, sh);
    const { existsSync } = await import("node:fs");
    while (!existsSync(join(cwd, "started"))) await new Promise((r) => setTimeout(r, 20));
    controller.abort();
    const r = await pending;
    expect(r.exit === 0).toBe(false);
    expect(await ended(Number(readFileSync(join(cwd, "sleeper.pid"), "utf8")))).toBe(true);
    const after = await sh.run({ command: "true", cwd, timeoutMs: 1000 });
    expect(after.isErr() && after.error).toMatchObject({ code: "shell-failed", reason: "interrupted before it started" });
  });
});
