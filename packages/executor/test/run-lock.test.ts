import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../test-utils/tmp.js";
import { nodeRunLock, RUN_LOCK_FILE } from "../src/entries/node.js";
import { type Agent, runPlan, scriptTable } from "../src/index.js";
import { contractOf, git, makeRepo, nodeOptions, planOf } from "./harness.js";

const lockIn = (repo: string) => join(repo, ".git", RUN_LOCK_FILE);

/** The claim this process writes (a release removes it again): the pattern of a real claim to edit. */
async function ownClaim(repo: string): Promise<string> {
  const release = (await nodeRunLock().acquire(repo))._unsafeUnwrap();
  const claim = readFileSync(lockIn(repo), "utf8");
  await release();
  return claim;
}

/** The pid of a process that has exited: no process has it now (the kernel hands pids out in turn). */
function deadPid(): number {
  const child = spawnSync("sh", ["-c", "echo $$"], { encoding: "utf8" });
  return Number(child.stdout.trim());
}

describe("nodeRunLock: one run per working tree", () => {
  it("refuses a second claim while the first is held, naming the holder and the claim, and frees the tree on release", async () => {
    const repo = await makeRepo({ "README.md": "r\n" });
    const lock = nodeRunLock();
    const release = (await lock.acquire(repo))._unsafeUnwrap();
    // The claim sits in the git directory: the working tree stays clean.
    expect(readFileSync(lockIn(repo), "utf8")).toMatch(
      new RegExp(`^pid ${process.pid}\\nhost ${hostname()}\\nboot .+\\npidns .+\\nsince \\d{4}-.*\\nclaim [0-9a-f]{16}\\n$`),
    );
    expect(git(repo, "status", "--porcelain")).toBe("");
    const second = await lock.acquire(repo);
    expect(second._unsafeUnwrapErr()).toMatchObject({ code: "run-in-progress", repo, lock: lockIn(repo) });
    expect(second._unsafeUnwrapErr()).toMatchObject({ holder: expect.stringMatching(new RegExp(`^pid ${process.pid} on ${hostname()}, since `)) });
    await release();
    await release();
    expect(existsSync(lockIn(repo))).toBe(false);
    const again = (await lock.acquire(repo))._unsafeUnwrap();
    await again();
  });

  it("takes over a claim whose process is gone on this host, boot and pid namespace", async () => {
    const repo = await makeRepo({ "README.md": "r\n" });
    writeFileSync(lockIn(repo), (await ownClaim(repo)).replace(/^pid \d+/, `pid ${deadPid()}`));
    const release = (await nodeRunLock().acquire(repo))._unsafeUnwrap();
    expect(readFileSync(lockIn(repo), "utf8")).toMatch(new RegExp(`^pid ${process.pid}\\n`));
    await release();
    expect(readdirSync(join(repo, ".git")).filter((n) => n.startsWith(RUN_LOCK_FILE))).toEqual([]);
  });

  it("never guesses about a claim of another host, another pid namespace or one it cannot read: refused, and left as it was", async () => {
    const repo = await makeRepo({ "README.md": "r\n" });
    const dead = (await ownClaim(repo)).replace(/^pid \d+/, `pid ${deadPid()}`);
    for (const [claim, holder] of [
      [dead.replace(/^host .*$/m, "host elsewhere.example"), /^pid \d+ on elsewhere\.example, since /],
      [dead.replace(/^pidns .*$/m, "pidns another-container"), new RegExp(`^pid \\d+ on ${hostname()}, since `)],
      ["garbage\n", /^a claim this version cannot read$/],
    ] as const) {
      writeFileSync(lockIn(repo), claim);
      const refused = await nodeRunLock().acquire(repo);
      expect(refused._unsafeUnwrapErr()).toMatchObject({ code: "run-in-progress", holder: expect.stringMatching(holder) });
      expect(readFileSync(lockIn(repo), "utf8")).toBe(claim);
    }
  });

  // Off Linux there is no boot id to tell boots apart.
  it.skipIf(!existsSync("/proc/sys/kernel/random/boot_id"))("takes over a claim of an earlier boot of this host, whatever its pid", async () => {
    const repo = await makeRepo({ "README.md": "r\n" });
    const own = await ownClaim(repo);
    writeFileSync(lockIn(repo), own.replace(/^boot .*$/m, "boot 00000000-0000-0000-0000-000000000000").replace(/^pid \d+/, "pid 1"));
    const release = (await nodeRunLock().acquire(repo))._unsafeUnwrap();
    expect(readFileSync(lockIn(repo), "utf8")).toMatch(new RegExp(`^pid ${process.pid}\\n`));
    await release();
  });

  it("breaks a gone claim only under its mutex: a fresh one (another breaker at work) refuses, one left by a killed breaker goes", async () => {
    const repo = await makeRepo({ "README.md": "r\n" });
    const dead = (await ownClaim(repo)).replace(/^pid \d+/, `pid ${deadPid()}`);
    writeFileSync(lockIn(repo), dead);
    const mutex = `${lockIn(repo)}.break`;
    writeFileSync(mutex, "x");
    expect((await nodeRunLock().acquire(repo))._unsafeUnwrapErr()).toMatchObject({ code: "run-in-progress" });
    expect(readFileSync(lockIn(repo), "utf8")).toBe(dead);
    utimesSync(mutex, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    const release = (await nodeRunLock().acquire(repo))._unsafeUnwrap();
    expect([existsSync(mutex), readFileSync(lockIn(repo), "utf8").startsWith(`pid ${process.pid}\n`)]).toEqual([false, true]);
    await release();
  });

  it("a release leaves alone a claim that is no longer its own", async () => {
    const repo = await makeRepo({ "README.md": "r\n" });
    const release = (await nodeRunLock().acquire(repo))._unsafeUnwrap();
    const other = readFileSync(lockIn(repo), "utf8").replace(/^pid \d+/, "pid 1");
    writeFileSync(lockIn(repo), other);
    await release();
    expect(readFileSync(lockIn(repo), "utf8")).toBe(other);
  });

  it("a directory that is no git repository is a git fault naming the call", async () => {
    const r = await nodeRunLock().acquire(await tempDir());
    expect(r._unsafeUnwrapErr()).toMatchObject({ code: "git-failed", op: "rev-parse --absolute-git-dir" });
  });

  it("finds the repository as systemGit does: a GIT_DIR in the environment does not move the claim", async () => {
    const repo = await makeRepo({ "README.md": "r\n" });
    const release = (await nodeRunLock({ env: { ...process.env, GIT_DIR: "/nonexistent" } }).acquire(repo))._unsafeUnwrap();
    expect(existsSync(lockIn(repo))).toBe(true);
    await release();
  });
});

describe("runPlan with a RunLock", () => {
  it("a second run on the working tree is refused before it touches anything, and the first runs on to green with its own work", async () => {
    const repo = await makeRepo({ "README.md": "r\n" });
    const contract = await contractOf(repo, planOf([["a", ["`sh bin/show.sh a` exits 0 and prints `alpha`"]]]));
    const lock = nodeRunLock();
    let reached: () => void = () => undefined;
    const atExecute = new Promise<void>((ok) => {
      reached = ok;
    });
    let go: () => void = () => undefined;
    const gate = new Promise<void>((ok) => {
      go = ok;
    });
    const first = nodeOptions(repo, scriptTable({ "S1 execute": { edit: { "src/a.txt": "alpha\n" } } }), { lock });
    // The first run's execute writes its work, then waits: the second run starts while that work is uncommitted.
    const agent: Agent = {
      ...first.agent,
      execute: async (request) => {
        const reply = await first.agent.execute(request);
        reached();
        await gate;
        return reply;
      },
    };
    const running = runPlan(contract, { ...first, agent });
    await atExecute;
    const second = await runPlan(contract, nodeOptions(repo, scriptTable({ "S1 execute": { edit: { "src/a.txt": "other\n" } } }), { lock }));
    expect(second._unsafeUnwrapErr()).toMatchObject({ code: "run-in-progress", lock: lockIn(repo) });
    expect(git(repo, "stash", "list")).toBe("");
    expect(readFileSync(join(repo, "src/a.txt"), "utf8")).toBe("alpha\n");
    go();
    const report = (await running)._unsafeUnwrap();
    expect(report.status).toBe("green");
    expect(git(repo, "show", "HEAD:src/a.txt")).toBe("alpha");
    expect(existsSync(lockIn(repo))).toBe(false);
  });
});
