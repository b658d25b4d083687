import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Room } from "../ports.js";
import { cleanRoomContract } from "../testing/clean-room-suite.js";
import { makeRoomFixture, type RoomFixture, worktrees } from "../testing/room-fixture.js";
import { gitCloneRoom, gitWorktreeRoom, type WorktreeCleanRoom } from "./clean-rooms.js";

cleanRoomContract("gitCloneRoom", (repo) => gitCloneRoom({ repo }));
cleanRoomContract("gitWorktreeRoom", (repo) => gitWorktreeRoom({ repo }));
cleanRoomContract("gitWorktreeRoom without spares", (repo) => gitWorktreeRoom({ repo, spares: 0 }));

describe("gitWorktreeRoom spares", () => {
  let fx: RoomFixture;
  let room: WorktreeCleanRoom;
  beforeEach(() => {
    fx = makeRoomFixture();
    room = gitWorktreeRoom({ repo: fx.repo });
  });
  afterEach(() => fx.remove());

  const open = async (commit: string, name: string): Promise<Room> => {
    const r = await room.open({ commit, parent: fx.parent, name });
    if (r.isErr()) throw new Error(JSON.stringify(r.error));
    return r.value;
  };
  const dispose = async (r: Room) => expect((await r.dispose()).isOk()).toBe(true);
  const spare = () => join(fx.repo, ".git/decay-rooms/spare-0");

  it("parks a disposed room inside the git directory and hands it to the next room", async () => {
    const one = await open(fx.second, "one");
    await dispose(one);
    expect(existsSync(one.dir)).toBe(false);
    expect(existsSync(join(spare(), "later.txt"))).toBe(true);
    const two = await open(fx.first, "two");
    expect(existsSync(spare())).toBe(false);
    expect(worktrees(fx.repo)).toHaveLength(2);
    expect(existsSync(join(two.dir, "later.txt"))).toBe(false);
    await dispose(two);
    expect((await room.close()).isOk()).toBe(true);
    expect(existsSync(spare())).toBe(false);
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
    expect(worktrees(fx.repo).filter((w) => !w.includes("/.git/"))).toHaveLength(1);
  });

  it("keeps nothing with spares: 0", async () => {
    const bare = gitWorktreeRoom({ repo: fx.repo, spares: 0 });
    const r = await bare.open({ commit: fx.first, parent: fx.parent, name: "one" });
    expect(r.isOk()).toBe(true);
    if (r.isOk()) await dispose(r.value);
    expect(existsSync(join(fx.repo, ".git/decay-rooms"))).toBe(false);
    expect(worktrees(fx.repo)).toHaveLength(1);
  });
});
