// Every repository file gitTree reads is opened once, without waiting, and only what was opened is
// checked (fstat) and read: a `.git` that agents write to can change what a path names between a
// check by path and a read by path, and a FIFO read by path blocks until someone writes to it
// (synchronously: the whole process). Links are followed, as git follows them inside `.git`.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import * as nodeFs from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { fifo } from "../../../../test-utils/hostile.js";
import { guardedFs } from "./git-guard.js";
import type { GitFs } from "./git-repo.js";
import { gitTree } from "./git.js";
import { commitSpec, git, scratchDir } from "../../test/support/test-fixtures.js";

// A read still blocked on a FIFO (as a read by path would be) ends once someone opens it for
// writing: on a thread-pool thread, here after the test; on the test's own thread (a synchronous
// read), only another process can, so `unblockLater` starts one before such a read.
const fifos: string[] = [];
const children: ChildProcess[] = [];
const servers: Server[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill();
  for (const path of fifos.splice(0)) {
    try {
      nodeFs.closeSync(nodeFs.openSync(path, nodeFs.constants.O_WRONLY | nodeFs.constants.O_NONBLOCK));
    } catch {
      // ENXIO: nobody is reading it.
    }
  }
  await Promise.all(servers.splice(0).map((s) => new Promise((done) => s.close(done))));
});

/** A process that opens the FIFO at `path` for writing after `ms` and closes it: a synchronous read blocked on it ends (empty) instead of hanging the runner. */
function unblockLater(path: string, ms: number): void {
  const open = `const fs = require("fs"); try { fs.closeSync(fs.openSync(${JSON.stringify(path)}, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK)); } catch {}`;
  children.push(spawn(process.execPath, ["-e", `setTimeout(() => { ${open} }, ${ms})`], { stdio: "ignore" }));
}

/** Replaces `path` with a FIFO nobody writes (and a process that ends a synchronous read of it later). */
function toFifo(path: string): void {
  nodeFs.rmSync(path);
  fifos.push(fifo(path));
  unblockLater(path, 3_000);
}

/**
 * Real node:fs (its synchronous calls and its promises) where `then(path)` runs once, right after
 * the first call naming `path` has answered (a stat, an open): what an agent does between two calls.
 */
function hooked(path: string, then: (path: string) => void): typeof nodeFs {
  let done = false;
  const after = <T>(args: unknown[], out: T): T => {
    if (!done && args[0] === path) {
      done = true;
      then(path);
    }
    return out;
  };
  const wrap = <T extends object>(target: T): T =>
    new Proxy(target, {
      get(t, key) {
        const value: unknown = Reflect.get(t, key, t);
        if (typeof value !== "function") return value;
        return (...args: unknown[]) => {
          const out: unknown = value.apply(t, args);
          return out instanceof Promise ? out.then((v: unknown) => after(args, v)) : after(args, out);
        };
      },
    });
  const promises = wrap(nodeFs.promises);
  return new Proxy(wrap(nodeFs), { get: (t, key) => (key === "promises" ? promises : Reflect.get(t, key, t)) });
}

/** node:fs, and the same with its promises alone (the guard's asynchronous path). */
const FS_KINDS = [
  ["an fs with synchronous calls", (fs: typeof nodeFs): GitFs => fs],
  ["an fs with promises only", (fs: typeof nodeFs) => ({ promises: fs.promises }) as unknown as GitFs],
] as const;

/** A repository whose one commit holds `a.txt` ("hello\n"); its dir, the blob's loose file and the branch's ref file. */
async function repo(): Promise<{ dir: string; oid: string; loose: string; ref: string }> {
  const dir = join(await scratchDir(), "r");
  commitSpec(dir, { files: { "a.txt": "hello\n" }, links: {} });
  const oid = git(dir, "rev-parse", "HEAD:a.txt");
  return { dir, oid, loose: join(dir, ".git", "objects", oid.slice(0, 2), oid.slice(2)), ref: join(dir, ".git", "refs", "heads", "main") };
}

const readA = (fs: GitFs, dir: string, maxFileBytes?: number) => gitTree({ fs, dir, ref: "HEAD", maxFileBytes }).read("a.txt", 100);
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe("a repository file swapped or grown after it was first looked at: only the file opened is checked and read", () => {
  test.each(FS_KINDS)("a loose object replaced by a FIFO, through %s: the object opened is read", { timeout: 10_000 }, async (_, kind) => {
    const { dir, loose } = await repo();
    const got = await readA(kind(hooked(loose, toFifo)), dir);
    expect(text(got._unsafeUnwrap())).toBe("hello\n");
  });

  test("the branch's ref replaced by a FIFO: the ref opened is read", { timeout: 10_000 }, async () => {
    const { dir, ref } = await repo();
    nodeFs.rmSync(join(dir, ".git", "packed-refs"), { force: true });
    const got = await readA(hooked(ref, toFifo), dir);
    expect(text(got._unsafeUnwrap())).toBe("hello\n");
  });

  test.each(FS_KINDS)("a loose object grown past maxFileBytes, through %s: refused by the size of what was opened", async (_, kind) => {
    const { dir, loose } = await repo();
    const grow = (path: string) => nodeFs.appendFileSync(path, new Uint8Array(64 * 1024));
    const got = await readA(kind(hooked(loose, grow)), dir, 16 * 1024);
    expect(got._unsafeUnwrapErr().message).toContain(`${loose} in the object store is larger than the limit of 16384 bytes`);
  });

  test("the branch's ref grown past maxFileBytes: refused, never read as the ref", async () => {
    const { dir, ref } = await repo();
    const grow = (path: string) => nodeFs.appendFileSync(path, "\n".repeat(64 * 1024));
    const got = await readA(hooked(ref, grow), dir, 16 * 1024);
    expect(got._unsafeUnwrapErr().message).toContain(`${ref} in the object store is larger than the limit of 16384 bytes`);
  });
});

describe("what is not a regular file is refused without waiting on it", () => {
  test.each(FS_KINDS)("a FIFO in place of the pack index, through %s", { timeout: 10_000 }, async (_, kind) => {
    const { dir } = await repo();
    git(dir, "repack", "-adq");
    git(dir, "prune-packed");
    const packs = join(dir, ".git", "objects", "pack");
    const idx = join(packs, nodeFs.readdirSync(packs).find((f) => f.endsWith(".idx")) ?? "");
    toFifo(idx);
    const got = await readA(kind(nodeFs), dir);
    expect(got._unsafeUnwrapErr().message).toContain(`${idx} in the object store is not a regular file (a FIFO, socket or device)`);
  });

  test("a FIFO in place of packed-refs", { timeout: 10_000 }, async () => {
    const { dir, ref } = await repo();
    const packedRefs = join(dir, ".git", "packed-refs");
    git(dir, "pack-refs", "--all");
    expect(nodeFs.existsSync(ref)).toBe(false);
    toFifo(packedRefs);
    const got = await readA(nodeFs, dir);
    expect(got._unsafeUnwrapErr().message).toContain(`${packedRefs} in the object store is not a regular file (a FIFO, socket or device)`);
  });

  test.each(FS_KINDS)("a socket in place of a loose object, through %s", { timeout: 10_000 }, async (_, kind) => {
    const { dir, loose } = await repo();
    nodeFs.rmSync(loose);
    const server = createServer();
    servers.push(server);
    await new Promise<void>((done) => server.listen(loose, done));
    const got = await readA(kind(nodeFs), dir);
    expect(got._unsafeUnwrapErr().message).toContain(`${loose} in the object store is not a regular file (a FIFO, socket or device)`);
  });
});

describe("links inside .git are followed, as git follows them", () => {
  test.each(FS_KINDS)("a loose object, packed-refs and a pack index that are symbolic links read as git reads them, through %s", async (_, kind) => {
    const { dir, loose, ref } = await repo();
    const elsewhere = await scratchDir();
    const moveAndLink = (path: string) => {
      const target = join(elsewhere, path.replaceAll("/", "_"));
      nodeFs.renameSync(path, target);
      nodeFs.symlinkSync(target, path);
    };
    moveAndLink(loose);
    git(dir, "pack-refs", "--all");
    expect(nodeFs.existsSync(ref)).toBe(false);
    moveAndLink(join(dir, ".git", "packed-refs"));
    expect(execFileSync("git", ["-C", dir, "cat-file", "-p", "main:a.txt"], { encoding: "utf8" })).toBe("hello\n");
    expect(text((await readA(kind(nodeFs), dir))._unsafeUnwrap())).toBe("hello\n");

    git(dir, "repack", "-adq");
    git(dir, "prune-packed");
    const packs = join(dir, ".git", "objects", "pack");
    moveAndLink(join(packs, nodeFs.readdirSync(packs).find((f) => f.endsWith(".idx")) ?? ""));
    expect(execFileSync("git", ["-C", dir, "cat-file", "-p", "main:a.txt"], { encoding: "utf8" })).toBe("hello\n");
    expect(text((await readA(kind(nodeFs), dir))._unsafeUnwrap())).toBe("hello\n");
  });
});

describe("an fs that cannot open a file (LightningFS has no open, and no FIFOs)", () => {
  test("is read by stat, then readFile: a regular file is read, anything else refused, a file over the bound refused", { timeout: 10_000 }, async () => {
    const { dir, loose } = await repo();
    const p = nodeFs.promises;
    const fs = { promises: { readFile: p.readFile, readdir: p.readdir, stat: p.stat, lstat: p.lstat } } as unknown as GitFs;
    expect(text((await readA(fs, dir))._unsafeUnwrap())).toBe("hello\n");
    expect((await readA(fs, dir, 10))._unsafeUnwrapErr().message).toMatch(/in the object store is larger than the limit of 10 bytes$/);
    toFifo(loose);
    expect((await readA(fs, dir))._unsafeUnwrapErr().message).toContain(`${loose} in the object store is not a regular file (a FIFO, socket or device)`);
  });
});

describe("guardedFs keeps readFile's answer shape", () => {
  test("bytes without an encoding, text with utf8 (as isomorphic-git asks for config and refs)", async () => {
    const { ref } = await repo();
    const fs = guardedFs(nodeFs, { maxObjectBytes: 1 << 20, maxFileBytes: 1 << 20 }).promises as unknown as {
      readFile(path: string, options?: unknown): Promise<Uint8Array | string>;
    };
    const want = nodeFs.readFileSync(ref, "utf8");
    expect(want).toMatch(/^[0-9a-f]{40}\n$/);
    const bytes = await fs.readFile(ref);
    expect(bytes).toBeInstanceOf(Uint8Array);
    expect(text(bytes as Uint8Array)).toBe(want);
    expect(await fs.readFile(ref, "utf8")).toBe(want);
    expect(await fs.readFile(ref, { encoding: "utf8" })).toBe(want);
    await expect(fs.readFile(join(ref, "..", "missing"))).rejects.toMatchObject({ code: "ENOENT" });
    await expect(fs.readFile(join(ref, ".."))).rejects.toMatchObject({ code: "EISDIR" });
  });
});
