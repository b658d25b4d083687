import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../../test-utils/tmp.js";
import { commit, gitContract, put } from "../testing/git-suite.js";
import { fixtureGit as git } from "../testing/room-fixture.js";
import { systemGit } from "./git.js";

// No global or system config: the identity fallback and the default-branch rules are seen bare.
const ENV = { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" };

async function repo(branch = "main"): Promise<{ dir: string; c1: string }> {
  const dir = await tempDir("decay-git-");
  git(dir, "init", "-q", "-b", branch);
  const c1 = commit(dir, { "a.txt": "a\n", ".gitignore": "ignored/\n" }, "first");
  return { dir, c1 };
}

const open = (dir: string) => systemGit({ dir, env: ENV });

// What every Git adapter promises; systemGit also works below the top of the working tree.
gitContract("systemGit", open, { belowTop: true });

describe("systemGit: where the repository stands", () => {
  it("a repository with no commit is no-head; a directory that is no repository is git-failed", async () => {
    const empty = await tempDir();
    git(empty, "init", "-q");
    expect((await open(empty).head())._unsafeUnwrapErr()).toEqual({ code: "no-head", repo: empty });
    const bare = await tempDir();
    const fault = (await open(bare).head())._unsafeUnwrapErr();
    expect(fault).toMatchObject({ code: "git-failed", op: "rev-parse --verify --quiet HEAD" });
    expect(fault.code === "git-failed" && fault.reason).toMatch(/not a git repository/);
  });

  it("defaultBranch: origin's HEAD, then init.defaultBranch when it exists, then main, then master, else null", async () => {
    const { dir } = await repo("trunk");
    expect((await open(dir).defaultBranch())._unsafeUnwrap()).toBeNull();
    git(dir, "branch", "master");
    expect((await open(dir).defaultBranch())._unsafeUnwrap()).toBe("master");
    git(dir, "branch", "main");
    expect((await open(dir).defaultBranch())._unsafeUnwrap()).toBe("main");
    git(dir, "config", "init.defaultBranch", "gone");
    expect((await open(dir).defaultBranch())._unsafeUnwrap()).toBe("main");
    git(dir, "config", "init.defaultBranch", "trunk");
    expect((await open(dir).defaultBranch())._unsafeUnwrap()).toBe("trunk");
    git(dir, "update-ref", "refs/remotes/origin/develop", "HEAD");
    git(dir, "symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/develop");
    expect((await open(dir).defaultBranch())._unsafeUnwrap()).toBe("develop");
  });

  it("switchBranch refuses a name git reads as an option or no branch name at all, as git-failed", async () => {
    const { dir } = await repo();
    const g = open(dir);
    expect((await g.switchBranch("--orphan"))._unsafeUnwrapErr()).toMatchObject({ code: "git-failed", op: "switch" });
    expect((await g.switchBranch("bad..name"))._unsafeUnwrapErr()).toMatchObject({ code: "git-failed" });
    expect((await g.branch())._unsafeUnwrap()).toBe("main");
  });
});

describe("systemGit: commits", () => {
  it("commits as decay <decay@localhost> only when no e-mail is configured", async () => {
    const { dir } = await repo();
    put(dir, { "x.txt": "x\n" });
    await open(dir).commitAll("fallback");
    expect(git(dir, "log", "-1", "--format=%an <%ae> / %cn <%ce>")).toBe("decay <decay@localhost> / decay <decay@localhost>");
    git(dir, "config", "user.name", "Someone");
    git(dir, "config", "user.email", "someone@x.invalid");
    put(dir, { "y.txt": "y\n" });
    await open(dir).commitAll("configured");
    expect(git(dir, "log", "-1", "--format=%an <%ae>")).toBe("Someone <someone@x.invalid>");
  });

  it("revert's refusals are git-failed faults that say why (the contract checks that nothing changed)", async () => {
    const { dir, c1 } = await repo();
    const c2 = commit(dir, { "a.txt": "a2\n" }, "second");
    git(dir, "switch", "-q", "--orphan", "other");
    commit(dir, { "o.txt": "o\n" }, "other root");
    const o2 = commit(dir, { "o.txt": "o2\n" }, "other second");
    const g = open(dir);
    expect((await g.revert(c1, c2, "undo"))._unsafeUnwrapErr()).toMatchObject({ code: "git-failed", reason: `HEAD is ${o2}, not ${c2}` });
    expect((await g.revert(c1, o2, "undo"))._unsafeUnwrapErr()).toMatchObject({ code: "git-failed", reason: `${c1} is not in HEAD's history` });
    expect((await g.revert("-no", o2, "undo"))._unsafeUnwrapErr()).toMatchObject({ code: "git-failed", reason: "-no is not a commit" });
  });
});

describe("systemGit: history", () => {
  it("changedPaths of an unknown commit is a git-failed fault naming git log and git's message", async () => {
    const { dir, c1 } = await repo();
    const fault = (await open(dir).changedPaths(c1, "f".repeat(40)))._unsafeUnwrapErr();
    expect(fault.code === "git-failed" && `${fault.op} ${fault.reason}`).toMatch(/^log .*(bad|unknown) (object|revision)/s);
  });

  it("the repository's own diff settings change neither diff nor diffStats: both are git's defaults", async () => {
    const { dir, c1 } = await repo();
    const body = (tag: string) => Array.from({ length: 12 }, (_, i) => (i % 4 === 0 ? "" : `${tag} line ${i}`)).join("\n");
    // Each commit also sets a gitlink (a submodule's commit, nothing checked out) at `mod`.
    const withLink = (files: Record<string, string>, link: string, message: string) => {
      put(dir, files);
      git(dir, "add", "-A");
      git(dir, "update-index", "--add", "--cacheinfo", `160000,${link},mod`);
      git(dir, "commit", "-q", "-m", message);
      return git(dir, "rev-parse", "HEAD");
    };
    const c2 = withLink({ "sub/one.txt": `${body("one")}\n`, "zz.txt": `${body("zz")}\n` }, c1, "two");
    const changed = { "sub/one.txt": `${body("one").replace("line 2", "line two").replace("line 10", "line ten")}\n`, "a.txt": "changed\n", "zz.txt": "z\n" };
    const c3 = withLink(changed, "1".repeat(40), "three");
    const before = { patch: (await open(dir).diff(c2, c3, 1 << 20))._unsafeUnwrap(), stats: (await open(dir).diffStats(c1, c3))._unsafeUnwrap() };
    const order = join(dir, ".git", "order");
    put(dir, { ".git/order": "zz.txt\nsub/*\n" });
    for (const [key, value] of [
      ["core.abbrev", "12"],
      ["diff.context", "1"],
      ["diff.interHunkContext", "8"],
      ["diff.algorithm", "histogram"],
      ["diff.indentHeuristic", "false"],
      ["diff.suppressBlankEmpty", "true"],
      ["diff.orderFile", order],
      ["diff.relative", "true"],
      ["diff.submodule", "log"],
      ["diff.ignoreSubmodules", "all"],
    ])
      git(dir, "config", key as string, value as string);
    // From below the top too: diff.relative would give paths from there.
    for (const at of [dir, join(dir, "sub")]) {
      expect((await open(at).diff(c2, c3, 1 << 20))._unsafeUnwrap()).toEqual(before.patch);
      expect((await open(at).diffStats(c1, c3))._unsafeUnwrap()).toEqual(before.stats);
    }
    expect(before.patch.text).toMatch(/^index [0-9a-f]{7}\.\.[0-9a-f]{7} 100644$/m);
    expect(before.patch.text.indexOf("diff --git a/a.txt")).toBeLessThan(before.patch.text.indexOf("diff --git a/zz.txt"));
    expect(before.patch.text).toContain(`-Subproject commit ${c1}\n+Subproject commit ${"1".repeat(40)}\n`);
    expect(before.stats.paths).toContain("mod");
  });

  it("an unknown commit is a git-failed fault naming the command and git's message", async () => {
    const { dir, c1 } = await repo();
    const fault = (await open(dir).diffStats(c1, "f".repeat(40)))._unsafeUnwrapErr();
    expect(fault).toMatchObject({ code: "git-failed" });
    expect(fault.code === "git-failed" && `${fault.op} ${fault.reason}`).toMatch(/^diff .*--numstat.*(bad|unknown) (object|revision)/s);
  });

  it("a git that cannot be started is a git-failed fault", async () => {
    const { dir } = await repo();
    const fault = (await systemGit({ dir, env: { PATH: "/nonexistent" } }).head())._unsafeUnwrapErr();
    expect(fault).toMatchObject({ code: "git-failed" });
    expect(fault.code === "git-failed" && fault.reason).toMatch(/could not be started/);
  });
});

describe("systemGit: nothing reaches another repository", () => {
  it("the adapter's source builds no command that talks to another repository", () => {
    const here = dirname(fileURLToPath(import.meta.url));
    const words = ["push", "fetch", "pull", "remote", "clone", "ls-remote", "send-pack", "--force", "-f", "--mirror", "submodule"];
    for (const file of ["git.ts", "git-process.ts", "git-parse.ts"]) {
      const literals = readFileSync(join(here, file), "utf8").match(/"(?:[^"\\\n]|\\.)*"/g) ?? [];
      const args = literals.map((l) => l.slice(1, -1));
      expect(
        args.filter((a) => words.includes(a)),
        file,
      ).toEqual([]);
    }
  });
});
