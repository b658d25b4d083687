// TEST HELPER ONLY: a tiny child_process Git/Shell for the journal's tests on real temp repos,
// implementing just what deriveResume calls (head, log, dirty; run). The real adapters live in
// src/node/ (systemGit, nodeShell); these tests switch to them once they land.
import { execFile } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { ResultAsync } from "neverthrow";
import { tempDir } from "../../../../test-utils/tmp.js";
import type { ExecFault } from "../../src/fault.js";
import type { Git, Shell } from "../../src/ports.js";

const ENV = { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t", GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" };

function exec(file: string, args: string[], cwd: string, timeout = 0): Promise<{ code: number | null; stdout: string; stderr: string; killed: boolean }> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd, env: ENV, timeout, maxBuffer: 1 << 24 }, (e, stdout, stderr) => {
      const code = e ? (typeof e.code === "number" ? e.code : null) : 0;
      resolve({ code, stdout, stderr, killed: !!e?.killed });
    });
  });
}

/** Run git in `dir`; a non-zero exit rejects (tests only). */
export async function git(dir: string, ...args: string[]): Promise<string> {
  const r = await exec("git", args, dir);
  if (r.code !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
  return r.stdout;
}

const run = (op: string, dir: string, args: string[]): ResultAsync<string, ExecFault> =>
  ResultAsync.fromPromise(git(dir, ...args), (e): ExecFault => ({ code: "git-failed", op, reason: String(e) }));

/** The Git calls deriveResume makes, over the git binary in `dir`. */
export function testGit(dir: string): Pick<Git, "head" | "log" | "dirty"> {
  return {
    head: () => run("head", dir, ["rev-parse", "HEAD"]).map((s) => s.trim()),
    log: (from, to, paths) =>
      run("log", dir, ["log", "--format=%H%x00%s", from ? `${from}..${to}` : to, "--", ...(paths ?? [])]).map((out) =>
        out.split("\n").filter(Boolean).map((l) => ({ id: l.split("\0")[0] ?? "", message: l.split("\0")[1] ?? "" })),
      ),
    dirty: () =>
      run("status", dir, ["status", "--porcelain=v1", "-z", "--untracked-files=all"]).map((out) => {
        const parts = out.split("\0").filter(Boolean);
        const paths: string[] = [];
        for (let i = 0; i < parts.length; i++) {
          const p = parts[i] ?? "";
          paths.push(p.slice(3));
          if (p[0] === "R" || p[0] === "C") i++; // the rename's source follows
        }
        return paths;
      }),
  };
}

/** A Shell over `sh -c`, for the tasks' GREEN/Check reruns. */
export const testShell: Shell = {
  run: ({ command, cwd, timeoutMs }) =>
    ResultAsync.fromSafePromise(exec("sh", ["-c", command], cwd, timeoutMs)).map((r) => ({
      exit: r.code, signal: null, stdout: r.stdout, stderr: r.stderr, durationMs: 0, timedOut: r.killed, truncated: false,
    })),
};

/** A fresh repository with one commit; `commit(files, message)` writes files and commits them, returning the new HEAD. */
export async function tempRepo(): Promise<{ dir: string; write(files: Record<string, string>): Promise<void>; commit(files: Record<string, string>, message: string): Promise<string> }> {
  const dir = await tempDir("decay-journal-");
  await git(dir, "init", "-q", "-b", "main");
  const write = async (files: Record<string, string>) => {
    for (const [p, text] of Object.entries(files)) {
      await mkdir(dirname(join(dir, p)), { recursive: true });
      await writeFile(join(dir, p), text);
    }
  };
  const commit = async (files: Record<string, string>, message: string) => {
    await write(files);
    await git(dir, "add", "-A");
    await git(dir, "commit", "-q", "--allow-empty", "-m", message);
    return (await git(dir, "rev-parse", "HEAD")).trim();
  };
  await commit({ "README.md": "start\n" }, "start");
  return { dir, write, commit };
}
