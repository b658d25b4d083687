// Clean-room benchmark: each @decay/executor clean room (built package) against the seed's
// `git clone --local --no-hardlinks` + checkout of the commit, run directly in the same run, on a
// generated repository of 10,000 entries, with its objects loose and packed. Run after a build:
//   npx -y pnpm@12.4.2 bench:cleanroom      (or: node bench/cleanroom/run.mjs)
// BENCH_REPS (default 7) timed runs after one untimed, checked run of each; medians are reported.
import { execFile } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { ENTRIES, generateRepo, git } from "./generate.mjs";

const REPS = Number(process.env.BENCH_REPS ?? 7);
const SHAPES = (process.env.BENCH_SHAPES ?? "loose,packed").split(",");
const TARGETS = { gitWorktreeRoom: 0.5, gitCloneRoom: 1.1 };
// Each round opens the first commit or the second (a stage's work on top), alternately, so a room
// that reuses a spare rewrites what a stage changed, as it does in a run.
const dist = join(resolve(dirname(fileURLToPath(import.meta.url)), "../.."), "packages/executor/dist");
const run = promisify(execFile);

/** Every entry below `dir` but `.git`: regular files, executables among them, and links. */
function census(dir) {
  const seen = { files: 0, executables: 0, links: 0 };
  const walk = (d) => {
    for (const name of readdirSync(d)) {
      if (d === dir && name === ".git") continue;
      const path = join(d, name);
      const s = lstatSync(path);
      if (s.isDirectory()) walk(path);
      else if (s.isSymbolicLink()) seen.links += 1;
      else {
        seen.files += 1;
        if (s.mode & 0o100) seen.executables += 1;
      }
    }
  };
  walk(dir);
  return seen;
}

/**
 * The contenders: `open(name, commit)` materialises the commit into a room named `name` under
 * `parent` (a directory outside the repository; the adapters make a fresh directory there for each
 * room); `close()` removes it.
 */
function contenders(api, repo, parent) {
  const room = (adapter) => {
    let opened;
    return {
      adapter,
      open: async (name, commit) => {
        const r = await adapter.open({ commit, name });
        if (r.isErr()) throw new Error(JSON.stringify(r.error));
        opened = r.value;
        return opened.dir;
      },
      close: async () => {
        const r = await opened.dispose();
        if (r.isErr()) throw new Error(JSON.stringify(r.error));
      },
    };
  };
  const direct = () => {
    let dir;
    return {
      open: async (name, commit) => {
        dir = join(parent, name);
        await run("git", ["clone", "--local", "--no-hardlinks", "--quiet", repo, dir]);
        await run("git", ["-C", dir, "checkout", "--quiet", "--detach", commit]);
        return dir;
      },
      close: async () => rmSync(dir, { recursive: true, force: true }),
    };
  };
  const worktreeAdd = () => {
    let dir;
    return {
      open: async (name, commit) => {
        dir = join(parent, name);
        await run("git", ["-C", repo, "worktree", "add", "--detach", "--quiet", dir, commit]);
        return dir;
      },
      close: async () => {
        await run("git", ["-C", repo, "worktree", "remove", "--force", dir]);
        await run("git", ["-C", repo, "worktree", "prune"]);
      },
    };
  };
  return {
    "direct clone+checkout": direct(),
    "git worktree add": worktreeAdd(),
    gitCloneRoom: room(api.gitCloneRoom({ repo, dir: parent })),
    "gitWorktreeRoom, no spare": room(api.gitWorktreeRoom({ repo, spares: 0, dir: parent })),
    gitWorktreeRoom: room(api.gitWorktreeRoom({ repo, dir: parent })),
    isomorphicRoom: room(api.isomorphicRoom({ fs: api.fs, repo, dir: parent })),
  };
}

async function timed(fn) {
  const t0 = process.hrtime.bigint();
  const out = await fn();
  return { ms: Number(process.hrtime.bigint() - t0) / 1e6, out };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function measure(api, work, shape) {
  const repo = join(work, shape);
  const { commit, next } = generateRepo(repo, { packed: shape === "packed" });
  const parent = join(work, "rooms");
  mkdirSync(parent, { recursive: true });
  const c = contenders(api, repo, parent);
  const names = Object.keys(c);
  for (const name of names) {
    const dir = await c[name].open("warm-up", commit);
    const seen = census(dir);
    if (seen.files + seen.links !== ENTRIES || seen.links !== 100 || seen.executables < 100) {
      throw new Error(`${name} materialised ${JSON.stringify(seen)}, expected ${ENTRIES} entries with 100 links`);
    }
    await c[name].close();
    if (existsSync(dirname(dir)) && c[name].adapter !== undefined) throw new Error(`${name} left ${dirname(dir)} behind`);
    if (existsSync(dir)) throw new Error(`${name} left ${dir} behind`);
  }
  const open = Object.fromEntries(names.map((n) => [n, []]));
  const close = Object.fromEntries(names.map((n) => [n, []]));
  for (let k = 0; k < REPS; k += 1) {
    // A different order each round, so no contender always runs after the same one.
    const order = names.map((_, i) => names[(i + k) % names.length]);
    for (const name of order) {
      open[name].push((await timed(() => c[name].open(`r${k}`, k % 2 === 0 ? next : commit))).ms);
      close[name].push((await timed(() => c[name].close())).ms);
    }
  }
  for (const name of names) await c[name].adapter?.close?.();
  if (
    git(repo, "worktree", "list", "--porcelain")
      .split("\n")
      .filter((l) => l.startsWith("worktree ")).length !== 1
  ) {
    throw new Error("a worktree entry was left behind");
  }
  const med = (t) => Object.fromEntries(names.map((n) => [n, median(t[n])]));
  return { shape, commit, open: med(open), close: med(close) };
}

function report(r) {
  const base = r.open["direct clone+checkout"];
  console.log(`\n${r.shape} objects (commit ${r.commit}), medians of ${REPS}:`);
  console.log("contender                 open ms  ratio   dispose ms  target");
  for (const name of Object.keys(r.open)) {
    const ratio = r.open[name] / base;
    const target = TARGETS[name];
    const verdict = target === undefined ? "" : `<= ${target}x ${ratio <= target ? "met" : "MISSED"}`;
    console.log(
      `${name.padEnd(24)} ${r.open[name].toFixed(0).padStart(8)}  ${ratio.toFixed(2).padStart(5)}x ${r.close[name].toFixed(0).padStart(10)}  ${verdict}`,
    );
  }
}

async function main() {
  if (!existsSync(join(dist, "node.js"))) {
    console.error("build first: npx -y pnpm@12.4.2 run build");
    process.exitCode = 2;
    return;
  }
  const node = await import(pathToFileURL(join(dist, "node.js")).href);
  const gitEntry = await import(pathToFileURL(join(dist, "git.js")).href);
  const fs = await import("node:fs");
  const api = { ...node, isomorphicRoom: gitEntry.isomorphicRoom, fs };
  const version = (await run("git", ["--version"])).stdout.trim();
  console.log(
    `clean rooms: ${ENTRIES} entries, ${REPS} timed runs; ${version}, node ${process.version}, load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}`,
  );
  const work = mkdtempSync(join(tmpdir(), "decay-bench-cleanroom-"));
  try {
    for (const shape of SHAPES) report(await measure(api, work, shape));
  } catch (e) {
    console.error(`the benchmark stopped: ${e instanceof Error ? e.stack : e}`);
    process.exitCode = 2;
  } finally {
    rmSync(work, { recursive: true, force: true, maxRetries: 5 });
  }
  console.log(
    `\nload at the end ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}`,
  );
}

await main();
