import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../../../test-utils/tmp.js";
import { lockDataDir } from "./lock.js";

describe("lockDataDir: one process per data directory", () => {
  it("refuses a held directory, frees it on release, and takes over the lock of a process that is gone", async () => {
    const dir = await tempDir("decay-lock-");
    const held = lockDataDir(dir)._unsafeUnwrap();
    expect(readFileSync(join(dir, "lock"), "utf8").trim()).toBe(String(process.pid));
    expect(lockDataDir(dir)._unsafeUnwrapErr()).toEqual({ code: "data-dir-locked", dataDir: dir, pid: process.pid });
    held.release();
    held.release();
    const again = lockDataDir(dir)._unsafeUnwrap();
    again.release();
    // A killed process leaves its lock file behind: its pid no longer runs, so the lock is stale.
    const gone = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
    writeFileSync(join(dir, "lock"), `${gone.stdout}\n`);
    const taken = lockDataDir(dir)._unsafeUnwrap();
    expect(readFileSync(join(dir, "lock"), "utf8").trim()).toBe(String(process.pid));
    taken.release();
  });

  it("names a data directory it cannot create", async () => {
    const file = join(await tempDir("decay-lock-"), "file");
    writeFileSync(file, "");
    expect(lockDataDir(join(file, "state"))._unsafeUnwrapErr()).toMatchObject({ code: "data-dir-failed", dataDir: join(file, "state") });
  });
});
