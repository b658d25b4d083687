import * as nodeFs from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { memfs } from "memfs";
import { afterEach, describe, expect, it } from "vitest";
import { fifo } from "../../../../test-utils/hostile.js";
import { tempDir } from "../../../../test-utils/tmp.js";
import type { WorkspaceFs } from "../ports.js";
import { readBytes, type Settings, utf8Text, writeFile } from "./deps.js";

// readBytes reads maxReadBytes alone of the settings.
const depsOf = (fs: WorkspaceFs, maxReadBytes = 1024) => ({ fs, settings: { maxReadBytes } as Settings });
/** The text of a read that succeeded (node:fs and memfs hand back a Buffer, others a Uint8Array). */
const textOf = (bytes: Uint8Array | null) => (bytes === null ? null : new TextDecoder().decode(bytes));

// A FIFO a read may still be blocked on (the old stat-then-read code would be): opening it for
// writing lets that read end, so a failing test times out instead of leaving a thread stuck.
const fifos: string[] = [];
afterEach(() => {
  for (const path of fifos.splice(0)) {
    try {
      nodeFs.closeSync(nodeFs.openSync(path, nodeFs.constants.O_WRONLY | nodeFs.constants.O_NONBLOCK));
    } catch {
      // ENXIO: nobody is reading it.
    }
  }
});

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((done) => s.close(done))));
});

type Call = (...args: unknown[]) => Promise<unknown>;

/** `target` whose every method, once it has answered, runs `after(name)`: what another process does between two calls. */
function interleave<T extends object>(target: T, after: (name: string, value: unknown) => unknown): T {
  return new Proxy(target, {
    get(t, key) {
      const value = Reflect.get(t, key, t);
      if (typeof value !== "function") return value;
      return async (...args: unknown[]) => after(String(key), await (value as Call).apply(t, args));
    },
  });
}

/**
 * A real fs (node:fs or memfs) where `onPath` runs once the run's first call naming a path has
 * answered (a stat, an open), and `onHandle` once each call on an opened file has.
 */
function hooked(base: WorkspaceFs, hooks: { onPath?: () => void; onHandle?: (name: string) => void }): WorkspaceFs {
  let first = true;
  const promises = interleave(base.promises, (name, value) => {
    if (first) {
      first = false;
      hooks.onPath?.();
    }
    if (name !== "open") return value;
    return interleave(value as object, (call, answer) => (hooks.onHandle?.(call), answer));
  });
  return { constants: base.constants, promises };
}

describe("readBytes on node:fs", () => {
  it("reads a regular file's bytes; null for a missing one", async () => {
    const dir = await tempDir();
    nodeFs.writeFileSync(join(dir, "a.txt"), "alpha\n");
    expect(textOf((await readBytes(depsOf(nodeFs), join(dir, "a.txt")))._unsafeUnwrap())).toBe("alpha\n");
    expect((await readBytes(depsOf(nodeFs), join(dir, "missing.txt")))._unsafeUnwrap()).toBeNull();
  });

  // A FIFO nobody writes would block a blocking open forever: the timeout fails the test instead.
  it.each([
    ["a FIFO", async (dir: string) => (fifos.push(fifo(join(dir, "pipe"))), join(dir, "pipe"))],
    ["a directory", async (dir: string) => (nodeFs.mkdirSync(join(dir, "sub")), join(dir, "sub"))],
    [
      "a socket",
      async (dir: string) => {
        const server = createServer();
        servers.push(server);
        await new Promise<void>((done) => server.listen(join(dir, "sock"), done));
        return join(dir, "sock");
      },
    ],
    ["a device", async () => "/dev/zero"],
  ])("refuses %s as not a regular file, naming it", { timeout: 5_000 }, async (_, plant) => {
    const path = await plant(await tempDir());
    const result = await readBytes(depsOf(nodeFs), path);
    expect(result._unsafeUnwrapErr()).toEqual({ code: "workspace-io", path, reason: expect.stringMatching(/^not a regular file/) });
  });

  it("refuses a file past the bound, and reads one exactly at it", async () => {
    const dir = await tempDir();
    nodeFs.writeFileSync(join(dir, "big"), "x".repeat(17));
    nodeFs.writeFileSync(join(dir, "edge"), "x".repeat(16));
    const big = await readBytes(depsOf(nodeFs, 16), join(dir, "big"));
    expect(big._unsafeUnwrapErr()).toMatchObject({ code: "workspace-io", reason: "larger than 16 bytes, the most the run reads (maxReadBytes)" });
    expect((await readBytes(depsOf(nodeFs, 16), join(dir, "edge")))._unsafeUnwrap()).toHaveLength(16);
  });

  // An agent swaps the file for a FIFO right after the run first looks at it: a read by path
  // after a stat would block on the FIFO forever; the opened file is read instead.
  it("answers from the file it opened when the path becomes a FIFO after the first call", { timeout: 5_000 }, async () => {
    const dir = await tempDir();
    const path = join(dir, "plan.tsv");
    nodeFs.writeFileSync(path, "absent\tsrc/a\n");
    const fs = hooked(nodeFs, { onPath: () => (nodeFs.rmSync(path), fifos.push(fifo(path))) });
    expect(textOf((await readBytes(depsOf(fs), path))._unsafeUnwrap())).toBe("absent\tsrc/a\n");
  });

  it("refuses a file that grew past the bound after its size was checked", async () => {
    const dir = await tempDir();
    const path = join(dir, "plan.tsv");
    nodeFs.writeFileSync(path, "small\n");
    const fs = hooked(nodeFs, { onHandle: (call) => call === "stat" && nodeFs.appendFileSync(path, "x".repeat(64)) });
    const result = await readBytes(depsOf(fs, 16), path);
    expect(result._unsafeUnwrapErr()).toMatchObject({ code: "workspace-io", path, reason: expect.stringMatching(/^larger than 16 bytes/) });
  });
});

describe("readBytes on memfs", () => {
  it("reads a file, null for a missing one, refuses a directory and a file past the bound", async () => {
    const { fs } = memfs({ "/w/a.txt": "alpha\n", "/w/sub/b": "b", "/w/big": "x".repeat(17) });
    const ws: WorkspaceFs = fs;
    expect(textOf((await readBytes(depsOf(ws, 16), "/w/a.txt"))._unsafeUnwrap())).toBe("alpha\n");
    expect((await readBytes(depsOf(ws, 16), "/w/none"))._unsafeUnwrap()).toBeNull();
    expect((await readBytes(depsOf(ws, 16), "/w/sub"))._unsafeUnwrapErr()).toMatchObject({
      path: "/w/sub",
      reason: expect.stringMatching(/^not a regular file/),
    });
    expect((await readBytes(depsOf(ws, 16), "/w/big"))._unsafeUnwrapErr()).toMatchObject({
      path: "/w/big",
      reason: expect.stringMatching(/^larger than 16 bytes/),
    });
  });

  it("answers from the file it opened when the path becomes a directory after the first call", async () => {
    const { fs } = memfs({ "/w/plan.tsv": "absent\tsrc/a\n" });
    const ws = hooked(fs, { onPath: () => (fs.rmSync("/w/plan.tsv"), fs.mkdirSync("/w/plan.tsv")) });
    expect(textOf((await readBytes(depsOf(ws), "/w/plan.tsv"))._unsafeUnwrap())).toBe("absent\tsrc/a\n");
  });

  it("refuses a file that grew past the bound after its size was checked", async () => {
    const { fs } = memfs({ "/w/plan.tsv": "small\n" });
    const ws = hooked(fs, { onHandle: (call) => call === "stat" && fs.appendFileSync("/w/plan.tsv", "x".repeat(64)) });
    expect((await readBytes(depsOf(ws, 16), "/w/plan.tsv"))._unsafeUnwrapErr()).toMatchObject({ reason: expect.stringMatching(/^larger than 16 bytes/) });
  });
});

describe("utf8Text", () => {
  it("decodes UTF-8 strictly, one leading BOM dropped; other bytes are a workspace-io fault naming the file", () => {
    const bytes = (...b: number[]) => Uint8Array.from(b);
    expect(utf8Text("p.md", new TextEncoder().encode("caf\u00e9\n"))._unsafeUnwrap()).toBe("caf\u00e9\n");
    expect(utf8Text("p.md", bytes(0xef, 0xbb, 0xbf, 0x41))._unsafeUnwrap()).toBe("A");
    expect(utf8Text("p.md", bytes(0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf, 0x41))._unsafeUnwrap()).toBe("\ufeffA");
    for (const bad of [bytes(0x41, 0xff), bytes(0xc0, 0xaf), bytes(0xed, 0xa0, 0x80), bytes(0xe2, 0x82)])
      expect(utf8Text("p.md", bad)._unsafeUnwrapErr()).toEqual({ code: "workspace-io", path: "p.md", reason: "is not UTF-8 text" });
  });
});

describe("writeFile into the workspace, which agents can reach", () => {
  const at = (repo: string) => ({ repo, fs: nodeFs as WorkspaceFs });
  const outside = async () => {
    const dir = await tempDir();
    nodeFs.writeFileSync(join(dir, "victim.txt"), "precious\n");
    return join(dir, "victim.txt");
  };

  it("writes a new file, parents made, and writes over a regular file", async () => {
    const repo = await tempDir();
    expect((await writeFile(at(repo), ".plan-runs/demo/ledger/a.md", "one\n")).isOk()).toBe(true);
    expect((await writeFile(at(repo), ".plan-runs/demo/ledger/a.md", "two\n")).isOk()).toBe(true);
    expect(nodeFs.readFileSync(join(repo, ".plan-runs/demo/ledger/a.md"), "utf8")).toBe("two\n");
  });

  it("a link at the file or on its way is refused before anything is written; the file it names is untouched", async () => {
    for (const plant of ["file", "directory"] as const) {
      const repo = await tempDir();
      const victim = await outside();
      nodeFs.mkdirSync(join(repo, ".plan-runs/demo"), { recursive: true });
      if (plant === "file") nodeFs.symlinkSync(victim, join(repo, ".plan-runs/demo/REPORT.md"));
      else nodeFs.symlinkSync(join(victim, ".."), join(repo, ".plan-runs/demo/ledger"));
      const path = plant === "file" ? ".plan-runs/demo/REPORT.md" : ".plan-runs/demo/ledger/victim.txt";
      const r = await writeFile(at(repo), path, "# Run report\n");
      expect(r._unsafeUnwrapErr()).toMatchObject({ code: "workspace-io", reason: expect.stringContaining("is a symbolic link") });
      expect(nodeFs.readFileSync(victim, "utf8")).toBe("precious\n");
    }
  });

  it("a FIFO where the file goes is refused at once, never opened for writing", async () => {
    const repo = await tempDir();
    nodeFs.mkdirSync(join(repo, ".plan-runs/demo/ledger"), { recursive: true });
    fifos.push(fifo(join(repo, ".plan-runs/demo/ledger/verify-S1-a1.md")));
    const r = await writeFile(at(repo), ".plan-runs/demo/ledger/verify-S1-a1.md", "# Ledger\n");
    expect(r._unsafeUnwrapErr()).toMatchObject({ code: "workspace-io", reason: expect.stringContaining("not a regular file") });
  });

  it("memfs refuses a planted link the same way", async () => {
    const { fs } = memfs({ "/r/.plan-runs/demo/x": "", "/elsewhere/victim.txt": "precious\n" });
    fs.symlinkSync("/elsewhere/victim.txt", "/r/.plan-runs/demo/REPORT.md");
    const r = await writeFile({ repo: "/r", fs: fs as unknown as WorkspaceFs }, ".plan-runs/demo/REPORT.md", "x");
    expect(r.isErr()).toBe(true);
    expect(fs.readFileSync("/elsewhere/victim.txt", "utf8")).toBe("precious\n");
  });
});
