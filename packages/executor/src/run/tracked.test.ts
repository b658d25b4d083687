import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../../test-utils/tmp.js";
import { systemGit } from "../node/git.js";
import type { Git } from "../ports.js";
import { listedOnce } from "./tracked.js";

const ENV = { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" };
const AS_TEST = { ...ENV, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@x.invalid", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@x.invalid" };
const git = (dir: string, ...args: string[]) => execFileSync("git", ["-C", dir, ...args], { env: AS_TEST, encoding: "utf8" }).trim();

/** A repository of `count` commits, the k-th adding `f<k>.txt`; their ids, oldest first. */
async function commits(count: number): Promise<{ dir: string; ids: string[] }> {
  const dir = await tempDir("decay-tracked-");
  git(dir, "init", "-q", "-b", "main");
  const ids: string[] = [];
  for (let k = 1; k <= count; k++) {
    writeFileSync(join(dir, `f${k}.txt`), `${k}\n`);
    git(dir, "add", "-A");
    git(dir, "commit", "-q", "-m", `c${k}`);
    ids.push(git(dir, "rev-parse", "HEAD"));
  }
  return { dir, ids };
}

/** The system git adapter, every `listFiles` call counted by what it was asked of. */
function counted(dir: string): { git: Git; asked: string[] } {
  const real = systemGit({ dir, env: ENV });
  const asked: string[] = [];
  return { git: { ...real, listFiles: (commit) => (asked.push(commit), real.listFiles(commit)) }, asked };
}

describe("listedOnce: the files of a commit, listed once a run", () => {
  it("asks git once for a commit asked again, with the same answer", async () => {
    const { dir, ids } = await commits(2);
    const { git: port, asked } = counted(dir);
    const tracked = listedOnce(port);
    const [c1, c2] = ids as [string, string];
    const first = await Promise.all([tracked(c1), tracked(c1)]);
    expect(first.map((r) => r._unsafeUnwrap())).toEqual([["f1.txt"], ["f1.txt"]]);
    expect((await tracked(c2))._unsafeUnwrap()).toEqual(["f1.txt", "f2.txt"]);
    expect((await tracked(c1))._unsafeUnwrap()).toEqual(["f1.txt"]);
    expect(asked).toEqual([c1, c2]);
  });

  it("asks every time for a ref or a short id, which can name another commit later", async () => {
    const { dir, ids } = await commits(1);
    const { git: port, asked } = counted(dir);
    const tracked = listedOnce(port);
    expect((await tracked("HEAD"))._unsafeUnwrap()).toEqual(["f1.txt"]);
    writeFileSync(join(dir, "later.txt"), "later\n");
    git(dir, "add", "-A");
    git(dir, "commit", "-q", "-m", "later");
    expect((await tracked("HEAD"))._unsafeUnwrap()).toEqual(["f1.txt", "later.txt"]);
    const short = (ids[0] as string).slice(0, 12);
    await tracked(short);
    await tracked(short);
    expect(asked).toEqual(["HEAD", "HEAD", short, short]);
  });

  it("keeps no failure: a commit git cannot list is asked again", async () => {
    const { dir } = await commits(1);
    const { git: port, asked } = counted(dir);
    const tracked = listedOnce(port);
    const missing = "0".repeat(40);
    expect((await tracked(missing))._unsafeUnwrapErr()).toMatchObject({ code: "git-failed" });
    expect((await tracked(missing))._unsafeUnwrapErr()).toMatchObject({ code: "git-failed" });
    expect(asked).toEqual([missing, missing]);
  });

  it("keeps the most recently asked commits only", async () => {
    const { dir, ids } = await commits(3);
    const { git: port, asked } = counted(dir);
    const tracked = listedOnce(port, 2);
    const [c1, c2, c3] = ids as [string, string, string];
    for (const c of [c1, c2, c1, c3, c1, c2]) await tracked(c);
    // c1 was asked again before c3 came, so c2 was the oldest then and was dropped.
    expect(asked).toEqual([c1, c2, c3, c2]);
  });
});
