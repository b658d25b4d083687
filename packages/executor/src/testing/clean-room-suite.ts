// The CleanRoom contract: what every clean-room adapter promises, written once. An adapter's test
// file calls `cleanRoomContract(name, makeRoom)`; the suite makes its own repository.
import { spawnSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { okAsync } from "neverthrow";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ExecFault } from "../fault.js";
import type { CleanRoom, Room, RoomRequest } from "../ports.js";
import { FIRST_FILES, FIRST_LINKS, fixtureGit, makeRoomFixture, type RoomFixture, worktrees } from "./room-fixture.js";

/** Runs `node uses-helper.mjs` in `cwd`: it prints 42 only where the package `helper` resolves. */
function importsHelper(cwd: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ["uses-helper.mjs"], { cwd, encoding: "utf8", env: { PATH: process.env.PATH ?? "" } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** True when `path` is `base` or below it, both resolved through links. */
function within(path: string, base: string): boolean {
  const p = realpathSync(path);
  const b = realpathSync(base);
  return p === b || p.startsWith(`${b}/`);
}

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
 * Registers the clean-room contract for one adapter. `makeRoom(repo, dir)` returns the adapter for
 * the repository at `repo`, making its rooms in `dir` (an existing directory outside the
 * repository), or where the adapter chooses by default when `dir` is undefined. It must be able to
 * run a setup command (give it a Shell).
 */
export function cleanRoomContract(name: string, makeRoom: (repo: string, dir?: string) => CleanRoom): void {
  describe(`CleanRoom contract: ${name}`, () => {
    let fx: RoomFixture;
    let room: CleanRoom;
    const at = (commit: string, roomName: string, setup?: RoomRequest["setup"]): RoomRequest => ({
      commit,
      name: roomName,
      ...(setup ? { setup } : {}),
    });
    // Rooms are made in `fx.rooms`, each in a directory of its own; spares are not rooms.
    const roomHomes = () => readdirSync(fx.rooms).filter((n) => !n.startsWith("decay-spares-"));
    const nothingLeft = (dir?: string) => {
      if (dir !== undefined) expect(existsSync(dirname(dir))).toBe(false);
      expect(roomHomes()).toEqual([]);
      expect(worktrees(fx.repo).filter((w) => !w.includes("/decay-spares-"))).toHaveLength(1);
    };
    beforeAll(() => {
      fx = makeRoomFixture();
      room = makeRoom(fx.repo, fx.rooms);
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
      expect(existsSync(join(r.dir, "node_modules"))).toBe(false);
      await disposed(r);
    });

    it("a filter driver an agent set in the repository's config and info/attributes does not change what a room holds", async () => {
      const common = join(fx.repo, fixtureGit(fx.repo, "rev-parse", "--git-common-dir"));
      const attributes = join(common, "info", "attributes");
      mkdirSync(dirname(attributes), { recursive: true });
      writeFileSync(attributes, "a.txt filter=forge\n");
      fixtureGit(fx.repo, "config", "filter.forge.smudge", "sh -c 'cat >/dev/null; echo forged'");
      fixtureGit(fx.repo, "config", "filter.forge.clean", "cat");
      try {
        // Twice: the second room may be a spare, claimed and reset rather than added, its a.txt
        // changed by the first so that the reset writes it again.
        for (const roomName of ["filtered", "filtered-again"]) {
          const r = await opened(room, at(fx.second, roomName));
          expect(readFileSync(join(r.dir, "a.txt"), "utf8")).toBe(FIRST_FILES["a.txt"]);
          writeFileSync(join(r.dir, "a.txt"), "changed in the room\n");
          await disposed(r);
        }
      } finally {
        fixtureGit(fx.repo, "config", "--remove-section", "filter.forge");
      }
      // The same filter in the main worktree's own config.worktree.
      fixtureGit(fx.repo, "config", "extensions.worktreeConfig", "true");
      fixtureGit(fx.repo, "config", "--worktree", "filter.forge.smudge", "sh -c 'cat >/dev/null; echo forged'");
      try {
        const r = await opened(room, at(fx.second, "filtered-worktree-config"));
        expect(readFileSync(join(r.dir, "a.txt"), "utf8")).toBe(FIRST_FILES["a.txt"]);
        await disposed(r);
      } finally {
        fixtureGit(fx.repo, "config", "--worktree", "--remove-section", "filter.forge");
        fixtureGit(fx.repo, "config", "--unset", "extensions.worktreeConfig");
        rmSync(attributes);
      }
    });

    it("makes each room in a fresh directory of its own, private to the user, inside `dir`", async () => {
      const r = await opened(room, at(fx.first, "private"));
      const home = dirname(r.dir);
      expect(r.dir).toBe(join(home, "private"));
      expect(realpathSync(dirname(home))).toBe(realpathSync(fx.rooms));
      expect(statSync(home).mode & 0o077).toBe(0);
      await disposed(r);
      nothingLeft(r.dir);
    });

    it("no ignored file of the working tree is reached by searching upward from a room", async () => {
      // The working tree's ignored node_modules/helper makes the import work there, and only there.
      expect(importsHelper(fx.repo)).toMatchObject({ status: 0, stdout: "42\n" });
      const byDefault = makeRoom(fx.repo);
      for (const [adapter, roomName] of [
        [room, "upward"],
        [byDefault, "upward-default"],
      ] as const) {
        const r = await opened(adapter, at(fx.second, roomName));
        expect(within(r.dir, fx.repo)).toBe(false);
        const ran = importsHelper(r.dir);
        expect(ran.status).not.toBe(0);
        expect(ran.stderr).toContain("'helper'");
        await disposed(r);
        expect(existsSync(dirname(r.dir))).toBe(false);
      }
      expect((await (byDefault.close?.() ?? okAsync(undefined))).isOk()).toBe(true);
      nothingLeft();
    });

    it("a rooms directory inside the repository, its git directory or reached through a link is refused", async () => {
      mkdirSync(join(fx.repo, ".plan-runs/rooms"), { recursive: true });
      symlinkSync(join(fx.repo, ".plan-runs/rooms"), join(fx.rooms, "..", "into-repo"));
      for (const dir of [fx.repo, join(fx.repo, ".plan-runs/rooms"), join(fx.repo, ".git"), join(fx.rooms, "..", "into-repo")]) {
        const fault = await refused(makeRoom(fx.repo, dir), at(fx.first, "inside"));
        expect(fault).toMatchObject({ code: "option-invalid", option: "dir" });
        // An adapter that can check before a run changes anything says the same then.
        const room = makeRoom(fx.repo, dir);
        if (room.check) expect((await room.check())._unsafeUnwrapErr()).toMatchObject({ code: "option-invalid", option: "dir" });
      }
      const fine = makeRoom(fx.repo, fx.rooms);
      if (fine.check) expect((await fine.check()).isOk()).toBe(true);
      expect(readdirSync(join(fx.repo, ".plan-runs/rooms"))).toEqual([]);
      expect(readdirSync(fx.repo).filter((n) => n.startsWith("decay-"))).toEqual([]);
      rmSync(join(fx.repo, ".plan-runs"), { recursive: true, force: true });
      rmSync(join(fx.rooms, "..", "into-repo"));
      nothingLeft();
    });

    it("for a linked worktree, a rooms directory in it, in the main checkout or in the git directory is refused", async () => {
      const linked = join(fx.rooms, "..", "linked");
      fixtureGit(fx.repo, "worktree", "add", "--quiet", "--detach", linked, fx.first);
      mkdirSync(join(fx.repo, ".plan-runs/rooms"), { recursive: true });
      for (const dir of [join(fx.repo, ".plan-runs/rooms"), fx.repo, join(fx.repo, ".git"), join(fx.repo, ".git/worktrees"), linked]) {
        const fault = await refused(makeRoom(linked, dir), at(fx.first, "main-checkout"));
        expect(fault).toMatchObject({ code: "option-invalid", option: "dir" });
      }
      expect(readdirSync(join(fx.repo, ".plan-runs/rooms"))).toEqual([]);
      // A directory outside both is not refused as inside.
      const outside = await makeRoom(linked, fx.rooms).open(at(fx.first, "beside"));
      expect(outside.isErr() && outside.error.code === "option-invalid").toBe(false);
      if (outside.isOk()) await disposed(outside.value);
      rmSync(join(fx.repo, ".plan-runs"), { recursive: true, force: true });
      fixtureGit(fx.repo, "worktree", "remove", "--force", linked);
      nothingLeft();
    });

    it("a rooms directory that does not exist is a fault", async () => {
      const fault = await refused(makeRoom(fx.repo, join(fx.rooms, "missing")), at(fx.first, "nowhere"));
      expect(fault.code).toBe("workspace-io");
      expect(existsSync(join(fx.rooms, "missing"))).toBe(false);
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
      nothingLeft();
    });

    it("a timed-out setup is a setup-failed fault and leaves nothing", async () => {
      const fault = await refused(room, at(fx.first, "slow-setup", { command: "sleep 30", timeoutMs: 200 }));
      expect(fault).toMatchObject({ code: "setup-failed", timedOut: true });
      nothingLeft();
    });

    it("a commit that does not exist is a fault and leaves nothing", async () => {
      const fault = await refused(room, at("0".repeat(40), "missing"));
      expect(["room-failed", "git-failed"]).toContain(fault.code);
      nothingLeft();
    });

    it("disposal leaves nothing behind, even for a room changed after opening", async () => {
      const r = await opened(room, at(fx.second, "dispose"));
      writeFileSync(join(r.dir, "made-in-room.txt"), "x\n");
      writeFileSync(join(r.dir, "a.txt"), "changed in the room\n");
      await disposed(r);
      nothingLeft(r.dir);
    });

    it("two rooms of the same name are two directories, each holding its commit", async () => {
      const one = await opened(room, at(fx.second, "same"));
      writeFileSync(join(one.dir, "stray.txt"), "left by the first room\n");
      const two = await opened(room, at(fx.first, "same"));
      expect(two.dir).not.toBe(one.dir);
      expect(two.commit).toBe(fx.first);
      expect(existsSync(join(two.dir, "stray.txt"))).toBe(false);
      expect(existsSync(join(two.dir, "later.txt"))).toBe(false);
      expect(readFileSync(join(one.dir, "later.txt"), "utf8")).toBe("later\n");
      await disposed(one);
      await disposed(two);
      nothingLeft(two.dir);
    });

    it("a room whose directory was deleted behind its back disposes cleanly, and the name opens again", async () => {
      const gone = await opened(room, at(fx.first, "deleted"));
      rmSync(gone.dir, { recursive: true, force: true });
      await disposed(gone);
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
      const spares = readdirSync(fx.rooms).filter((n) => n.startsWith("decay-spares-"));
      for (const s of spares) expect(readdirSync(join(fx.rooms, s))).toEqual([]);
      nothingLeft();
      const again = await opened(room, at(fx.second, "after-close"));
      expect(readFileSync(join(again.dir, "later.txt"), "utf8")).toBe("later\n");
      await disposed(again);
      await (room.close?.() ?? okAsync(undefined));
      expect(worktrees(fx.repo)).toHaveLength(1);
    });

    it("a name that is not one path component is a fault", async () => {
      const fault = await refused(room, at(fx.first, "../escape"));
      expect(fault.code).toBe("room-failed");
      expect(existsSync(join(fx.rooms, "..", "escape"))).toBe(false);
      nothingLeft();
    });
  });
}
