// The Git contract: what every adapter of the Git port promises, written once. An adapter's test
// file calls `gitContract(name, makeGit)`; the suite makes its own repositories with the system git.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { Result } from "neverthrow";
import { afterAll, describe, expect, it } from "vitest";
import type { Git } from "../ports.js";
import { fixtureGit as git } from "./room-fixture.js";

/** Options of `gitContract`. */
export interface GitContractOptions {
  /**
   * The adapter works in a directory below the top of the working tree too (`makeGit` is then
   * also given such a directory): paths still come from the top. Default `false`: every
   * repository is opened at its top.
   */
  readonly belowTop?: boolean;
}

/** Writes `files` (path → text) under `dir`, making directories as needed. */
export function put(dir: string, files: Record<string, string>): void {
  for (const [path, body] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), body);
  }
}

/** Commits `files` over what is there, with the system git; the new commit's id. */
export function commit(dir: string, files: Record<string, string>, message: string): string {
  put(dir, files);
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", message);
  return git(dir, "rev-parse", "HEAD");
}

/**
 * Registers the Git contract for one adapter. `makeGit(dir)` returns the adapter for the
 * repository whose working tree is at `dir` (its top, or with `belowTop` a directory inside it).
 * Every repository the suite makes is a fresh one under the system temp directory, removed after
 * the suite; nothing in it has a remote but the one the last test adds, a bare repository beside it.
 */
export function gitContract(name: string, makeGit: (dir: string) => Git, options: GitContractOptions = {}): void {
  describe(`Git contract: ${name}`, () => {
    const made: string[] = [];
    afterAll(() => {
      for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
    });
    const temp = (prefix: string): string => {
      const dir = mkdtempSync(join(tmpdir(), prefix));
      made.push(dir);
      return dir;
    };
    // A repository on `main` with one commit: a.txt and a .gitignore that ignores ignored/. Its own
    // config names who commits, as a user's repository does (an adapter may read no other config).
    const repo = (): { dir: string; c1: string } => {
      const dir = temp("decay-git-contract-");
      git(dir, "init", "-q", "-b", "main");
      git(dir, "config", "user.name", "decay contract");
      git(dir, "config", "user.email", "contract@decay.invalid");
      return { dir, c1: commit(dir, { "a.txt": "a\n", ".gitignore": "ignored/\n" }, "first") };
    };
    // Where the adapter is opened for a test that reads paths: `sub` below the top when the adapter
    // works there (made if missing), else the top.
    const inside = (dir: string, sub: string): Git => {
      if (options.belowTop !== true) return makeGit(dir);
      mkdirSync(join(dir, sub), { recursive: true });
      return makeGit(join(dir, sub));
    };
    const ok = async <T, E>(r: PromiseLike<Result<T, E>>): Promise<T> => (await r)._unsafeUnwrap();

    it("head is HEAD's full id; branch is its name, null when HEAD is detached", async () => {
      const { dir, c1 } = repo();
      expect(await ok(makeGit(dir).head())).toBe(c1);
      expect(await ok(makeGit(dir).branch())).toBe("main");
      git(dir, "checkout", "-q", "--detach");
      expect(await ok(makeGit(dir).branch())).toBeNull();
    });

    it("switchBranch creates a missing branch at HEAD and switches to an existing one", async () => {
      const { dir, c1 } = repo();
      const g = makeGit(dir);
      expect((await g.switchBranch("plan/x")).isOk()).toBe(true);
      expect(await ok(g.branch())).toBe("plan/x");
      expect(git(dir, "rev-parse", "plan/x")).toBe(c1);
      expect((await g.switchBranch("main")).isOk()).toBe(true);
      expect(await ok(g.branch())).toBe("main");
    });

    it("branchHead names a branch's commit without switching to it, null for a branch that does not exist", async () => {
      const { dir, c1 } = repo();
      git(dir, "branch", "plan/x");
      const c2 = commit(dir, { "b.txt": "b\n" }, "second");
      const g = makeGit(dir);
      expect(await ok(g.branchHead("plan/x"))).toBe(c1);
      expect(await ok(g.branchHead("main"))).toBe(c2);
      // A tag or a path of that name is no branch.
      git(dir, "tag", "plan/y");
      expect(await ok(g.branchHead("plan/y"))).toBeNull();
      expect(await ok(g.branchHead("b.txt"))).toBeNull();
      expect(await ok(g.branch())).toBe("main");
    });

    it("dirty lists staged, unstaged, untracked and renamed paths from the top, never ignored ones", async () => {
      const { dir } = repo();
      commit(dir, { "old/name.txt": "moved\n", "sub/keep.txt": "k\n" }, "more");
      const g = inside(dir, "sub");
      expect(await ok(g.dirty())).toEqual([]);
      put(dir, { "a.txt": "changed\n", "sub/new/deep.txt": "n\n", "ignored/x.txt": "i\n", "staged.txt": "s\n" });
      git(dir, "add", "staged.txt");
      git(dir, "mv", "old/name.txt", "new name é.txt");
      expect([...(await ok(g.dirty()))].sort()).toEqual(["a.txt", "new name é.txt", "old/name.txt", "staged.txt", "sub/new/deep.txt"]);
    });

    it("commitAll commits every change, untracked and deleted included, with the message as given; null when clean", async () => {
      const { dir, c1 } = repo();
      const g = makeGit(dir);
      expect(await ok(g.commitAll("nothing"))).toBeNull();
      put(dir, { "b/new.txt": "n\n", "ignored/no.txt": "no\n" });
      rmSync(join(dir, "a.txt"));
      const id = await ok(g.commitAll("stage 1: add b\n\n# kept, not a comment\n"));
      expect(id).toBe(git(dir, "rev-parse", "HEAD"));
      expect(git(dir, "rev-parse", "HEAD^")).toBe(c1);
      expect(git(dir, "log", "-1", "--format=%B")).toBe("stage 1: add b\n\n# kept, not a comment");
      expect(git(dir, "ls-tree", "-r", "--name-only", "HEAD").split("\n")).toEqual([".gitignore", "b/new.txt"]);
      expect(await ok(g.dirty())).toEqual([]);
    });

    it("revert adds one commit that undoes a whole range, merges included, with the given message", async () => {
      const { dir, c1 } = repo();
      commit(dir, { "a.txt": "a2\n", "b.txt": "b\n" }, "second");
      git(dir, "switch", "-q", "-c", "side");
      commit(dir, { "s.txt": "s\n" }, "side");
      git(dir, "switch", "-q", "main");
      commit(dir, { "c.txt": "c\n" }, "third");
      git(dir, "merge", "-q", "--no-edit", "side");
      rmSync(join(dir, "a.txt"));
      const c4 = commit(dir, {}, "fourth: deletes a.txt");
      const id = await ok(makeGit(dir).revert(c1, c4, "revert c1..c4: it touched acceptance"));
      expect(git(dir, "rev-parse", "HEAD")).toBe(id);
      expect(git(dir, "rev-parse", "HEAD^")).toBe(c4);
      expect(git(dir, "rev-parse", `${id}^{tree}`)).toBe(git(dir, "rev-parse", `${c1}^{tree}`));
      expect(git(dir, "log", "-1", "--format=%s")).toBe("revert c1..c4: it touched acceptance");
      expect(git(dir, "status", "--porcelain")).toBe("");
      expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("a\n");
    });

    it("revert refuses, changing nothing, when HEAD is not the range's end or its start is not in HEAD's history", async () => {
      const { dir, c1 } = repo();
      const c2 = commit(dir, { "a.txt": "a2\n" }, "second");
      git(dir, "switch", "-q", "--orphan", "other");
      const o1 = commit(dir, { "o.txt": "o\n" }, "other root");
      const o2 = commit(dir, { "o.txt": "o2\n" }, "other second");
      const g = makeGit(dir);
      for (const [from, to] of [
        [c1, c2],
        [c1, o2],
        ["-no", o2],
      ] as const) {
        expect((await g.revert(from, to, "undo")).isErr(), `${from}..${to}`).toBe(true);
      }
      expect(git(dir, "rev-parse", "HEAD")).toBe(o2);
      expect(git(dir, "rev-parse", "HEAD^")).toBe(o1);
      expect(git(dir, "status", "--porcelain")).toBe("");
    });

    it("setAside keeps changes and untracked files where they can be restored, and leaves the tree clean; null when clean", async () => {
      const { dir } = repo();
      const g = makeGit(dir);
      expect(await ok(g.setAside("nothing"))).toBeNull();
      put(dir, { "a.txt": "changed\n", "untracked.txt": "u\n" });
      const id = (await ok(g.setAside("decay: set aside before the run"))) ?? "";
      expect(id).toMatch(/^[0-9a-f]{40,64}$/);
      expect(await ok(g.dirty())).toEqual([]);
      expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("a\n");
      // What was set aside is a commit, with the message, holding the change; it or a parent of it holds the untracked file.
      expect(git(dir, "show", `${id}:a.txt`)).toBe("changed");
      expect(git(dir, "log", "-1", "--format=%s", id)).toContain("decay: set aside before the run");
      const held = git(dir, "rev-list", "--parents", "-1", id).split(" ");
      expect(held.some((c) => git(dir, "ls-tree", "--name-only", c).split("\n").includes("untracked.txt"))).toBe(true);
    });

    it("log is newest first with full messages, bounded by from, filtered by paths taken as written (none for an empty list)", async () => {
      const { dir, c1 } = repo();
      const c2 = commit(dir, { "b.txt": "b\n" }, "second\n\nwith a body\nof two lines");
      const c3 = commit(dir, { "a.txt": "a3\n" }, "third");
      const g = makeGit(dir);
      const all = await ok(g.log(null, c3));
      expect(all.map((c) => c.id)).toEqual([c3, c2, c1]);
      expect(all[1]?.message.trimEnd()).toBe("second\n\nwith a body\nof two lines");
      expect((await ok(g.log(c1, c3))).map((c) => c.id)).toEqual([c3, c2]);
      expect((await ok(g.log(null, c3, ["b.txt"]))).map((c) => c.id)).toEqual([c2]);
      expect(await ok(g.log(null, c3, ["*.txt"]))).toEqual([]);
      expect(await ok(g.log(null, c3, []))).toEqual([]);
    });

    it("changedPaths: every path the range changed once, renames as both paths, side branches included, from the top", async () => {
      const { dir, c1 } = repo();
      commit(dir, { "d/e f.txt": "1\n", "\nnew line.txt": "n\n", "é.txt": "e\n" }, "odd names");
      git(dir, "mv", "a.txt", "moved.txt");
      git(dir, "commit", "-q", "-m", "rename");
      git(dir, "switch", "-q", "-c", "side");
      commit(dir, { "side.txt": "s\n" }, "side");
      git(dir, "switch", "-q", "main");
      commit(dir, { "d/e f.txt": "2\n" }, "main");
      git(dir, "merge", "-q", "--no-ff", "side");
      const paths = await ok(inside(dir, "d").changedPaths(c1, "HEAD"));
      expect([...paths].sort()).toEqual(["\nnew line.txt", "a.txt", "d/e f.txt", "moved.txt", "side.txt", "é.txt"]);
      expect(await ok(makeGit(dir).changedPaths("HEAD", "HEAD"))).toEqual([]);
    });

    it("changedPaths: a merge counts only for what differs from every parent; a root commit for all its files", async () => {
      const { dir, c1 } = repo();
      git(dir, "switch", "-q", "-c", "side");
      commit(dir, { "s.txt": "s\n" }, "side");
      git(dir, "switch", "-q", "main");
      const m1 = commit(dir, { "m.txt": "m\n" }, "main");
      git(dir, "merge", "-q", "--no-ff", "--no-commit", "side");
      const merge = commit(dir, { "evil.txt": "written while merging\n" }, "merge");
      expect([...(await ok(makeGit(dir).changedPaths(m1, merge)))].sort()).toEqual(["evil.txt", "s.txt"]);
      git(dir, "config", "log.showRoot", "false");
      git(dir, "switch", "-q", "--orphan", "other");
      const root = commit(dir, { "o.txt": "o\n" }, "other root");
      expect(await ok(makeGit(dir).changedPaths(c1, root))).toEqual(["o.txt"]);
      expect((await makeGit(dir).changedPaths(c1, "f".repeat(40))).isErr()).toBe(true);
    });

    it("diffStats counts files and lines, a binary file as a file with no lines; diff is the patch", async () => {
      const { dir, c1 } = repo();
      put(dir, { "a.txt": "a\nmore\n", "t.txt": "1\n2\n3\n" });
      writeFileSync(join(dir, "bin.dat"), new Uint8Array([0, 1, 2, 0, 255]));
      const c2 = commit(dir, {}, "x");
      const g = makeGit(dir);
      const stats = await ok(g.diffStats(c1, c2));
      expect({ ...stats, paths: [...stats.paths].sort() }).toEqual({ files: 3, insertions: 4, deletions: 0, paths: ["a.txt", "bin.dat", "t.txt"] });
      const patch = await ok(g.diff(c1, c2, 1 << 20));
      expect(patch.truncated).toBeNull();
      expect(patch.text).toContain("diff --git a/a.txt b/a.txt");
      expect(patch.text).toContain("+more");
      expect(patch.text).toMatch(/Binary files .* differ/);
      expect((await g.diffStats(c1, "f".repeat(40))).isErr()).toBe(true);
      expect((await g.diff(c1, "f".repeat(40), 1 << 20)).isErr()).toBe(true);
    });

    it("diff leaves out, and names, a file whose patch is not UTF-8, however small; the other files are kept", async () => {
      const { dir, c1 } = repo();
      put(dir, { "a.txt": "a\nmore\n", "z.txt": "z\n" });
      // Latin-1 text: "café\n" with é as the single byte 0xE9, which UTF-8 never has alone.
      writeFileSync(join(dir, "latin1.txt"), new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]));
      const c2 = commit(dir, {}, "x");
      const patch = await ok(makeGit(dir).diff(c1, c2, 1 << 20));
      expect(patch.text).not.toContain("\uFFFD");
      expect(patch.text).not.toContain("latin1.txt");
      expect(patch.text).toContain("diff --git a/a.txt b/a.txt");
      expect(patch.text).toContain("diff --git a/z.txt b/z.txt");
      expect(patch.truncated?.files_left_out).toEqual([{ path: "latin1.txt", bytes: expect.any(Number) }]);
      expect(patch.truncated?.kept_bytes).toBe(new TextEncoder().encode(patch.text).length);
    });

    it("diff keeps whole files within maxBytes, leaving out and naming each that does not fit, with the full size", async () => {
      const { dir, c1 } = repo();
      const big = `${"x".repeat(99)}\n`.repeat(2000);
      // Sorted as git sorts them: the big files between small ones, one name C-quoted by git.
      const c2 = commit(dir, { "a.txt": "a\nsmall\n", 'big\t"é".txt': big, "m.txt": "m\n", "z/big.txt": big, "zz.txt": "z\n" }, "x");
      const g = makeGit(dir);
      const whole = await ok(g.diff(c1, c2, 1 << 30));
      expect(whole.truncated).toBeNull();
      const cut = await ok(g.diff(c1, c2, 10_000));
      const full = new TextEncoder().encode(whole.text).length;
      const kept = new TextEncoder().encode(cut.text).length;
      expect(kept).toBeLessThanOrEqual(10_000);
      expect(cut.truncated).toMatchObject({ max_bytes: 10_000, full_bytes: full, kept_bytes: kept });
      expect(cut.truncated?.files_left_out.map((f) => f.path)).toEqual(['big\t"é".txt', "z/big.txt"]);
      for (const f of cut.truncated?.files_left_out ?? []) expect(f.bytes).toBeGreaterThan(big.length);
      for (const name of ["a.txt", "m.txt", "zz.txt"]) expect(cut.text).toContain(`diff --git a/${name} b/${name}`);
      expect(cut.text).not.toContain("xxxxxxxxxx");
    });

    it("listFiles lists every tracked path of a commit, links included, from the top", async () => {
      const { dir, c1 } = repo();
      put(dir, { "d/e/f.txt": "f\n", "untracked.txt": "u\n" });
      symlinkSync("a.txt", join(dir, "link"));
      git(dir, "add", "d", "link");
      git(dir, "commit", "-q", "-m", "x");
      expect([...(await ok(inside(dir, "d").listFiles("HEAD")))].sort()).toEqual([".gitignore", "a.txt", "d/e/f.txt", "link"]);
      expect([...(await ok(makeGit(dir).listFiles(c1)))].sort()).toEqual([".gitignore", "a.txt"]);
    });

    it("tree reads a commit as committed, whatever the working tree holds now", async () => {
      const { dir, c1 } = repo();
      put(dir, { "d/f.txt": "f\n" });
      symlinkSync("a.txt", join(dir, "link"));
      const c2 = commit(dir, {}, "x");
      put(dir, { "a.txt": "changed, not committed\n", "new.txt": "untracked\n" });
      const tree = makeGit(dir).tree(c2);
      const entries = await ok(tree.list(""));
      expect([...entries].map((e) => [e.name, e.type]).sort()).toEqual([
        [".gitignore", "file"],
        ["a.txt", "file"],
        ["d", "directory"],
        ["link", "symlink"],
      ]);
      expect(new TextDecoder().decode(await ok(tree.read("a.txt", 1024)))).toBe("a\n");
      expect(await ok(tree.readLink("link"))).toBe("a.txt");
      expect((await makeGit(dir).tree(c1).read("d/f.txt", 1024)).isErr()).toBe(true);
    });

    it("no method reaches another repository: a remote's refs and objects stay as they were", async () => {
      const bare = temp("decay-git-contract-bare-");
      git(bare, "init", "-q", "--bare", "-b", "main");
      const { dir } = repo();
      git(dir, "remote", "add", "origin", bare);
      git(dir, "push", "-q", "origin", "main");
      git(dir, "remote", "set-head", "origin", "main");
      const before = [git(bare, "for-each-ref"), git(bare, "count-objects", "-v"), git(dir, "config", "--get-regexp", "^remote")];
      const g = makeGit(dir);
      expect(await ok(g.defaultBranch())).toBe("main");
      await g.switchBranch("plan/demo");
      put(dir, { "w.txt": "w\n" });
      const start = await ok(g.head());
      const id = (await ok(g.commitAll("work"))) as string;
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
  });
}
