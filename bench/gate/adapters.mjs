// The gate through each TreeReader adapter on one tree: the deep shape at 10,000 files (1,000
// rows), read from disk (nodeTree), from a memfs volume holding the same files (memfsTree) and
// from a git commit of them (gitTree over the object store; also with node:crypto's hashes, as
// plan-decay --ref reads). checkTree runs in
// this process; the median of BENCH_REPS (default 5) after one warm-up, CPU time beside wall
// time. Run after a build:   node bench/gate/adapters.mjs   (BENCH_DIST=other/dist for another build)
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { memfs } from "memfs";
import { prng } from "./content.mjs";
import { LAYOUTS, writeTree } from "./layouts.mjs";
import { buildRows, MIXES } from "./rows.mjs";
import { median } from "./timing.mjs";

const FILES = 10_000;
const ROWS = 1_000;
const REPS = Number(process.env.BENCH_REPS ?? 5);
const WORK = join(process.env.BENCH_DIR ?? "/tmp/decay-bench", "adapters");
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
// BENCH_DIST: another build of the package to measure (a copy of dist/ inside packages/assumptions,
// so that its dependencies resolve).
const DIST = process.env.BENCH_DIST ?? join(repoRoot, "packages/assumptions/dist");
const dist = (file) => pathToFileURL(join(DIST, file)).href;

function generate(root) {
  const rnd = prng(20261201);
  const { files } = writeTree(root, LAYOUTS.deep(rnd, FILES), rnd);
  const facts = (f) => ({ digest: f.digest, marker: `value${f.i} =`, missing: `nowhere${f.i}` });
  return buildRows(files, ROWS, prng(7), { mix: MIXES.standard, dirs: [], facts, readable: () => true });
}

// The same files in a memfs volume, written from the disk copy.
function volumeOf(root) {
  const { fs: mem } = memfs({});
  const copy = (dir) => {
    mem.mkdirSync(join("/tree", dir), { recursive: true });
    for (const e of fs.readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) copy(path);
      else mem.writeFileSync(join("/tree", path), fs.readFileSync(join(root, path)));
    }
  };
  copy("");
  return mem;
}

// gc.auto=0: without it the commit starts a background gc that packs the objects mid-run.
const git = (cwd, ...args) =>
  execFileSync("git", ["-c", "user.name=bench", "-c", "user.email=bench@decay.invalid", "-c", "gc.auto=0", ...args], { cwd, stdio: "ignore" });

function commit(root) {
  git(root, "init", "-q");
  git(root, "add", "-A");
  git(root, "commit", "-q", "-m", "bench");
}

// A bare clone of the commit, its objects in one pack.
function packed(root, bare) {
  git(WORK, "clone", "-q", "--bare", "--no-local", root, bare);
  git(bare, "gc", "-q");
}

async function time(check) {
  const start = performance.now();
  const cpu = process.cpuUsage();
  const report = (await check())._unsafeUnwrap();
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - start, cpu: (used.user + used.system) / 1000, diverged: report.diverged };
}

async function main() {
  fs.rmSync(WORK, { recursive: true, force: true });
  const root = join(WORK, "tree");
  fs.mkdirSync(root, { recursive: true });
  const plan = generate(root);
  const mem = volumeOf(root);
  commit(root);
  const bare = join(WORK, "packed.git");
  packed(root, bare);
  const gate = await import(dist("index.js"));
  const { gitTree } = await import(dist("git.js"));
  const { nodeTree, nodeSha1Hex, nodeSha256Hex } = await import(dist("node.js"));
  // As plan-decay --ref reads: node:crypto's hashes (builds before 2026-12-05 night have none).
  const hashes = nodeSha1Hex === undefined ? undefined : { sha1Hex: nodeSha1Hex, sha256Hex: nodeSha256Hex };
  const assumptions = gate.parseAssumptions(plan.tsv)._unsafeUnwrap();
  const adapters = {
    nodeTree: () => nodeTree(root),
    memfsTree: () => gate.memfsTree(mem, "/tree"),
    gitTree: () => gitTree({ fs, dir: root, ref: "HEAD" }),
    "gitTree packed": () => gitTree({ fs, dir: bare, ref: "HEAD" }),
    ...(hashes && {
      "gitTree, node:crypto": () => gitTree({ fs, dir: root, ref: "HEAD", ...hashes }),
      "gitTree packed, node:crypto": () => gitTree({ fs, dir: bare, ref: "HEAD", ...hashes }),
    }),
  };
  console.log(
    `deep shape, ${FILES} files, ${plan.rows} rows (${plan.diverging} planted to diverge); node ${process.version}; median of ${REPS} after one warm-up`,
  );
  const results = {};
  for (const [name, make] of Object.entries(adapters)) {
    const check = () => gate.checkTree({ tree: make(), assumptions });
    const warm = await time(check);
    if (warm.diverged !== plan.diverging) throw new Error(`${name}: ${warm.diverged} rows diverged, expected ${plan.diverging}`);
    const runs = [];
    for (let k = 0; k < REPS; k += 1) runs.push(await time(check));
    results[name] = { ms: median(runs.map((r) => r.ms)), cpu: median(runs.map((r) => r.cpu)) };
  }
  const base = results.nodeTree;
  for (const [name, r] of Object.entries(results)) {
    console.log(
      `${name.padEnd(28)} wall ${r.ms.toFixed(0).padStart(6)} ms (${(r.ms / base.ms).toFixed(2)}x nodeTree)  cpu ${r.cpu.toFixed(0).padStart(6)} ms (${(r.cpu / base.cpu).toFixed(2)}x)`,
    );
  }
  if (!process.env.BENCH_KEEP) fs.rmSync(WORK, { recursive: true, force: true });
}

await main();
