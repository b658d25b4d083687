import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { hostname } from "node:os";
import { describe, expect, test } from "vitest";
import { keyHash } from "../record/hash.js";
import { nodeStoreFs } from "../node/store-fs.js";
import type { LockIdentity } from "./lock.js";
import type { StoreFs } from "./port.js";
import type { PendingStore } from "./store.js";
import { nodePendingStore } from "../node/store.js";
import { bareCheckout, memCheckout, sampleRecord } from "../../test/support/testkit.js";

const KEY = sampleRecord();
const me = (patch: Partial<LockIdentity> = {}): LockIdentity => ({
  pid: process.pid,
  host: hostname(),
  isAlive: (pid) => pid === process.pid,
  now: () => Date.now(),
  ...patch,
});

async function stores(fs: StoreFs, n: number, id: LockIdentity = me()): Promise<PendingStore[]> {
  const opened = await Promise.all(Array.from({ length: n }, () => nodePendingStore({ repo: "/repo", home: "/home", fs, env: {}, lockIdentity: id })));
  return opened.map((r) => r._unsafeUnwrap());
}

describe("the per-key lock", () => {
  test("two store instances racing for one key: exactly one holds it until it releases", async () => {
    const { fs } = memCheckout();
    const [a, b] = await stores(fs, 2);
    if (!a || !b) throw new Error("two stores");
    const [ra, rb] = await Promise.all([a.lock(KEY), b.lock(KEY)]);
    expect([ra.isOk(), rb.isOk()].filter(Boolean)).toHaveLength(1);
    const loser = ra.isErr() ? ra.error : rb.isErr() ? rb.error : null;
    expect(loser).toEqual({ code: "lock-held", path: `${a.root}/${keyHash(KEY)}.lock`, owner: `process ${process.pid} on ${hostname()}` });
    const held = ra.isOk() ? ra.value : rb._unsafeUnwrap();
    expect((await b.lock(sampleRecord({ attempt: "attempt-2" }))).isOk()).toBe(true);
    (await held.release())._unsafeUnwrap();
    expect((await b.lock(KEY)).isOk()).toBe(true);
  });

  test("among many racers, each round has exactly one winner, also when they all recover one stale lock", async () => {
    const { fs, vol } = memCheckout();
    const racers = await stores(fs, 6);
    const path = `${racers[0]?.root}/${keyHash(KEY)}.lock`;
    for (let round = 0; round < 8; round++) {
      if (round % 2 === 1) vol.writeFileSync(path, `${JSON.stringify({ pid: 999_999_999, host: hostname(), time: 0, nonce: "dead" })}\n`);
      const results = await Promise.all(racers.map((s) => s.lock(KEY)));
      const winners = results.filter((r) => r.isOk());
      expect(winners).toHaveLength(1);
      (await winners[0]!._unsafeUnwrap().release())._unsafeUnwrap();
    }
  });

  test("a lock older than staleMs is taken over even if its owner lives; a fresh one is not", async () => {
    const { fs } = memCheckout();
    const [old] = await stores(fs, 1, me({ now: () => 1_000 }));
    const [late] = await stores(fs, 1, me({ now: () => 1_000 + 60_000 }));
    if (!old || !late) throw new Error("two stores");
    (await old.lock(KEY))._unsafeUnwrap();
    expect((await late.lock(KEY, { staleMs: 120_000 }))._unsafeUnwrapErr()).toMatchObject({ code: "lock-held" });
    expect((await late.lock(KEY, { staleMs: 30_000 })).isOk()).toBe(true);
  });

  test("release removes the lock only while it is still ours", async () => {
    const { fs, vol } = memCheckout();
    const [old] = await stores(fs, 1, me({ now: () => 0 }));
    const [late, third] = await stores(fs, 2, me({ now: () => 1_000_000 }));
    if (!old || !late || !third) throw new Error("three stores");
    const first = (await old.lock(KEY))._unsafeUnwrap();
    const second = (await late.lock(KEY, { staleMs: 10 }))._unsafeUnwrap();
    const taken = vol.readFileSync(second.path, "utf8");
    (await first.release())._unsafeUnwrap();
    expect(vol.readFileSync(second.path, "utf8")).toBe(taken);
    expect((await third.lock(KEY))._unsafeUnwrapErr()).toMatchObject({ code: "lock-held" });
    (await second.release())._unsafeUnwrap();
    expect(vol.existsSync(second.path)).toBe(false);
  });

  test("an unreadable lock file is held, not guessed stale", async () => {
    const { fs, vol } = memCheckout();
    const [s] = await stores(fs, 1);
    if (!s) throw new Error("store");
    vol.writeFileSync(`${s.root}/${keyHash(KEY)}.lock`, "garbage");
    expect((await s.lock(KEY, { staleMs: 0 }))._unsafeUnwrapErr()).toMatchObject({ code: "lock-held", owner: "an unreadable owner" });
  });

  test("a lock held by a live child process blocks; once that process is dead the lock is recovered", async () => {
    const { repo, home } = await bareCheckout();
    const store = (await nodePendingStore({ repo, home, fs: nodeStoreFs(), env: {} }))._unsafeUnwrap();
    const path = `${store.root}/${keyHash(KEY)}.lock`;
    const script = `const fs=require("fs"),os=require("os");const t=${JSON.stringify(`${store.root}/.child`)};
fs.writeFileSync(t,JSON.stringify({pid:process.pid,host:os.hostname(),time:Date.now(),nonce:"child"})+"\\n");
fs.linkSync(t,${JSON.stringify(path)});fs.unlinkSync(t);process.stdout.write("held\\n");setInterval(()=>{},1000);`;
    const child = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "inherit"] });
    await new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
    expect((await store.lock(KEY))._unsafeUnwrapErr()).toMatchObject({ code: "lock-held", owner: `process ${child.pid} on ${hostname()}` });
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
    const held = (await store.lock(KEY))._unsafeUnwrap();
    expect(JSON.parse(readFileSync(path, "utf8"))).toMatchObject({ pid: process.pid });
    (await held.release())._unsafeUnwrap();
  });

  test("this process and a child process running the built package race for one key: exactly one wins", async () => {
    const opts = { ...(await bareCheckout()), env: {} };
    const dist = new URL("../../dist/index.js", import.meta.url).href;
    const node = new URL("../../dist/node.js", import.meta.url).href;
    const script = `import { jsonInt } from ${JSON.stringify(dist)};
import { nodePendingStore } from ${JSON.stringify(node)};
const store = (await nodePendingStore(${JSON.stringify(opts)})).value;
const r = await store.lock({ repo: "forge.test/owner/repo", pr: jsonInt(23), task: "Task 9", attempt: "attempt-1" });
process.stdout.write(JSON.stringify(r.isOk() ? { ok: true } : { ok: false, code: r.error.code }) + "\\n");
process.stdin.once("data", async () => { if (r.isOk()) await r.value.release(); process.exit(0); });`;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["pipe", "pipe", "inherit"] });
    const said = new Promise<{ ok: boolean; code?: string }>((resolve) => {
      child.stdout.once("data", (d: Buffer) => resolve(JSON.parse(d.toString())));
      child.once("exit", () => resolve({ ok: false, code: "the child exited without answering (is dist built?)" }));
    });
    const store = (await nodePendingStore({ ...opts, fs: nodeStoreFs() }))._unsafeUnwrap();
    const mine = await store.lock(KEY);
    const theirs = await said;
    expect([mine.isOk(), theirs.ok].filter(Boolean)).toHaveLength(1);
    if (!theirs.ok) expect(theirs.code).toBe("lock-held");
    const exited = new Promise((resolve) => child.once("exit", resolve));
    if (mine.isOk()) (await mine.value.release())._unsafeUnwrap();
    child.stdin.write("go\n");
    await exited;
    const again = (await store.lock(KEY))._unsafeUnwrap();
    (await again.release())._unsafeUnwrap();
  });
});
