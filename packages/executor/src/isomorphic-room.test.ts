import * as fs from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { memfs } from "memfs";
import { afterAll, describe, expect, it } from "vitest";
import { isomorphicRoom, type RoomFs } from "./isomorphic-room.js";
import { nodeShell } from "./node/shell.js";
import { cleanRoomContract } from "./testing/clean-room-suite.js";
import { makeRoomFixture } from "./testing/room-fixture.js";

cleanRoomContract("isomorphicRoom", (repo, dir) => isomorphicRoom({ fs, repo, dir: dir ?? tmpdir(), shell: nodeShell() }));

/** Copies the real repository's `.git` into a fresh memfs volume at /repo/.git. */
function memfsRepo(real: string): ReturnType<typeof memfs> {
  const mem = memfs();
  const copy = (from: string, to: string) => {
    mem.fs.mkdirSync(to, { recursive: true });
    for (const e of fs.readdirSync(from, { withFileTypes: true })) {
      if (e.isDirectory()) copy(join(from, e.name), `${to}/${e.name}`);
      else mem.fs.writeFileSync(`${to}/${e.name}`, fs.readFileSync(join(from, e.name)));
    }
  };
  copy(join(real, ".git"), "/repo/.git");
  mem.fs.mkdirSync("/rooms");
  return mem;
}

describe("isomorphicRoom on memfs (no git binary, no disk)", () => {
  const fx = makeRoomFixture();
  afterAll(() => fx.remove());

  it("writes the commit's files, links and executable bits through the fs it is given", async () => {
    const { fs: mfs } = memfsRepo(fx.repo);
    const room = isomorphicRoom({ fs: mfs as unknown as RoomFs, repo: "/repo", dir: "/rooms" });
    const r = (await room.open({ commit: "main", name: "r" }))._unsafeUnwrap();
    expect(r.commit).toBe(fx.second);
    expect(r.dir).toMatch(/^\/rooms\/decay-room-[^/]+\/r$/);
    expect(mfs.readFileSync(`${r.dir}/later.txt`, "utf8")).toBe("later\n");
    expect(mfs.readlinkSync(`${r.dir}/dir/up`)).toBe("../a.txt");
    expect(mfs.statSync(`${r.dir}/bin/run.sh`).mode & 0o111).not.toBe(0);
    expect((await r.dispose()).isOk()).toBe(true);
    expect(mfs.readdirSync("/rooms")).toEqual([]);
  });

  it("writes no executable bits through an fs without chmod, and the same bytes", async () => {
    const { fs: mfs } = memfsRepo(fx.repo);
    const kept = ["readFile", "writeFile", "unlink", "readdir", "mkdir", "rmdir", "stat", "lstat", "readlink", "symlink", "rm", "mkdtemp", "realpath"] as const;
    const p = mfs.promises as unknown as Record<string, (...args: unknown[]) => unknown>;
    const noChmod = { promises: Object.fromEntries(kept.map((k) => [k, p[k]?.bind(p)])) } as unknown as RoomFs;
    const r = (await isomorphicRoom({ fs: noChmod, repo: "/repo", dir: "/rooms" }).open({ commit: fx.first, name: "r" }))._unsafeUnwrap();
    expect(mfs.statSync(`${r.dir}/bin/run.sh`).mode & 0o111).toBe(0);
    expect(mfs.readFileSync(`${r.dir}/bin/run.sh`, "utf8")).toBe("#!/bin/sh\necho run\n");
    expect(mfs.readlinkSync(`${r.dir}/link-to-a`)).toBe("a.txt");
  });

  it("refuses rooms inside the repository or its git directory, on any fs", async () => {
    const { fs: mfs } = memfsRepo(fx.repo);
    mfs.mkdirSync("/repo/.plan-runs");
    for (const dir of ["/repo", "/repo/.plan-runs", "/repo/.git", "/repo/.git/"]) {
      const room = isomorphicRoom({ fs: mfs as unknown as RoomFs, repo: "/repo", dir });
      const fault = (await room.open({ commit: fx.first, name: "r" }))._unsafeUnwrapErr();
      expect(fault).toMatchObject({ code: "option-invalid", option: "dir" });
    }
    expect(mfs.readdirSync("/repo/.plan-runs")).toEqual([]);
    expect(mfs.readdirSync("/repo").sort()).toEqual([".git", ".plan-runs"]);
  });

  it("a setup command without a Shell is an option-invalid fault and leaves nothing", async () => {
    const { fs: mfs } = memfsRepo(fx.repo);
    const room = isomorphicRoom({ fs: mfs as unknown as RoomFs, repo: "/repo", dir: "/rooms" });
    const fault = (await room.open({ commit: fx.first, name: "r", setup: { command: "true", timeoutMs: 1000 } }))._unsafeUnwrapErr();
    expect(fault).toMatchObject({ code: "option-invalid", option: "shell" });
    expect(mfs.readdirSync("/rooms")).toEqual([]);
  });
});
