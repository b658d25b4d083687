import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { concatBytes } from "@decay/portable";
import { memfs } from "memfs";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../test-utils/tmp.js";
import { type IsomorphicGitFs, isomorphicGit } from "./isomorphic-git.js";
import { systemGit } from "./node/git.js";
import { parseNumstat } from "./node/git-parse.js";
import { commit, gitContract, put } from "./testing/git-suite.js";
import { fixtureGit as git } from "./testing/room-fixture.js";

// What every Git adapter promises, over node:fs; isomorphicGit works at the top of the working tree only.
gitContract("isomorphicGit", (dir) => isomorphicGit({ fs, dir }));

describe("isomorphicGit: diffs agree with the system git", () => {
  const long = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`);
  const text = (lines: string[]) => `${lines.join("\n")}\n`;

  async function pair(): Promise<{ dir: string; c1: string; c2: string }> {
    const dir = await tempDir("decay-isogit-");
    git(dir, "init", "-q", "-b", "main");
    const c1 = commit(
      dir,
      {
        "long.txt": text(long),
        "gone.txt": "bye\n",
        "empty-gone.txt": "",
        "mode.sh": "echo hi\n",
        "mode-and-text.sh": "echo a\n",
        "crlf.txt": "one\r\ntwo\r\nthree\r\n",
        "no-eol.txt": "x\ny",
        "gets-eol.txt": "x\ny",
        "loses-eol.txt": "x\ny\n",
        "with space.txt": "s\n",
        "tab\there.txt": "t\n",
        "becomes-link": "file\n",
        "becomes-dir": "file\n",
        "func.c": "int main(void)\n{\n  int a;\n  int b;\n  int c;\n  int d;\n  return 0;\n}\n",
      },
      "c1",
    );
    const edited = [...long];
    edited[4] = "line five";
    edited.splice(20, 2);
    edited.splice(33, 0, "inserted");
    put(dir, {
      "long.txt": text(edited),
      "new-empty.txt": "",
      "mode-and-text.sh": "echo b\n",
      "crlf.txt": "one\r\n2\r\nthree\r\n",
      "no-eol.txt": "x\nz",
      "gets-eol.txt": "x\ny\n",
      "loses-eol.txt": "x\ny",
      "with space.txt": "s2\n",
      "tab\there.txt": "t2\n",
      "func.c": "int main(void)\n{\n  int a;\n  int b;\n  int c;\n  int d;\n  return 1;\n}\n",
    });
    fs.rmSync(join(dir, "gone.txt"));
    fs.rmSync(join(dir, "empty-gone.txt"));
    fs.rmSync(join(dir, "becomes-link"));
    fs.symlinkSync("long.txt", join(dir, "becomes-link"));
    fs.rmSync(join(dir, "becomes-dir"));
    put(dir, { "becomes-dir/inside.txt": "in\n" });
    fs.chmodSync(join(dir, "mode.sh"), 0o755);
    fs.chmodSync(join(dir, "mode-and-text.sh"), 0o755);
    fs.writeFileSync(join(dir, "bin.dat"), new Uint8Array([1, 0, 2, 3]));
    return { dir, c1, c2: commit(dir, {}, "c2") };
  }

  it("counts as git diff --numstat does, file by file, and prints the patch git prints", async () => {
    const { dir, c1, c2 } = await pair();
    const mine = isomorphicGit({ fs, dir });
    const stats = (await mine.diffStats(c1, c2))._unsafeUnwrap();
    expect(stats).toEqual(parseNumstat(git(dir, "diff", "--numstat", "-z", "--no-renames", c1, c2)));
    const { text: patch, truncated } = (await mine.diff(c1, c2, 1 << 20))._unsafeUnwrap();
    expect(truncated).toBeNull();
    expect(patch).toBe(`${git(dir, "-c", "core.quotepath=off", "diff", "--no-renames", "--abbrev=7", c1, c2)}\n`);
  });

  it("the patch applies to the first commit and gives the second", async () => {
    const { dir, c1, c2 } = await pair();
    const patch = (await isomorphicGit({ fs, dir }).diff(c1, c2, 1 << 20))._unsafeUnwrap().text;
    git(dir, "checkout", "-q", c1);
    const file = join(await tempDir("decay-isogit-patch-"), "x.patch");
    fs.writeFileSync(file, patch);
    // A binary file's "Binary files … differ" carries no content to apply, from git as from here.
    git(dir, "apply", "--check", "--exclude=bin.dat", file);
    git(dir, "apply", "--index", "--exclude=bin.dat", file);
    expect(git(dir, "diff", "--cached", "--name-only", c2)).toBe("bin.dat");
  });
});

/** A repository on main with one commit and an identity in its own config. */
async function repo(): Promise<{ dir: string; c1: string }> {
  const dir = await tempDir("decay-isogit-");
  git(dir, "init", "-q", "-b", "main");
  git(dir, "config", "user.name", "Someone");
  git(dir, "config", "user.email", "someone@x.invalid");
  return { dir, c1: commit(dir, { "a.txt": "a\n", ".gitignore": "ignored/\n" }, "first") };
}

const ENV = { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" };

describe("isomorphicGit: commits", () => {
  it("commits as the repository's configured identity; without one, a fault names what is missing and nothing changes", async () => {
    const { dir, c1 } = await repo();
    put(dir, { "x.txt": "x\n" });
    const id = (await isomorphicGit({ fs, dir }).commitAll("configured"))._unsafeUnwrap();
    expect(git(dir, "log", "-1", "--format=%an <%ae> / %cn <%ce>", id ?? "")).toBe("Someone <someone@x.invalid> / Someone <someone@x.invalid>");
    git(dir, "config", "--unset", "user.email");
    put(dir, { "y.txt": "y\n" });
    const fault = (await isomorphicGit({ fs, dir }).commitAll("no e-mail"))._unsafeUnwrapErr();
    expect(fault).toMatchObject({ code: "git-failed", op: "commit" });
    expect(fault.code === "git-failed" && fault.reason).toMatch(/^no user\.email in .*\.git\/config/);
    git(dir, "config", "--unset", "user.name");
    const both = (await isomorphicGit({ fs, dir }).revert(c1, id ?? "", "undo"))._unsafeUnwrapErr();
    expect(both.code === "git-failed" && both.reason).toMatch(/^no user\.name and no user\.email in /);
    expect(git(dir, "rev-parse", "HEAD")).toBe(id);
    expect(git(dir, "status", "--porcelain")).toBe("?? y.txt");
  });

  it("cleans the message as git commit --cleanup=whitespace does, and refuses an empty one", async () => {
    const { dir } = await repo();
    const g = isomorphicGit({ fs, dir });
    put(dir, { "x.txt": "x\n" });
    await g.commitAll("\n\n  subject  \n\n\n\nbody \t\n\n");
    expect(git(dir, "cat-file", "commit", "HEAD").split("\n\n").slice(1).join("\n\n")).toBe("  subject\n\nbody");
    put(dir, { "y.txt": "y\n" });
    expect((await g.commitAll(" \n "))._unsafeUnwrapErr()).toMatchObject({ code: "git-failed", op: "commit" });
  });

  it("revert on a detached HEAD moves HEAD alone; no-head for a repository with no commit", async () => {
    const { dir, c1 } = await repo();
    const c2 = commit(dir, { "b.txt": "b\n" }, "second");
    git(dir, "checkout", "-q", "--detach");
    const id = (await isomorphicGit({ fs, dir }).revert(c1, c2, "undo"))._unsafeUnwrap();
    expect(git(dir, "rev-parse", "HEAD", "main")).toBe(`${id}\n${c2}`);
    expect(fs.existsSync(join(dir, "b.txt"))).toBe(false);
    const empty = await tempDir();
    git(empty, "init", "-q");
    expect((await isomorphicGit({ fs, dir: empty }).head())._unsafeUnwrapErr()).toEqual({ code: "no-head", repo: empty });
    expect((await isomorphicGit({ fs, dir: await tempDir() }).head())._unsafeUnwrapErr()).toMatchObject({ code: "git-failed" });
  });

  it("what setAside holds, git stash pop restores: changes, staged files and untracked ones in new directories", async () => {
    const { dir } = await repo();
    put(dir, { "a.txt": "changed\n", "staged.txt": "s\n", "new/deep/u.txt": "u\n", "ignored/i.txt": "i\n" });
    git(dir, "add", "staged.txt");
    const id = (await isomorphicGit({ fs, dir }).setAside("kept for later"))._unsafeUnwrap();
    expect(git(dir, "status", "--porcelain")).toBe("");
    expect(fs.existsSync(join(dir, "new"))).toBe(false);
    expect(fs.existsSync(join(dir, "ignored/i.txt"))).toBe(true);
    expect(git(dir, "stash", "list", "--format=%H %gs")).toBe(`${id} On main: kept for later`);
    git(dir, "stash", "pop", "-q", "--index");
    expect(git(dir, "status", "--porcelain")).toBe("M a.txt\nA  staged.txt\n?? new/");
    expect(fs.readFileSync(join(dir, "new/deep/u.txt"), "utf8")).toBe("u\n");
  });
});

describe("isomorphicGit: history agrees with the system git", () => {
  // Side branches, a merge that takes one side's version, a merge that writes its own, equal commit times.
  async function merges(): Promise<{ dir: string; c1: string }> {
    const { dir, c1 } = await repo();
    git(dir, "switch", "-q", "-c", "side");
    commit(dir, { "s.txt": "s\n", "both.txt": "side\n" }, "side 1");
    commit(dir, { "d/x.txt": "x\n" }, "side 2");
    git(dir, "switch", "-q", "main");
    commit(dir, { "m.txt": "m\n", "both.txt": "main\n" }, "main 1");
    git(dir, "merge", "-q", "--no-edit", "-X", "ours", "side");
    git(dir, "switch", "-q", "-c", "late", c1);
    commit(dir, { "a.txt": "late\n" }, "late");
    git(dir, "switch", "-q", "main");
    git(dir, "merge", "-q", "--no-ff", "--no-commit", "late");
    commit(dir, { "a.txt": "resolved\n" }, "merge late");
    return { dir, c1 };
  }

  it("log, with and without paths, and changedPaths list what systemGit lists", async () => {
    const { dir, c1 } = await merges();
    const mine = isomorphicGit({ fs, dir });
    const theirs = systemGit({ dir, env: ENV });
    const side = git(dir, "rev-parse", "side");
    for (const [from, to] of [
      [null, "HEAD"],
      [c1, "HEAD"],
      [side, "HEAD"],
      ["late", "main"],
    ] as const) {
      expect((await mine.log(from, to))._unsafeUnwrap(), `${from}..${to}`).toEqual((await theirs.log(from, to))._unsafeUnwrap());
      for (const paths of [["both.txt"], ["a.txt"], ["d"], ["d/"], ["s.txt", "m.txt"], ["nothing"]]) {
        const want = (await theirs.log(from, to, paths))._unsafeUnwrap().map((c) => c.id);
        expect(
          (await mine.log(from, to, paths))._unsafeUnwrap().map((c) => c.id),
          `${from}..${to} -- ${paths}`,
        ).toEqual(want);
      }
      if (from !== null) {
        const want = [...(await theirs.changedPaths(from, to))._unsafeUnwrap()].sort();
        expect([...(await mine.changedPaths(from, to))._unsafeUnwrap()].sort(), `${from}..${to}`).toEqual(want);
      }
    }
  });
});

describe("isomorphicGit: on a memfs volume, no disk", () => {
  it("reads, diffs, commits and sets aside through the fs it is given", async () => {
    const { dir, c1 } = await repo();
    const c2 = commit(dir, { "a.txt": "a\nb\n" }, "second");
    const { fs: mfs } = memfs();
    const copy = (from: string, to: string) => {
      mfs.mkdirSync(to, { recursive: true });
      for (const e of fs.readdirSync(from, { withFileTypes: true })) {
        if (e.isDirectory()) copy(join(from, e.name), `${to}/${e.name}`);
        else mfs.writeFileSync(`${to}/${e.name}`, fs.readFileSync(join(from, e.name)));
      }
    };
    copy(dir, "/repo");
    const g = isomorphicGit({ fs: mfs as unknown as IsomorphicGitFs, dir: "/repo" });
    expect((await g.head())._unsafeUnwrap()).toBe(c2);
    expect((await g.diffStats(c1, c2))._unsafeUnwrap()).toEqual({ files: 1, insertions: 1, deletions: 0, paths: ["a.txt"] });
    mfs.writeFileSync("/repo/new.txt", "n\n");
    expect((await g.dirty())._unsafeUnwrap()).toEqual(["new.txt"]);
    const c3 = (await g.commitAll("on memfs"))._unsafeUnwrap() ?? "";
    expect((await g.listFiles(c3))._unsafeUnwrap()).toEqual([".gitignore", "a.txt", "new.txt"]);
    mfs.writeFileSync("/repo/a.txt", "changed\n");
    expect((await g.setAside("aside"))._unsafeUnwrap()).toMatch(/^[0-9a-f]{40}$/);
    expect(mfs.readFileSync("/repo/a.txt", "utf8")).toBe("a\nb\n");
    expect(fs.readFileSync(join(dir, "a.txt"), "utf8")).toBe("a\nb\n");
  });
});

describe("isomorphicGit: where it works", () => {
  it("topAbove names the top when dir is below it, null at the top", async () => {
    const { dir } = await repo();
    put(dir, { "sub/f.txt": "f\n" });
    expect((await isomorphicGit({ fs, dir }).topAbove?.())?._unsafeUnwrap()).toBeNull();
    expect((await isomorphicGit({ fs, dir: join(dir, "sub") }).topAbove?.())?._unsafeUnwrap()).toBe(dir);
  });

  it("imports nothing from isomorphic-git that talks to another repository", () => {
    const here = dirname(fileURLToPath(import.meta.url));
    const files = ["isomorphic-git.ts", ...fs.readdirSync(join(here, "isomorphic-git")).map((f) => `isomorphic-git/${f}`)];
    const outward = ["push", "fetch", "pull", "clone", "fastForward", "addRemote", "getRemoteInfo", "getRemoteInfo2", "listServerRefs"];
    for (const file of files.filter((f) => !f.endsWith(".test.ts"))) {
      const imports = [...fs.readFileSync(join(here, file), "utf8").matchAll(/import \{([^}]*)\} from "isomorphic-git"/g)];
      const names = imports.flatMap((m) => (m[1] ?? "").split(",").map((n) => n.trim().replace(/^type /, "")));
      expect(
        names.filter((n) => outward.includes(n)),
        file,
      ).toEqual([]);
    }
  });
});

describe("isomorphicGit: what its status does not see, seen", () => {
  it("an executable bit changed in the working tree or the index is dirty, committed and set aside with its mode", async () => {
    const { dir } = await repo();
    commit(dir, { "x.sh": "#!/bin/sh\n", "run.sh": "#!/bin/sh\n" }, "scripts");
    fs.chmodSync(join(dir, "x.sh"), 0o755);
    fs.chmodSync(join(dir, "run.sh"), 0o755);
    git(dir, "add", "run.sh");
    const g = isomorphicGit({ fs, dir });
    expect((await g.dirty())._unsafeUnwrap()).toEqual((await systemGit({ dir, env: ENV }).dirty())._unsafeUnwrap());
    const id = (await g.setAside("modes"))._unsafeUnwrap();
    expect(git(dir, "ls-tree", `${id}`, "x.sh", "run.sh")).toMatch(/^100755 .*\trun\.sh\n100755 .*\tx\.sh$/);
    git(dir, "stash", "pop", "-q");
    expect((fs.statSync(join(dir, "x.sh")).mode & 0o111) !== 0).toBe(true);
    const c = (await g.commitAll("exec"))._unsafeUnwrap();
    expect(git(dir, "ls-tree", `${c}`, "x.sh", "run.sh")).toMatch(/^100755 .*\trun\.sh\n100755 .*\tx\.sh$/);
    expect(git(dir, "status", "--porcelain")).toBe("");
  });

  it("an empty file marked intent-to-add is committed", async () => {
    const { dir } = await repo();
    put(dir, { "__init__.py": "" });
    git(dir, "add", "-N", "__init__.py");
    const c = (await isomorphicGit({ fs, dir }).commitAll("init"))._unsafeUnwrap();
    expect(git(dir, "ls-tree", "--name-only", `${c}`)).toBe(".gitignore\n__init__.py\na.txt");
    expect(git(dir, "status", "--porcelain")).toBe("");
  });

  it("log and changedPaths list nothing outside the range when committer dates go backwards", async () => {
    const { dir } = await repo();
    const at = (t: number, msg: string) => {
      put(dir, { "f.txt": `${msg}\n` });
      git(dir, "add", "-A");
      execFileSync("git", ["commit", "-q", "-m", msg], { cwd: dir, env: { ...ENV, GIT_COMMITTER_DATE: `${t} +0000`, GIT_AUTHOR_DATE: `${t} +0000` } });
      return git(dir, "rev-parse", "HEAD");
    };
    at(1700000000, "c1");
    const to = at(1700000060, "c2");
    let from = to;
    for (let i = 0; i < 7; i += 1) from = at(1699996500 + i * 60, `late ${i}`);
    const mine = isomorphicGit({ fs, dir });
    const theirs = systemGit({ dir, env: ENV });
    expect((await mine.log(from, to))._unsafeUnwrap()).toEqual([]);
    expect((await mine.log(from, to, ["f.txt"]))._unsafeUnwrap()).toEqual([]);
    expect((await mine.changedPaths(from, to))._unsafeUnwrap()).toEqual([]);
    expect((await mine.log(to, from))._unsafeUnwrap()).toEqual((await theirs.log(to, from))._unsafeUnwrap());
  });

  it("reads a history holding a name with a backslash", async () => {
    const { dir, c1 } = await repo();
    const c2 = commit(dir, { "win\\path.txt": "w\n" }, "backslash");
    const mine = isomorphicGit({ fs, dir });
    expect((await mine.listFiles(c2))._unsafeUnwrap()).toEqual([".gitignore", "a.txt", "win\\path.txt"]);
    expect((await mine.changedPaths(c1, c2))._unsafeUnwrap()).toEqual(["win\\path.txt"]);
    expect((await mine.diffStats(c1, c2))._unsafeUnwrap()).toEqual((await systemGit({ dir, env: ENV }).diffStats(c1, c2))._unsafeUnwrap());
  });

  it("branchHead takes only names git takes as a branch", async () => {
    const { dir } = await repo();
    git(dir, "tag", "v1");
    const mine = isomorphicGit({ fs, dir });
    for (const name of ["../../HEAD", "../tags/v1", "a/../main", "x..y", ".hidden", "x.lock", "main/", "a b", "a@{1}"]) {
      expect((await mine.branchHead(name))._unsafeUnwrap(), name).toBeNull();
    }
    expect((await mine.branchHead("main"))._unsafeUnwrap()).toBe(git(dir, "rev-parse", "main"));
  });

  it("extra ignore rules (the global excludes) hide files as git's core.excludesFile does", async () => {
    const { dir } = await repo();
    put(dir, { ".env": "API_KEY=secret\n", "b.txt": "b\n" });
    expect((await isomorphicGit({ fs, dir, excludes: ".env\n" }).dirty())._unsafeUnwrap()).toEqual(["b.txt"]);
    const c = (await isomorphicGit({ fs, dir, excludes: ".env\n" }).commitAll("b"))._unsafeUnwrap();
    expect(git(dir, "ls-tree", "--name-only", `${c}`)).toBe(".gitignore\na.txt\nb.txt");
    const global = join(await tempDir(), "ignore");
    fs.writeFileSync(global, ".env\n");
    git(dir, "config", "core.excludesFile", global);
    const fault = (await isomorphicGit({ fs, dir }).commitAll("env"))._unsafeUnwrapErr();
    expect(fault.code === "git-failed" && fault.reason).toMatch(/^core\.excludesFile is not supported .*use systemGit/);
    expect(git(dir, "status", "--porcelain", "--ignored")).toBe("!! .env");
  });
});

describe("isomorphicGit: ignore rules match case as written, as git's do, or the status is refused", () => {
  it("a file a rule hides only when case is ignored (Build/ over build/), or shows only then (!Keep.log), is a fault naming it", async () => {
    // What git (case as written) makes of the file: build/ shown as untracked, keep.log ignored.
    for (const [rules, file, gitShows] of [
      ["Build/\n", "build/x.txt", true],
      ["*.log\n!Keep.log\n", "keep.log", false],
    ] as const) {
      const { dir } = await repo();
      put(dir, { ".gitignore": rules, [file]: "x\n" });
      const untracked = git(dir, "-c", "core.ignorecase=false", "status", "--porcelain", "--untracked-files=all");
      expect([file, untracked.includes(`?? ${file}`)]).toEqual([file, gitShows]);
      const mine = isomorphicGit({ fs, dir });
      for (const fault of [(await mine.dirty())._unsafeUnwrapErr(), (await mine.commitAll("x"))._unsafeUnwrapErr()]) {
        expect(fault.code === "git-failed" && fault.reason).toMatch(
          new RegExp(`^${file} is ignored only when ignore rules match regardless of case.*use systemGit$`),
        );
      }
      expect(git(dir, "log", "--format=%s")).toBe("first");
      // Where git too matches regardless of case (core.ignorecase, as on macOS and Windows), both agree.
      git(dir, "config", "core.ignorecase", "true");
      expect([file, (await mine.dirty()).isOk()]).toEqual([file, true]);
    }
  });

  it("rules written in the case of the names they match are no reason to refuse: dirty agrees with systemGit", async () => {
    const { dir } = await repo();
    put(dir, {
      ".gitignore": "node_modules/\ndist/\n*.log\n!keep.log\nBuild/\n",
      "node_modules/p/index.js": "x\n",
      "dist/out.js": "x\n",
      "debug.log": "x\n",
      "keep.log": "x\n",
      "Build/out.o": "x\n",
      "src/New File.ts": "x\n",
      "a.txt": "changed\n",
    });
    const mine = (await isomorphicGit({ fs, dir }).dirty())._unsafeUnwrap();
    const theirs = (await systemGit({ dir }).dirty())._unsafeUnwrap();
    expect([...mine].sort()).toEqual([...theirs].sort());
    expect([...mine].sort()).toEqual([".gitignore", "a.txt", "keep.log", "src/New File.ts"]);
  });
});

describe("isomorphicGit: large files", () => {
  it("diff of a new file of 130,000 lines is bounded as systemGit's is, with no stack overflow", async () => {
    const { dir, c1 } = await repo();
    const c2 = commit(dir, { "data.csv": Array.from({ length: 130_000 }, (_, i) => `${i},x\n`).join("") }, "data");
    const mine = (await isomorphicGit({ fs, dir }).diff(c1, c2, 4096))._unsafeUnwrap();
    expect(mine).toEqual((await systemGit({ dir, env: ENV }).diff(c1, c2, 4096))._unsafeUnwrap());
  });

  it("a hunk's function line is cut as git cuts it: 80 bytes, no trailing blanks (VT and FF are none), then only what is UTF-8 to git", async () => {
    const { dir, c1 } = await repo();
    const enc = (t: string) => new TextEncoder().encode(t);
    const bytes = (...parts: (string | number[] | Uint8Array)[]) => {
      const pieces = parts.map((p) => (typeof p === "string" ? enc(p) : Uint8Array.from(p)));
      return concatBytes(
        pieces,
        pieces.reduce((n, p) => n + p.length, 0),
      );
    };
    const f = (n: number) => "f".repeat(n);
    // Each is the line above a hunk: characters cut at byte 80, bytes of another encoding, forms
    // git refuses (overlong, surrogate, past U+10FFFF, U+FFFF) and ones it takes (U+FDD0, U+1FFFF).
    const heads: Record<string, Uint8Array> = {
      "cut2.txt": bytes(f(79), "é()"),
      "cut-after-blank.txt": bytes(f(78), " é()"),
      "cut4.txt": bytes(f(78), "😀()"),
      "blank-then-cut.txt": bytes(f(76), " \t😀"),
      "whole.txt": bytes(f(78), "é"),
      "latin1.txt": bytes("caf", [0xe9], " x()"),
      "stray.txt": bytes(f(79), [0x80, 0x80]),
      "overlong.txt": bytes("abc", [0xc0, 0x80], "def"),
      "overlong3.txt": bytes("abc", [0xe0, 0x80, 0x80], "def"),
      "surrogate.txt": bytes("abc", [0xed, 0xa0, 0x80], "def"),
      "past-max.txt": bytes("abc", [0xf4, 0x90, 0x80, 0x80], "def"),
      "ffff.txt": bytes("abc", [0xef, 0xbf, 0xbf], "def"),
      "fffe.txt": bytes("abc", [0xef, 0xbf, 0xbe], "def"),
      "fdd0.txt": bytes("abc", [0xef, 0xb7, 0x90], "def"),
      "plane1.txt": bytes("abc", [0xf0, 0x9f, 0xbf, 0xbf], "def"),
      "blanks.txt": bytes(f(79), "  "),
      "form-feed.txt": bytes("fun\f"),
      "vertical-tab.txt": bytes("fun\v \t"),
    };
    const body = Array.from({ length: 10 }, (_, i) => `  line ${i}\n`).join("");
    for (const [name, head] of Object.entries(heads)) fs.writeFileSync(join(dir, name), bytes(head, `\n${body}`));
    const c2 = commit(dir, {}, "two");
    for (const name of Object.keys(heads)) fs.appendFileSync(join(dir, name), "end\n");
    const c3 = commit(dir, {}, "three");
    const mine = (await isomorphicGit({ fs, dir }).diff(c2, c3, 1 << 20))._unsafeUnwrap();
    expect(mine).toEqual((await systemGit({ dir, env: ENV }).diff(c2, c3, 1 << 20))._unsafeUnwrap());
    expect(mine.truncated).toBeNull();
    expect(mine.text).toContain(`@@ -9,3 +9,4 @@ ${f(79)}\n`);
    expect(mine.text).toContain(`@@ -9,3 +9,4 @@ ${f(78)}é\n`);
    expect(mine.text).toContain("@@ -9,3 +9,4 @@ abc\uFDD0def\n");
    expect(mine.text).toContain("@@ -9,3 +9,4 @@ caf\n");
    expect(mine.text).toContain("@@ -9,3 +9,4 @@ fun\f\n");
    expect(mine.text).toContain("@@ -9,3 +9,4 @@ fun\v\n");
    expect(c1).not.toBe(c2);
  });
});

describe("isomorphicGit: what it cannot do is refused before anything is written", () => {
  const refused = async (dir: string, pattern: RegExp) => {
    const g = isomorphicGit({ fs, dir });
    const before = git(dir, "status", "--porcelain");
    const head = git(dir, "rev-parse", "HEAD");
    for (const r of [await g.dirty(), await g.commitAll("x"), await g.setAside("x")]) {
      const fault = r._unsafeUnwrapErr();
      expect(fault.code === "git-failed" && fault.reason).toMatch(pattern);
      expect(fault.code === "git-failed" && fault.reason).toMatch(/use systemGit/);
    }
    expect(git(dir, "status", "--porcelain")).toBe(before);
    expect(git(dir, "rev-parse", "HEAD")).toBe(head);
  };

  it("a sparse checkout, skip-worktree and assume-unchanged entries", async () => {
    const { dir } = await repo();
    commit(dir, { "keep/a.txt": "a\n", "other/b.txt": "b\n" }, "dirs");
    git(dir, "sparse-checkout", "set", "keep");
    put(dir, { "keep/a.txt": "edited\n" });
    await refused(dir, /sparse checkout/);
    git(dir, "sparse-checkout", "disable");
    git(dir, "config", "core.sparseCheckout", "false");
    git(dir, "update-index", "--skip-worktree", "a.txt");
    await refused(dir, /skip-worktree bit \(a\.txt/);
    git(dir, "update-index", "--no-skip-worktree", "a.txt");
    git(dir, "update-index", "--assume-unchanged", "a.txt");
    await refused(dir, /assume-unchanged bit \(a\.txt/);
  });

  it("an index of version 4 and a split index", async () => {
    const { dir } = await repo();
    put(dir, { "b.txt": "b\n" });
    git(dir, "update-index", "--index-version", "4");
    await refused(dir, /index of version 4/);
    git(dir, "update-index", "--index-version", "2");
    git(dir, "update-index", "--split-index");
    await refused(dir, /split index/);
  });

  it("attributes: a .gitattributes tracked or untracked, info/attributes", async () => {
    const { dir } = await repo();
    put(dir, { "sub/.gitattributes": "*.txt text eol=crlf\n" });
    await refused(dir, /\.gitattributes file \(sub\/\.gitattributes\)/);
    commit(dir, {}, "attributes");
    await refused(dir, /\.gitattributes file/);
    const other = (await repo()).dir;
    put(other, { ".git/info/attributes": "* -text\n" });
    await refused(other, /info\/attributes is not supported/);
  });

  it("core.fileMode=false, and a merge under way", async () => {
    const { dir } = await repo();
    put(dir, { "a.txt": "changed\n" });
    git(dir, "config", "core.fileMode", "false");
    await refused(dir, /core\.fileMode=false .*executable bit/);
    git(dir, "config", "core.fileMode", "true");
    git(dir, "switch", "-q", "-c", "side");
    commit(dir, { "a.txt": "side\n" }, "side");
    git(dir, "switch", "-q", "main");
    commit(dir, { "a.txt": "main\n" }, "main");
    expect(() => git(dir, "merge", "-q", "side")).toThrow();
    await refused(dir, /a merge in progress \(MERGE_HEAD\)/);
  });

  it("a file that is a directory on the other side, for switchBranch, revert and setAside; revert over an uncommitted change", async () => {
    const { dir, c1 } = await repo();
    git(dir, "switch", "-q", "-c", "other");
    fs.rmSync(join(dir, "a.txt"));
    const c2 = commit(dir, { "a.txt/inside.txt": "in\n" }, "a file becomes a directory");
    git(dir, "switch", "-q", "main");
    const g = isomorphicGit({ fs, dir });
    expect((await g.switchBranch("other"))._unsafeUnwrapErr()).toMatchObject({
      reason: expect.stringMatching(/a file on one side and a directory on the other \(a\.txt\)/),
    });
    expect([git(dir, "branch", "--show-current"), git(dir, "status", "--porcelain")]).toEqual(["main", ""]);
    git(dir, "switch", "-q", "other");
    expect((await g.revert(c1, c2, "undo"))._unsafeUnwrapErr()).toMatchObject({ reason: expect.stringMatching(/directory on the other \(a\.txt\)/) });
    expect(git(dir, "rev-parse", "HEAD")).toBe(c2);
    git(dir, "switch", "-q", "main");
    fs.rmSync(join(dir, "a.txt"));
    put(dir, { "a.txt/y": "y\n" });
    expect((await g.setAside("aside"))._unsafeUnwrapErr()).toMatchObject({ reason: expect.stringMatching(/directory on the other \(a\.txt\)/) });
    expect(git(dir, "stash", "list")).toBe("");
    fs.rmSync(join(dir, "a.txt"), { recursive: true });
    git(dir, "checkout", "--", "a.txt");
    const c3 = commit(dir, { "b.txt": "b\n" }, "b");
    fs.chmodSync(join(dir, "a.txt"), 0o755);
    expect((await g.revert(c1, c3, "undo b"))._unsafeUnwrapErr()).toMatchObject({
      reason: expect.stringMatching(/uncommitted change to a tracked file, and a\.txt/),
    });
    expect(git(dir, "rev-parse", "HEAD")).toBe(c3);
  });

  it("a submodule", async () => {
    const { dir } = await repo();
    const inner = (await repo()).dir;
    git(dir, "-c", "protocol.file.allow=always", "submodule", "add", "-q", inner, "sub");
    commit(dir, {}, "submodule");
    await refused(dir, /a submodule \(sub\)/);
  });

  it("switchBranch with a staged file, or over a symbolic link that differs; revert and setAside over a link", async () => {
    const { dir } = await repo();
    git(dir, "branch", "other");
    put(dir, { "staged.txt": "s\n" });
    git(dir, "add", "staged.txt");
    const g = isomorphicGit({ fs, dir });
    expect((await g.switchBranch("other"))._unsafeUnwrapErr()).toMatchObject({
      code: "git-failed",
      reason: expect.stringMatching(/staged changes \(staged\.txt\)/),
    });
    expect(git(dir, "status", "--porcelain")).toBe("A  staged.txt");
    git(dir, "rm", "-q", "--cached", "staged.txt");
    fs.rmSync(join(dir, "staged.txt"));
    fs.symlinkSync("a.txt", join(dir, "link"));
    const c2 = commit(dir, {}, "link");
    git(dir, "switch", "-q", "other");
    fs.symlinkSync(".gitignore", join(dir, "link"));
    commit(dir, { "a.txt": "other\n" }, "other link");
    git(dir, "switch", "-q", "main");
    expect((await g.switchBranch("other"))._unsafeUnwrapErr()).toMatchObject({ reason: expect.stringMatching(/symbolic link \(link\).*use systemGit/) });
    expect(git(dir, "status", "--porcelain")).toBe("");
    expect(git(dir, "branch", "--show-current")).toBe("main");
    fs.rmSync(join(dir, "link"));
    fs.symlinkSync("nowhere", join(dir, "link"));
    const c3 = commit(dir, { "a.txt": "three\n" }, "three");
    expect((await g.revert(c2, c3, "undo"))._unsafeUnwrapErr()).toMatchObject({ reason: expect.stringMatching(/symbolic link \(link\)/) });
    expect(git(dir, "rev-parse", "HEAD")).toBe(c3);
    fs.rmSync(join(dir, "link"));
    fs.symlinkSync("elsewhere", join(dir, "link"));
    expect((await g.setAside("aside"))._unsafeUnwrapErr()).toMatchObject({ reason: expect.stringMatching(/symbolic link \(link\)/) });
    expect(git(dir, "stash", "list")).toBe("");
    expect(git(dir, "status", "--porcelain")).toBe("M link");
    // HEAD's link made a regular file: putting the link back is a rewrite too.
    fs.rmSync(join(dir, "link"));
    fs.writeFileSync(join(dir, "link"), "a file now\n");
    expect((await g.setAside("aside"))._unsafeUnwrapErr()).toMatchObject({ reason: expect.stringMatching(/symbolic link \(link\)/) });
    expect(git(dir, "stash", "list")).toBe("");
    expect(fs.lstatSync(join(dir, "link")).isFile()).toBe(true);
  });
});
