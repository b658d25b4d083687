// Test setup for the journal's tests on real temp repositories: make a repository and commits.
// The code under test reads them through the real adapters (systemGit, nodeShell).
import { execFile } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { tempDir } from "../../../../test-utils/tmp.js";
import { systemGit } from "../../src/node/git.js";
import { nodeShell } from "../../src/node/shell.js";

const ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@t",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@t",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_CONFIG_NOSYSTEM: "1",
};

/** Run git in `dir` (setup only); a non-zero exit rejects. */
export function git(dir: string, ...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile("git", args, { cwd: dir, env: ENV, maxBuffer: 1 << 24 }, (e, stdout, stderr) =>
      e ? reject(new Error(`git ${args.join(" ")}: ${stderr}`)) : resolve(stdout),
    );
  });
}

/** The Git deriveResume reads, for the repository at `dir`. */
export const testGit = (dir: string) => systemGit({ dir });

/** The Shell the tasks' checks run through. */
export const testShell = nodeShell();

/** A fresh repository with one commit; `commit(files, message)` writes files and commits them, returning the new HEAD. */
export async function tempRepo(): Promise<{
  dir: string;
  write(files: Record<string, string>): Promise<void>;
  commit(files: Record<string, string>, message: string): Promise<string>;
}> {
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
