// The CleanRoom contract: what every clean-room adapter promises, written once. An adapter's test
// file calls `cleanRoomContract(name, makeRoom)`; the suite makes its own repository.
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { okAsync } from "neverthrow";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ExecFault } from "../fault.js";
import type { CleanRoom, Room, RoomRequest } from "../ports.js";
import { FIRST_FILES, FIRST_LINKS, makeRoomFixture, type RoomFixture, worktrees } from "./room-fixture.js";

async function opened(room: CleanRoom, request: RoomRequest): Promise<Room> {
  const r = await room.open(request);
  if (r.isErr()) throw new Error(`open failed: ${JSON.stringify(r.error)}`);
  return r.value;
}

async function refused(room: CleanRoom, request: RoomRequest): Promise<ExecFault> {
  const r = await room.open(request);
  if (r.isOk()) throw new Error(`open succeeded in ${r.value.dir}, a fault was expected`);
  return r.error;
}

async function disposed(room: Room): Promise<void> {
  const r = await room.dispose();
  expect(r.isOk(), JSON.stringify(r.isErr() ? r.error : null)).toBe(true);
}

/**
 * Registers the clean-room contract for one adapter. `makeRoom(repo)` returns the adapter for the
 * repository at `repo`; it must be able to run a setup command (give it a Shell).
 */
export function cleanRoomContract(name: string, makeRoom: (repo: string) => CleanRoom): void {
  describe(`CleanRoom contract: ${name}`, () => {
    let fx: RoomFixture;
    let room: CleanRoom;
    const at = (commit: string, roomName: string, setup?: RoomRequest["setup"]): RoomRequest => ({
      commit,
      parent: fx.parent,
      name: roomName,
      ...(setup ? { setup } : {}),
    });
    const nothingLeft = (dir: string) => {
      expect(existsSync(dir)).toBe(false);
      expect(readdirSync(fx.parent)).toEqual([]);
      // Spares an adapter keeps inside the git directory are not rooms; `close` removes them.
      expect(worktrees(fx.repo).filter((w) => !w.includes("/.git/"))).toHaveLength(1);
    };
    beforeAll(() => {
      fx = makeRoomFixture();
      room = makeRoom(fx.repo);
    });
    afterAll(() => fx.remove());

    it("names its kind", () => {
      expect(room.kind).toMatch(/^[a-z][a-z-]*$/);
    });

    it("materialises the commit and none of the working tree's uncommitted or untracked changes", async () => {
      const r = await opened(room, at(fx.second, "tree"));
      expect(r.commit).toBe(fx.second);
      for (const [path, body] of Object.entries(FIRST_FILES)) expect(readFileSync(join(r.dir, path), "utf8")).toBe(body);
      expect(readFileSync(join(r.dir, "later.txt"), "utf8")).toBe("later\n");
      expect(existsSync(join(r.dir, "untracked.txt"))).toBe(false);
      await disposed(r);
    });

    it("holds no file committed after the requested commit", async () => {
      const r = await opened(room, at(fx.first, "older"));
      expect(r.commit).toBe(fx.first);
      expect(existsSync(join(r.dir, "later.txt"))).toBe(false);
      expect(readFileSync(join(r.dir, "a.txt"), "utf8")).toBe("alpha\n");
      await disposed(r);
    });

    it("answers the full id when asked with an abbreviated one", async () => {
      const r = await opened(room, at(fx.first.slice(0, 12), "short"));
      expect(r.commit).toBe(fx.first);
      await disposed(r);
    });

    it("preserves executable bits and symbolic links", async () => {
      const r = await opened(room, at(fx.first, "modes"));
      expect(statSync(join(r.dir, "bin/run.sh")).mode & 0o111).not.toBe(0);
      expect(statSync(join(r.dir, "a.txt")).mode & 0o111).toBe(0);
      for (const [path, target] of Object.entries(FIRST_LINKS)) {
        expect(lstatSync(join(r.dir, path)).isSymbolicLink()).toBe(true);
        expect(readlinkSync(join(r.dir, path))).toBe(target);
      }
      await disposed(r);
    });

    it("runs the setup command inside the room before handing it back", async () => {
      const r = await opened(room, at(fx.first, "setup", { command: "cat a.txt > setup-saw.txt", timeoutMs: 30_000 }));
      expect(readFileSync(join(r.dir, "setup-saw.txt"), "utf8")).toBe("alpha\n");
      await disposed(r);
      nothingLeft(r.dir);
    });

    it("a failing setup is a setup-failed fault and leaves nothing", async () => {
      const fault = await refused(room, at(fx.first, "bad-setup", { command: "echo broken >&2; exit 3", timeoutMs: 30_000 }));
      expect(fault).toMatchObject({ code: "setup-failed", commit: fx.first, exit: 3, timedOut: false });
      expect(fault.code === "setup-failed" && fault.stderr).toContain("broken");
      nothingLeft(join(fx.parent, "bad-setup"));
    });

    it("a timed-out setup is a setup-failed fault and leaves nothing", async () => {
      const fault = await refused(room, at(fx.first, "slow-setup", { command: "sleep 30", timeoutMs: 200 }));
      expect(fault).toMatchObject({ code: "setup-failed", timedOut: true });
      nothingLeft(join(fx.parent, "slow-setup"));
    });

    it("a commit that does not exist is a fault and leaves nothing", async () => {
      const fault = await refused(room, at("0".repeat(40), "missing"));
      expect(["room-failed", "git-failed"]).toContain(fault.code);
      nothingLeft(join(fx.parent, "missing"));
    });

    it("disposal leaves nothing behind, even for a room changed after opening", async () => {
      const r = await opened(room, at(fx.second, "dispose"));
      writeFileSync(join(r.dir, "made-in-room.txt"), "x\n");
      writeFileSync(join(r.dir, "a.txt"), "changed in the room\n");
      await disposed(r);
      nothingLeft(r.dir);
    });

    it("a rerun with the same name replaces the room", async () => {
      const before = await opened(room, at(fx.second, "rerun"));
      writeFileSync(join(before.dir, "stray.txt"), "left by the first run\n");
      const after = await opened(room, at(fx.first, "rerun"));
      expect(after.dir).toBe(before.dir);
      expect(after.commit).toBe(fx.first);
      expect(existsSync(join(after.dir, "stray.txt"))).toBe(false);
      expect(existsSync(join(after.dir, "later.txt"))).toBe(false);
      expect(worktrees(fx.repo).length).toBeLessThanOrEqual(2);
      await disposed(after);
      nothingLeft(after.dir);
    });

    it("a room whose directory was deleted behind its back opens again under the same name", async () => {
      const gone = await opened(room, at(fx.first, "deleted"));
      rmSync(gone.dir, { recursive: true, force: true });
      const again = await opened(room, at(fx.second, "deleted"));
      expect(readFileSync(join(again.dir, "later.txt"), "utf8")).toBe("later\n");
      await disposed(again);
      nothingLeft(again.dir);
    });

    it("rooms opened one after another each hold exactly their commit", async () => {
      const one = await opened(room, at(fx.second, "first-of-two"));
      writeFileSync(join(one.dir, "a.txt"), "changed\n");
      writeFileSync(join(one.dir, "ignored-build-output.txt"), "x\n");
      await disposed(one);
      const two = await opened(room, at(fx.first, "second-of-two"));
      expect(readFileSync(join(two.dir, "a.txt"), "utf8")).toBe("alpha\n");
      expect(existsSync(join(two.dir, "later.txt"))).toBe(false);
      expect(existsSync(join(two.dir, "ignored-build-output.txt"))).toBe(false);
      await disposed(two);
      nothingLeft(two.dir);
    });

    it("close releases everything the adapter kept", async () => {
      const r = await opened(room, at(fx.first, "before-close"));
      await disposed(r);
      const closed = await (room.close?.() ?? okAsync(undefined));
      expect(closed.isOk(), JSON.stringify(closed.isErr() ? closed.error : null)).toBe(true);
      expect(worktrees(fx.repo)).toHaveLength(1);
      const again = await opened(room, at(fx.second, "after-close"));
      expect(readFileSync(join(again.dir, "later.txt"), "utf8")).toBe("later\n");
      await disposed(again);
      await (room.close?.() ?? okAsync(undefined));
      expect(worktrees(fx.repo)).toHaveLength(1);
    });

    it("a name that is not one path component is a fault", async () => {
      const fault = await refused(room, at(fx.first, "../escape"));
      expect(fault.code).toBe("room-failed");
      expect(existsSync(join(fx.parent, "..", "escape"))).toBe(false);
    });
  });
}
