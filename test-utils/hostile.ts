// The shared hostile inputs every CLI's test/hostile suite runs against, and the checks each run
// must pass: exit 2, one line on stderr naming the input, no stack trace, bounded memory, nothing
// changed in the temp dir but what the test expects. Test-only; never built, never published.
import { execFileSync, spawn } from "node:child_process";
import * as fs from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { deflateSync } from "node:zlib";
import { expect } from "vitest";
import { tempDir } from "./tmp.js";

/** The repository root. */
export const REPO = fileURLToPath(new URL("../", import.meta.url));

/** The built bins (the root test script builds before vitest). */
export const BINS = {
  gate: join(REPO, "packages/assumptions/dist/bin.cjs"),
  contract: join(REPO, "packages/contract/dist/bin.js"),
  evidence: join(REPO, "packages/evidence/dist/bin.js"),
} as const;

/** What a finished run left: exit status, output, and the peak resident memory in KiB. */
export interface BinRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly maxRssKiB: number;
  /** What the run left in its TMPDIR, an empty directory outside the scene made for this run alone. */
  readonly wroteOutside: readonly string[];
}

/** Standard input for a run: bytes, or `bytes` bytes of `chunk` repeated (written with backpressure). */
export type Stdin = string | Buffer | { readonly chunk: Buffer; readonly bytes: number };

const PROBE = `process.on("exit", () => { try { require("fs").writeFileSync(process.env.DECAY_RSS_FILE, String(process.resourceUsage().maxRSS)); } catch {} });\n`;

function feed(stdin: NodeJS.WritableStream, input: Stdin | undefined): void {
  stdin.on("error", () => undefined);
  if (input === undefined || typeof input === "string" || Buffer.isBuffer(input)) {
    stdin.end(input ?? "");
    return;
  }
  let sent = 0;
  const pump = (): void => {
    while (sent < input.bytes) {
      sent += input.chunk.length;
      if (!stdin.write(input.chunk)) return void stdin.once("drain", pump);
    }
    stdin.end();
  };
  pump();
}

/** Runs a built bin under a memory probe (a preloaded script records maxRSS at exit). */
export async function runBin(bin: string, args: readonly string[], opts: { cwd: string; env?: Record<string, string>; stdin?: Stdin }): Promise<BinRun> {
  const probeDir = await tempDir("decay-probe-");
  const probe = join(probeDir, "rss.cjs");
  const rssFile = join(probeDir, "rss");
  fs.writeFileSync(probe, PROBE);
  // HOME is the scene itself (its snapshot covers it); the temporary directory is the one other
  // place a CLI writes without being told: an empty one, checked after the run.
  const outside = await tempDir("decay-outside-");
  const env = { PATH: process.env["PATH"] ?? "", HOME: opts.cwd, TMPDIR: outside, TMP: outside, TEMP: outside, ...opts.env, DECAY_RSS_FILE: rssFile };
  return new Promise((resolve, reject) => {
    // A bin that hangs or reads without bound (a regression, or an old build) is killed, never left running.
    const child = spawn(process.execPath, ["--require", probe, bin, ...args], {
      cwd: opts.cwd,
      env,
      stdio: ["pipe", "pipe", "pipe"],
      timeout: 20_000,
      killSignal: "SIGKILL",
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", reject);
    child.on("close", (status) => {
      const rss = fs.existsSync(rssFile) ? Number(fs.readFileSync(rssFile, "utf8")) : Number.NaN;
      resolve({ status, stdout, stderr, maxRssKiB: rss, wroteOutside: fs.readdirSync(outside) });
    });
    feed(child.stdin, opts.stdin);
  });
}

/** Peak memory any hostile run may reach: Node's own (about 60 MiB) plus twice a 16 MiB input bound, with room. */
export const MEMORY_BOUND_KIB = 200 * 1024;

/**
 * The run is a fault: exit 2, exactly one line on stderr naming `input`, no stack trace, no
 * internal error, peak memory under the bound, and nothing left in its TMPDIR.
 */
export function expectFault(run: BinRun, input: string, also?: RegExp): void {
  expect({ status: run.status, stderr: run.stderr }).toMatchObject({ status: 2 });
  const lines = run.stderr.split("\n").filter((l) => l !== "");
  expect(lines, run.stderr).toHaveLength(1);
  expect(run.stderr).toContain(input);
  expect(run.stderr).not.toMatch(/\n\s+at |internal error/);
  if (also !== undefined) expect(run.stderr).toMatch(also);
  expect(run.maxRssKiB).toBeLessThan(MEMORY_BOUND_KIB);
  expect(run.wroteOutside, "files the run left in its TMPDIR").toEqual([]);
}

/** Every entry under `dir` (recursively, by lstat, never reading a FIFO) with its bytes or kind. */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string): void => {
    for (const name of fs.readdirSync(join(dir, rel))) {
      const path = rel === "" ? name : `${rel}/${name}`;
      const s = fs.lstatSync(join(dir, path));
      if (s.isSymbolicLink()) out[path] = `link ${fs.readlinkSync(join(dir, path))}`;
      else if (s.isDirectory()) {
        out[path] = "dir";
        walk(path);
      } else if (s.isFile()) out[path] = `file ${fs.readFileSync(join(dir, path)).toString("base64")}`;
      else out[path] = `other ${s.mode.toString(8)}`;
    }
  };
  walk("");
  return out;
}

/** Makes a FIFO nobody writes. */
export function fifo(path: string): string {
  execFileSync("mkfifo", [path]);
  return path;
}

/** A file of lines ending in CR alone. */
export const CR_ONLY = "exists\tsrc/a.ts\rabsent\tsrc/b.ts\r";

/** Bytes that are not UTF-8 on line 2, after a valid first line. */
export const INVALID_UTF8 = Buffer.concat([Buffer.from("# a plan\nexists\tsrc/"), Buffer.from([0xc0, 0xaf]), Buffer.from(".ts\n")]);

/** A stream longer than any bound a suite sets: 64 MiB of one repeated line. */
export const ENDLESS: Stdin = { chunk: Buffer.from("exists\tsrc/a.ts\n".repeat(4096)), bytes: 64 * 1024 * 1024 };

const GIT_ENV = {
  PATH: process.env["PATH"] ?? "",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_AUTHOR_NAME: "decay test",
  GIT_AUTHOR_EMAIL: "test@decay.invalid",
  GIT_COMMITTER_NAME: "decay test",
  GIT_COMMITTER_EMAIL: "test@decay.invalid",
};

/** Runs system git in `dir`. */
export function git(dir: string, ...args: string[]): string {
  return execFileSync("git", ["-C", dir, ...args], { env: GIT_ENV, encoding: "utf8" }).trim();
}

/** A repository at `dir` whose one commit holds `files`. */
export function repoWith(dir: string, files: Record<string, string>): string {
  fs.mkdirSync(dir, { recursive: true });
  git(dir, "init", "-q", "-b", "main");
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(join(dir, name, ".."), { recursive: true });
    fs.writeFileSync(join(dir, name), text);
  }
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "one");
  return dir;
}

/** Replaces a read-only git file's bytes. */
export function overwrite(path: string, bytes: Uint8Array): void {
  fs.chmodSync(path, 0o644);
  fs.writeFileSync(path, bytes);
}

/** A packed repository whose pack index declares 0x0fffffff objects in its fan-out table. */
export function corruptIndexRepo(dir: string): string {
  repoWith(dir, { "src/a.ts": "a\n" });
  git(dir, "repack", "-adq");
  const pack = join(dir, ".git", "objects", "pack");
  const idx = join(pack, fs.readdirSync(pack).find((f) => f.endsWith(".idx")) ?? "");
  const bytes = fs.readFileSync(idx);
  bytes.writeUInt32BE(0x0fffffff, 8 + 255 * 4);
  overwrite(idx, bytes);
  return idx;
}

/** A repository whose blob for `src/a.ts` is a zlib bomb: its header says 10 bytes, it inflates to 80 MiB (past the 64 MiB object bound). */
export function zipBombRepo(dir: string): string {
  repoWith(dir, { "src/a.ts": "a\n" });
  const oid = git(dir, "rev-parse", "HEAD:src/a.ts");
  const file = join(dir, ".git", "objects", oid.slice(0, 2), oid.slice(2));
  overwrite(file, deflateSync(Buffer.concat([Buffer.from("blob 10\0"), Buffer.alloc(80 * 1024 * 1024)])));
  return oid;
}

/** A repository whose commit holds a gitlink at `vendor/lib`. */
export function gitlinkRepo(dir: string): void {
  repoWith(dir, { "src/a.ts": "a\n" });
  git(dir, "update-index", "--add", "--cacheinfo", `160000,${git(dir, "rev-parse", "HEAD")},vendor/lib`);
  git(dir, "commit", "-q", "-m", "gitlink");
}

/** A directory holding `x` and `d -> .`; answers the path that follows `n` links to reach `x`. */
export function linkChain(dir: string, n: number): string {
  fs.writeFileSync(join(dir, "x"), "x\n");
  fs.symlinkSync(".", join(dir, "d"));
  return `${Array.from({ length: n }, () => "d").join("/")}/x`;
}

/** The input bound the memory tests set: large enough that the input, not Node's own baseline, dominates. */
export const MEMORY_TEST_LIMIT = 64 * 1024 * 1024;

/** 300 MiB of one repeated line, far past `MEMORY_TEST_LIMIT`, written by the test itself with backpressure (no generator process that could outlive it). */
export const FLOOD: Stdin = { chunk: Buffer.from("exists\tsrc/a.ts\n".repeat(4096)), bytes: 300 * 1024 * 1024 };

/**
 * Runs `bin` with `args` (which set `--max-input-bytes MEMORY_TEST_LIMIT` and read `-`) twice:
 * on a tiny standard input, its baseline, and on `FLOOD`, which must be refused as standard
 * input over the limit. The flood's peak resident memory (maxRSS, the kernel's VmHWM, read as
 * the process exits) may exceed the baseline's by less than twice the limit.
 */
export async function expectUnderTwiceTheLimit(
  bin: string,
  args: readonly string[],
  opts: { cwd: string; env?: Record<string, string> },
): Promise<{ baselineKiB: number; floodKiB: number }> {
  const baseline = await runBin(bin, args, { ...opts, stdin: "x\n" });
  const flood = await runBin(bin, args, { ...opts, stdin: FLOOD });
  expect({ status: flood.status, stderr: flood.stderr }).toMatchObject({
    status: 2,
    stderr: expect.stringMatching(/standard input.*larger than the limit of 67108864 bytes/),
  });
  expect(Number.isFinite(baseline.maxRssKiB) && Number.isFinite(flood.maxRssKiB)).toBe(true);
  expect(flood.maxRssKiB - baseline.maxRssKiB).toBeLessThan((2 * MEMORY_TEST_LIMIT) / 1024);
  return { baselineKiB: baseline.maxRssKiB, floodKiB: flood.maxRssKiB };
}
