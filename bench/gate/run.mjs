// plan-decay benchmark: the gate against `sha256sum -c` (same unchanged files) plus `find -type f`
// over the same tree, in one run, page cache warmed by one untimed run of each. Run after a build:
//   npx -y pnpm@12.4.2 bench        (or: node bench/gate/run.mjs)
import { existsSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ensureWorkload } from "./generate.mjs";
import { MINIMAL_ENV, median, timed as run } from "./timing.mjs";

const REPS = Number(process.env.BENCH_REPS ?? 5);
const TARGET = 1.6;
const SIZES = [1_000, 10_000];
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const bin = join(repoRoot, "packages/assumptions/dist/bin.cjs");
const floorScript = join(repoRoot, "bench/gate/floor.mjs");

function commands(w, set) {
  return {
    gate: () => run(process.execPath, [bin, "--root", w.root, join(w.work, `rows-${set.n}.tsv`)], repoRoot),
    sha: () => run("sha256sum", ["-c", "--quiet", join(w.work, `sums-${set.n}.txt`)], w.root),
    find: () => run("find", [w.root, "-type", "f"], repoRoot),
    floor: () => run(process.execPath, [floorScript, w.root, join(w.work, `rows-${set.n}.tsv`)], repoRoot),
  };
}

/** The gate must be right before its speed means anything: exit 1, exactly the planted divergences. */
function verify(set, gate, sha, find, floor) {
  const diverged = gate.stdout.split("\n").filter((l) => l.startsWith("DIVERGE ")).length;
  const problems = [];
  if (gate.status !== 1) problems.push(`gate exited ${gate.status}, expected 1: ${gate.stderr.trim()}`);
  if (diverged !== set.diverging) problems.push(`gate reported ${diverged} diverged rows, expected ${set.diverging}`);
  if (sha.status !== 0) problems.push(`sha256sum -c exited ${sha.status}`);
  if (find.stdout.split("\n").filter(Boolean).length < 100_000) problems.push("find listed fewer than 100,000 files");
  if (floor.status !== 0) problems.push(`the floor program exited ${floor.status}: ${floor.stderr.trim()}`);
  return problems;
}

function measure(workload, set) {
  const c = commands(workload, set);
  const problems = verify(set, c.gate(), c.sha(), c.find(), c.floor()); // the untimed warm-up run of each
  if (problems.length > 0) return { set, problems };
  const names = Object.keys(c);
  const samples = () => Object.fromEntries(names.map((name) => [name, []]));
  const wall = samples();
  const cpu = samples();
  for (let k = 0; k < REPS; k += 1) {
    for (const name of names) {
      const r = c[name]();
      wall[name].push(r.ms);
      cpu[name].push(r.cpu);
    }
  }
  const medians = (t) => Object.fromEntries(names.map((name) => [name, median(t[name])]));
  const w = medians(wall);
  const u = medians(cpu);
  const peer = (t) => t.sha + t.find;
  return {
    set,
    wall: w,
    cpu: u,
    ratio: w.gate / peer(w),
    cpuRatio: u.gate / peer(u),
    floorRatio: w.floor / peer(w),
    cpuFloorRatio: u.floor / peer(u),
  };
}

/** Median start-up time of an empty Node program, in the minimal and in the inherited environment. */
function startupCost() {
  const time = (env) => median(Array.from({ length: 7 }, () => run(process.execPath, ["-e", "0"], repoRoot, env).ms));
  return { minimal: time(MINIMAL_ENV), inherited: time(process.env) };
}

function fmt(ms) {
  return `${ms.toFixed(0).padStart(6)} ms`;
}

function main() {
  if (!existsSync(bin)) {
    console.error(`missing ${bin}: build first (npx -y pnpm@12.4.2 build)`);
    return 2;
  }
  console.log("plan-decay benchmark: preparing the workload (cached under .bench-work/)...");
  const w = ensureWorkload(repoRoot, SIZES);
  console.log(`tree: ${w.files} files in ${w.dirs} directories; node ${process.version}; ${cpus().length} CPUs; median of ${REPS}`);
  console.log("rows    unchanged  clock   plan-decay  sha256sum -c  find -type f   ratio   node floor  floor ratio");
  let failed = false;
  let last;
  for (const set of w.sets) {
    const m = measure(w, set);
    if (m.problems) {
      failed = true;
      console.error(`rows ${set.n}: ${m.problems.join("; ")}`);
      continue;
    }
    last = m;
    const line = (label, t, ratio, floorRatio) =>
      `${String(set.n).padEnd(8)}${String(set.unchanged).padStart(9)}  ${label}  ${fmt(t.gate)}  ${fmt(t.sha)}     ${fmt(t.find)}   ${ratio.toFixed(2)}x  ${fmt(t.floor)}  ${floorRatio.toFixed(2)}x`;
    console.log(line("wall ", m.wall, m.ratio, m.floorRatio));
    if (!Number.isNaN(m.cpuRatio)) console.log(line("cpu  ", m.cpu, m.cpuRatio, m.cpuFloorRatio));
  }
  if (last) {
    console.log(`target <= ${TARGET}x (wall) at ${last.set.n} rows: ${last.ratio <= TARGET ? "met" : "MISSED"}`);
    console.log(`the node floor (bench/gate/floor.mjs: only the unavoidable system calls and hashing) is ${last.floorRatio.toFixed(2)}x by itself`);
  }
  const start = startupCost();
  console.log(
    `commands ran with PATH and the locale only; an empty node program starts in ${start.minimal.toFixed(0)} ms that way and in ${start.inherited.toFixed(0)} ms with this shell's whole environment`,
  );
  console.log(
    `load average while measuring: ${loadavg()
      .map((x) => x.toFixed(2))
      .join(" ")}`,
  );
  return failed ? 1 : 0;
}

process.exitCode = main();
