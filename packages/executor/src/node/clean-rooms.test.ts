import { execFileSync } from "node:child_process";
import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Room } from "../ports.js";
import { cleanRoomContract } from "../testing/clean-room-suite.js";
import { fixtureGit, makeRoomFixture, type RoomFixture, worktrees } from "../testing/room-fixture.js";
import { gitCloneRoom, gitWorktreeRoom, type WorktreeCleanRoom } from "./clean-rooms.js";
import { privateDir } from "./room-dirs.js";
import { describeSparesOff, type SparesOff } from "./spare-rooms.js";

cleanRoomContract("gitCloneRoom", (repo, dir) => gitCloneRoom({ repo, dir }));
cleanRoomContract("gitWorktreeRoom", (repo, dir) => gitWorktreeRoom({ repo, dir }));
cleanRoomContract("gitWorktreeRoom without spares", (repo, dir) => gitWorktreeRoom({ repo, dir, spares: 0 }));

describe("gitWorktreeRoom spares", () => {
  let fx: RoomFixture;
  let room: WorktreeCleanRoom;
  beforeEach(() => {
    fx = makeRoomFixture();
    room = gitWorktreeRoom({ repo: fx.repo, dir: fx.rooms });
  });
  afterEach(() => fx.remove());

  const open = async (commit: string, name: string): Promise<Room> => {
    const r = await room.open({ commit, name });
    if (r.isErr()) throw new Error(JSON.stringify(r.error));
    return r.value;
  };
  const dispose = async (r: Room) => expect((await r.dispose()).isOk()).toBe(true);
  const uid = process.getuid?.() ?? -1;
  const mine = () => join(fx.rooms, `decay-spares-${uid}`);
  const spare = () => {
    const keys = readdirSync(mine());
    expect(keys).toHaveLength(1);
    return join(mine(), keys[0] ?? "", "spare-0");
  };

  it("parks a disposed room in a private directory outside the repository and hands it to the next room", async () => {
    const one = await open(fx.second, "one");
    await dispose(one);
    expect(existsSync(one.dir)).toBe(false);
    expect(existsSync(join(spare(), "later.txt"))).toBe(true);
    expect(lstatSync(mine()).mode & 0o777).toBe(0o700);
    expect(realpathSync(spare()).startsWith(realpathSync(fx.repo))).toBe(false);
    expect(existsSync(join(fx.repo, ".git/decay-rooms"))).toBe(false);
    const two = await open(fx.first, "two");
    expect(existsSync(spare())).toBe(false);
    expect(worktrees(fx.repo)).toHaveLength(2);
    expect(existsSync(join(two.dir, "later.txt"))).toBe(false);
    await dispose(two);
    expect((await room.close()).isOk()).toBe(true);
    expect(readdirSync(mine())).toEqual([]);
    expect(worktrees(fx.repo)).toHaveLength(1);
  });

  it("restores a tracked file changed in place even when its size and mtime were put back", async () => {
    const one = await open(fx.first, "one");
    const path = join(one.dir, "a.txt");
    const before = statSync(path);
    writeFileSync(path, "ALPHA\n");
    utimesSync(path, before.atime, before.mtime);
    await dispose(one);
    const two = await open(fx.first, "two");
    expect(readFileSync(join(two.dir, "a.txt"), "utf8")).toBe("alpha\n");
    await dispose(two);
  });

  it("removes ignored output, untracked directories, nested repositories and index flags a room left", async () => {
    const one = await open(fx.first, "one");
    mkdirSync(join(one.dir, ".plan-runs/x"), { recursive: true });
    writeFileSync(join(one.dir, ".plan-runs/x/out.txt"), "ignored\n");
    mkdirSync(join(one.dir, "nested"));
    execFileSync("git", ["init", "-q"], { cwd: join(one.dir, "nested") });
    writeFileSync(join(one.dir, "nested/n.txt"), "n\n");
    execFileSync("git", ["-C", one.dir, "update-index", "--skip-worktree", "a.txt"]);
    writeFileSync(join(one.dir, "a.txt"), "hidden by a flag\n");
    await dispose(one);
    const two = await open(fx.first, "two");
    expect(readFileSync(join(two.dir, "a.txt"), "utf8")).toBe("alpha\n");
    expect(existsSync(join(two.dir, ".plan-runs"))).toBe(false);
    expect(existsSync(join(two.dir, "nested"))).toBe(false);
    expect(execFileSync("git", ["-C", two.dir, "status", "--porcelain", "--ignored", "--untracked-files=all"], { encoding: "utf8" })).toBe("");
    await dispose(two);
  });

  it("discards a spare whose .git no longer names this repository and adds a fresh worktree", async () => {
    const one = await open(fx.first, "one");
    writeFileSync(join(one.dir, ".git"), "gitdir: /nowhere/else\n");
    await dispose(one);
    const two = await open(fx.second, "two");
    expect(readFileSync(join(two.dir, "later.txt"), "utf8")).toBe("later\n");
    expect(readFileSync(join(two.dir, ".git"), "utf8")).toContain(join(fx.repo, ".git/worktrees"));
    await dispose(two);
  });

  it("two rooms opened at once both hold their commit", async () => {
    await dispose(await open(fx.first, "warm"));
    const [a, b] = await Promise.all([open(fx.first, "a"), open(fx.second, "b")]);
    expect(existsSync(join(a.dir, "later.txt"))).toBe(false);
    expect(readFileSync(join(b.dir, "later.txt"), "utf8")).toBe("later\n");
    await Promise.all([dispose(a), dispose(b)]);
    expect(worktrees(fx.repo).filter((w) => !w.includes("/decay-spares-"))).toHaveLength(1);
  });

  it("keeps nothing with spares: 0", async () => {
    const bare = gitWorktreeRoom({ repo: fx.repo, dir: fx.rooms, spares: 0 });
    const r = await bare.open({ commit: fx.first, name: "one" });
    expect(r.isOk()).toBe(true);
    if (r.isOk()) await dispose(r.value);
    expect(readdirSync(fx.rooms)).toEqual([]);
    expect(worktrees(fx.repo)).toHaveLength(1);
  });

  // On a shared /tmp anyone can make the per-user directory's name first. Such a directory is never
  // used and never stops a room: the adapter keeps no spare, as with `spares: 0`, and says so once.
  const withoutSpares = async (why: RegExp) => {
    const warnings: SparesOff[] = [];
    const cold = gitWorktreeRoom({ repo: fx.repo, dir: fx.rooms, onWarning: (w) => warnings.push(w) });
    const [a, b] = await Promise.all([cold.open({ commit: fx.first, name: "a" }), cold.open({ commit: fx.first, name: "b" })]);
    for (const r of [a, b]) if (r.isOk()) await dispose(r.value);
    expect([a.isOk(), b.isOk()]).toEqual([true, true]);
    for (const [commit, name] of [
      [fx.first, "one"],
      [fx.second, "two"],
    ] as const) {
      const r = await cold.open({ commit, name });
      expect(r.isOk(), JSON.stringify(r.isErr() && r.error)).toBe(true);
      if (r.isErr()) return;
      expect(existsSync(join(r.value.dir, "later.txt"))).toBe(commit === fx.second);
      await dispose(r.value);
      expect(existsSync(dirname(r.value.dir))).toBe(false);
      expect(worktrees(fx.repo)).toHaveLength(1);
    }
    expect((await cold.close()).isOk()).toBe(true);
    expect(warnings).toEqual([{ code: "spares-off", path: mine(), reason: expect.stringMatching(why) }]);
    expect(describeSparesOff(warnings[0] as SparesOff)).toContain("set `dir` to a directory of your own");
    expect(readdirSync(fx.rooms).filter((n) => n.startsWith("decay-room-"))).toEqual([]);
    expect(worktrees(fx.repo)).toHaveLength(1);
  };

  it("a spare directory others can open is never used, and no room fails for it", async () => {
    mkdirSync(mine());
    chmodSync(mine(), 0o777);
    await withoutSpares(/others have access to it \(mode 777\)/);
    expect(readdirSync(mine())).toEqual([]);
  });

  it("a link in place of the spare directory is never followed, and no room fails for it", async () => {
    mkdirSync(join(fx.rooms, "elsewhere"), { mode: 0o700 });
    symlinkSync(join(fx.rooms, "elsewhere"), mine());
    await withoutSpares(/symbolic link/);
    expect(readdirSync(join(fx.rooms, "elsewhere"))).toEqual([]);
  });

  // A user cannot remove another's directory from a sticky /tmp: the run must go on without it.
  it.runIf(uid === 0)("a spare directory another user owns is never used, and no room fails for it", async () => {
    mkdirSync(mine(), { mode: 0o700 });
    chownSync(mine(), 4242, 4242);
    await withoutSpares(/owned by uid 4242, not by this user \(uid 0\)/);
    expect(readdirSync(mine())).toEqual([]);
    expect(lstatSync(mine()).uid).toBe(4242);
    expect(lstatSync(mine()).mode & 0o777).toBe(0o700);
  });

  // Without root no directory can be given to another user; `/` is one another user (root) owns.
  it.runIf(uid > 0)("the spare directory check refuses a real directory another user owns", async () => {
    const r = await privateDir("/", uid);
    expect(r.isErr() && r.error.reason).toBe(`it is owned by uid 0, not by this user (uid ${uid})`);
  });

  it("a spare directory made unusable while a room is open: the room is still disposed, and no room fails for it", async () => {
    const warnings: SparesOff[] = [];
    const warm = gitWorktreeRoom({ repo: fx.repo, dir: fx.rooms, onWarning: (w) => warnings.push(w) });
    const one = (await warm.open({ commit: fx.first, name: "one" }))._unsafeUnwrap();
    rmSync(mine(), { recursive: true, force: true });
    writeFileSync(mine(), "not a directory\n");
    await dispose(one);
    const two = (await warm.open({ commit: fx.second, name: "two" }))._unsafeUnwrap();
    expect(readFileSync(join(two.dir, "later.txt"), "utf8")).toBe("later\n");
    await dispose(two);
    expect(warnings).toEqual([{ code: "spares-off", path: mine(), reason: "it is not a directory" }]);
    expect(readFileSync(mine(), "utf8")).toBe("not a directory\n");
    expect(readdirSync(fx.rooms).filter((n) => n.startsWith("decay-room-"))).toEqual([]);
    expect(worktrees(fx.repo)).toHaveLength(1);
  });

  it("with spares: 0 the spare directory is never looked at", async () => {
    mkdirSync(mine());
    chmodSync(mine(), 0o777);
    const warnings: SparesOff[] = [];
    const bare = gitWorktreeRoom({ repo: fx.repo, dir: fx.rooms, spares: 0, onWarning: (w) => warnings.push(w) });
    await dispose((await bare.open({ commit: fx.first, name: "one" }))._unsafeUnwrap());
    expect(warnings).toEqual([]);
  });
});

describe("gitWorktreeRoom and the repository's own filter drivers", () => {
  it("a driver the repository had before the first room runs there, as in its checkout; one changed after it does not", async () => {
    const fx = makeRoomFixture();
    try {
      const common = join(fx.repo, fixtureGit(fx.repo, "rev-parse", "--git-common-dir"));
      mkdirSync(join(common, "info"), { recursive: true });
      writeFileSync(join(common, "info", "attributes"), "later.txt filter=up\n");
      fixtureGit(fx.repo, "config", "filter.up.smudge", "tr a-z A-Z");
      fixtureGit(fx.repo, "config", "filter.up.clean", "tr A-Z a-z");
      const room = gitWorktreeRoom({ repo: fx.repo, dir: fx.rooms, spares: 0 });
      const inRoom = async (name: string) => {
        const r = await room.open({ commit: fx.second, name });
        if (r.isErr()) throw new Error(JSON.stringify(r.error));
        const text = readFileSync(join(r.value.dir, "later.txt"), "utf8");
        expect((await r.value.dispose()).isOk()).toBe(true);
        return text;
      };
      expect(await inRoom("trusted")).toBe("LATER\n");
      // What an agent would do between two rooms: the driver now says something else.
      fixtureGit(fx.repo, "config", "filter.up.smudge", "sh -c 'cat >/dev/null; echo forged'");
      expect(await inRoom("changed")).toBe("later\n");
    } finally {
      fx.remove();
    }
  });
});
