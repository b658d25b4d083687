import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../../test-utils/tmp.js";
import { systemGit } from "./git.js";

// No global or system config: the identity fallback and the default-branch rules are seen bare.
const ENV = { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" };
const AS_TEST = { ...ENV, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@x.invalid", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@x.invalid" };

const git = (dir: string, ...args: string[]) => execFileSync("git", ["-C", dir, ...args], { env: AS_TEST, encoding: "utf8" }).trim();

function put(dir: string, files: Record<string, string>): void {
  for (const [path, body] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), body);
  }
}

function commit(dir: string, files: Record<string, string>, message: string): string {
  put(dir, files);
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", message);
  return git(dir, "rev-parse", "HEAD");
}

async function repo(branch = "main"): Promise<{ dir: string; c1: string }> {
  const dir = await tempDir("decay-git-");
  git(dir, "init", "-q", "-b", branch);
  const c1 = commit(dir, { "a.txt": "a\n", ".gitignore": "ignored/\n" }, "first");
  return { dir, c1 };
}

const open = (dir: string) => systemGit({ dir, env: ENV });

describe("systemGit: where the repository stands", () => {
  it("head and branch; branch is null when HEAD is detached", async () => {
    const { dir, c1 } = await repo();
    expect((await open(dir).head())._unsafeUnwrap()).toBe(c1);
    expect((await open(dir).branch())._unsafeUnwrap()).toBe("main");
    git(dir, "checkout", "-q", "--detach");
    expect((await open(dir).branch())._unsafeUnwrap()).toBeNull();
  });

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

  it("switchBranch creates a missing branch at HEAD and switches to an existing one", async () => {
    const { dir, c1 } = await repo();
    const g = open(dir);
    expect((await g.switchBranch("plan/x")).isOk()).toBe(true);
    expect((await g.branch())._unsafeUnwrap()).toBe("plan/x");
    expect(git(dir, "rev-parse", "plan/x")).toBe(c1);
    expect((await g.switchBranch("main")).isOk()).toBe(true);
    expect((await g.branch())._unsafeUnwrap()).toBe("main");
    expect((await g.switchBranch("--orphan"))._unsafeUnwrapErr()).toMatchObject({ code: "git-failed", op: "switch" });
    expect((await g.switchBranch("bad..name"))._unsafeUnwrapErr()).toMatchObject({ code: "git-failed" });
  });

  it("dirty lists staged, unstaged, untracked and renamed paths from the root, never ignored ones", async () => {
    const { dir } = await repo();
    commit(dir, { "old/name.txt": "moved\n", "sub/keep.txt": "k\n" }, "more");
    const inSub = open(join(dir, "sub"));
    expect((await inSub.dirty())._unsafeUnwrap()).toEqual([]);
    put(dir, { "a.txt": "changed\n", "sub/new/deep.txt": "n\n", "ignored/x.txt": "i\n", "staged.txt": "s\n" });
    git(dir, "add", "staged.txt");
    git(dir, "mv", "old/name.txt", "new name é.txt");
    const paths = (await inSub.dirty())._unsafeUnwrap();
    expect([...paths].sort()).toEqual(["a.txt", "new name é.txt", "old/name.txt", "staged.txt", "sub/new/deep.txt"]);
  });
});

describe("systemGit: commits", () => {
  it("commitAll commits every change, untracked and deleted included, and is null when clean", async () => {
    const { dir, c1 } = await repo();
    const g = open(dir);
    expect((await g.commitAll("nothing"))._unsafeUnwrap()).toBeNull();
    put(dir, { "b/new.txt": "n\n", "ignored/no.txt": "no\n" });
    execFileSync("rm", [join(dir, "a.txt")]);
    const id = (await g.commitAll("stage 1: add b\n\n# kept, not a comment\n"))._unsafeUnwrap();
    expect(id).toBe(git(dir, "rev-parse", "HEAD"));
    expect(git(dir, "rev-parse", "HEAD^")).toBe(c1);
    expect(git(dir, "log", "-1", "--format=%B")).toBe("stage 1: add b\n\n# kept, not a comment");
    expect(git(dir, "ls-tree", "-r", "--name-only", "HEAD").split("\n")).toEqual([".gitignore", "b/new.txt"]);
    expect((await g.dirty())._unsafeUnwrap()).toEqual([]);
  });

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

  it("revert adds one commit that undoes a whole range, merges included, with the given message", async () => {
    const { dir, c1 } = await repo();
    commit(dir, { "a.txt": "a2\n", "b.txt": "b\n" }, "second");
    git(dir, "switch", "-q", "-c", "side");
    commit(dir, { "s.txt": "s\n" }, "side");
    git(dir, "switch", "-q", "main");
    commit(dir, { "c.txt": "c\n" }, "third");
    git(dir, "merge", "-q", "--no-edit", "side");
    execFileSync("rm", [join(dir, "a.txt")]);
    const c4 = commit(dir, {}, "fourth: deletes a.txt");
    const id = (await open(dir).revert(c1, c4, "revert c1..c4: it touched acceptance"))._unsafeUnwrap();
    expect(git(dir, "rev-parse", "HEAD")).toBe(id);
    expect(git(dir, "rev-parse", "HEAD^")).toBe(c4);
    expect(git(dir, "rev-parse", `${id}^{tree}`)).toBe(git(dir, "rev-parse", `${c1}^{tree}`));
    expect(git(dir, "log", "-1", "--format=%s")).toBe("revert c1..c4: it touched acceptance");
    expect(git(dir, "status", "--porcelain")).toBe("");
    expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("a\n");
  });

  it("revert refuses, changing nothing, when HEAD is not the range's end or its start is not in HEAD's history", async () => {
    const { dir, c1 } = await repo();
    const c2 = commit(dir, { "a.txt": "a2\n" }, "second");
    git(dir, "switch", "-q", "--orphan", "other");
    const o1 = commit(dir, { "o.txt": "o\n" }, "other root");
    const o2 = commit(dir, { "o.txt": "o2\n" }, "other second");
    const g = open(dir);
    expect((await g.revert(c1, c2, "undo"))._unsafeUnwrapErr()).toMatchObject({ code: "git-failed", reason: `HEAD is ${o2}, not ${c2}` });
    expect((await g.revert(c1, o2, "undo"))._unsafeUnwrapErr()).toMatchObject({ code: "git-failed", reason: `${c1} is not in HEAD's history` });
    expect((await g.revert("-no", o2, "undo"))._unsafeUnwrapErr()).toMatchObject({ code: "git-failed", reason: "-no is not a commit" });
    expect(git(dir, "rev-parse", "HEAD")).toBe(o2);
    expect(git(dir, "rev-parse", "HEAD^")).toBe(o1);
    expect(git(dir, "status", "--porcelain")).toBe("");
  });

  it("setAside stashes changes and untracked files and returns the stash commit; null when clean", async () => {
    const { dir } = await repo();
    const g = open(dir);
    expect((await g.setAside("nothing"))._unsafeUnwrap()).toBeNull();
    put(dir, { "a.txt": "changed\n", "untracked.txt": "u\n" });
    const id = (await g.setAside("decay: set aside before the run"))._unsafeUnwrap();
    expect(id).toBe(git(dir, "rev-parse", "refs/stash"));
    expect(git(dir, "log", "-1", "--format=%s", "refs/stash")).toContain("decay: set aside before the run");
    expect((await g.dirty())._unsafeUnwrap()).toEqual([]);
    git(dir, "stash", "pop", "-q");
    expect(readFileSync(join(dir, "untracked.txt"), "utf8")).toBe("u\n");
  });
});

describe("systemGit: history", () => {
  it("log is newest first with full messages, bounded by from, filtered by paths", async () => {
    const { dir, c1 } = await repo();
    const c2 = commit(dir, { "b.txt": "b\n" }, "second\n\nwith a body\nof two lines");
    const c3 = commit(dir, { "a.txt": "a3\n" }, "third");
    const g = open(dir);
    const all = (await g.log(null, c3))._unsafeUnwrap();
    expect(all.map((c) => c.id)).toEqual([c3, c2, c1]);
    expect(all[1]?.message).toBe("second\n\nwith a body\nof two lines");
    expect((await g.log(c1, c3))._unsafeUnwrap().map((c) => c.id)).toEqual([c3, c2]);
    expect((await g.log(null, c3, ["b.txt"]))._unsafeUnwrap().map((c) => c.id)).toEqual([c2]);
    expect((await g.log(null, c3, ["*.txt"]))._unsafeUnwrap()).toEqual([]);
    expect((await g.log(null, c3, []))._unsafeUnwrap()).toEqual([]);
  });

  it("changedPaths: every path the range changed once, renames as both paths, side branches included, from the top", async () => {
    const { dir, c1 } = await repo();
    commit(dir, { "d/e f.txt": "1\n", "\nnew line.txt": "n\n", "é.txt": "e\n" }, "odd names");
    git(dir, "mv", "a.txt", "moved.txt");
    git(dir, "commit", "-q", "-m", "rename");
    git(dir, "switch", "-q", "-c", "side");
    commit(dir, { "side.txt": "s\n" }, "side");
    git(dir, "switch", "-q", "main");
    commit(dir, { "d/e f.txt": "2\n" }, "main");
    git(dir, "merge", "-q", "--no-ff", "side");
    const paths = (await open(join(dir, "d")).changedPaths(c1, "HEAD"))._unsafeUnwrap();
    expect([...paths].sort()).toEqual(["\nnew line.txt", "a.txt", "d/e f.txt", "moved.txt", "side.txt", "é.txt"]);
    expect((await open(dir).changedPaths("HEAD", "HEAD"))._unsafeUnwrap()).toEqual([]);
  });

  it("changedPaths: a merge counts only for what differs from every parent; a root commit for all its files", async () => {
    const { dir, c1 } = await repo();
    git(dir, "switch", "-q", "-c", "side");
    commit(dir, { "s.txt": "s\n" }, "side");
    git(dir, "switch", "-q", "main");
    const m1 = commit(dir, { "m.txt": "m\n" }, "main");
    git(dir, "merge", "-q", "--no-ff", "--no-commit", "side");
    const merge = commit(dir, { "evil.txt": "written while merging\n" }, "merge");
    expect((await open(dir).changedPaths(m1, merge))._unsafeUnwrap()).toEqual(["evil.txt", "s.txt"]);
    git(dir, "config", "log.showRoot", "false");
    git(dir, "switch", "-q", "--orphan", "other");
    const root = commit(dir, { "o.txt": "o\n" }, "other root");
    expect((await open(dir).changedPaths(c1, root))._unsafeUnwrap()).toEqual(["o.txt"]);
    const fault = (await open(dir).changedPaths(c1, "f".repeat(40)))._unsafeUnwrapErr();
    expect(fault.code === "git-failed" && `${fault.op} ${fault.reason}`).toMatch(/^log .*(bad|unknown) (object|revision)/s);
  });

  it("diffStats counts files and lines, a binary file as a file with no lines; diff is the patch", async () => {
    const { dir, c1 } = await repo();
    put(dir, { "a.txt": "a\nmore\n", "t.txt": "1\n2\n3\n" });
    writeFileSync(join(dir, "bin.dat"), new Uint8Array([0, 1, 2, 0, 255]));
    git(dir, "add", "-A");
    git(dir, "commit", "-q", "-m", "x");
    const c2 = git(dir, "rev-parse", "HEAD");
    const stats = (await open(dir).diffStats(c1, c2))._unsafeUnwrap();
    expect(stats).toEqual({ files: 3, insertions: 4, deletions: 0, paths: ["a.txt", "bin.dat", "t.txt"] });
    const patch = (await open(dir).diff(c1, c2))._unsafeUnwrap();
    expect(patch).toContain("diff --git a/a.txt b/a.txt");
    expect(patch).toContain("+more");
    expect(patch).toMatch(/Binary files .* differ/);
  });

  it("listFiles lists every tracked path of a commit, links included, whatever the directory", async () => {
    const { dir, c1 } = await repo();
    put(dir, { "d/e/f.txt": "f\n", "untracked.txt": "u\n" });
    symlinkSync("a.txt", join(dir, "link"));
    git(dir, "add", "d", "link");
    git(dir, "commit", "-q", "-m", "x");
    const files = (await open(join(dir, "d")).listFiles("HEAD"))._unsafeUnwrap();
    expect(files).toEqual([".gitignore", "a.txt", "d/e/f.txt", "link"]);
    expect((await open(dir).listFiles(c1))._unsafeUnwrap()).toEqual([".gitignore", "a.txt"]);
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
  it("every method leaves a repository's origin untouched", async () => {
    const bare = await tempDir("decay-bare-");
    git(bare, "init", "-q", "--bare", "-b", "main");
    const { dir } = await repo();
    git(dir, "remote", "add", "origin", bare);
    git(dir, "push", "-q", "origin", "main");
    git(dir, "remote", "set-head", "origin", "main");
    const before = [git(bare, "for-each-ref"), git(bare, "count-objects", "-v"), git(dir, "config", "--get-regexp", "^remote")];
    const g = open(dir);
    expect((await g.defaultBranch())._unsafeUnwrap()).toBe("main");
    await g.switchBranch("plan/demo");
    put(dir, { "w.txt": "w\n" });
    const start = (await g.head())._unsafeUnwrap();
    const id = (await g.commitAll("work"))._unsafeUnwrap() as string;
    await g.revert(start, id, "undo work");
    put(dir, { "z.txt": "z\n" });
    await g.setAside("aside");
    for (const r of [
      await g.log(null, "HEAD"),
      await g.changedPaths(start, "HEAD"),
      await g.diffStats("main", "HEAD"),
      await g.listFiles("HEAD"),
      await g.dirty(),
    ])
      expect(r.isOk()).toBe(true);
    expect([git(bare, "for-each-ref"), git(bare, "count-objects", "-v"), git(dir, "config", "--get-regexp", "^remote")]).toEqual(before);
  });

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
