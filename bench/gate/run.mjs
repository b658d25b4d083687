// plan-decay benchmark over six tree shapes. For each shape: generate the tree (about 100,000
// files) and plans under BENCH_DIR (default /tmp/decay-bench), then time the gate against the
// fair floor, `sha256sum` over every file any row must read (each once) plus `find -type f`
// over the tree. One untimed warm-up of each (it also checks the gate's answer), then the
// median of BENCH_REPS (default 5) timed runs; the tree is deleted afterwards.
//   npx -y pnpm@12.4.2 bench                        (builds, then runs this)
//   node bench/gate/run.mjs [shape...]              (after a build; default: all six)
// The deep shape is also run at 1,000 and 100,000 rows to show the cost per row, and on trees
// grown with the plan (1,000 and 10,000 files for 1,000 and 10,000 rows) and on 1, 10 and 100
// copies of one 1,000-file tree, to show it net of start-up: the gate on a one-row plan over the
// same tree is subtracted. The copies are timed again with V8's optimising compilers off, which
// shows whether a row's cost changes with the row count or only with how much of the code V8 has
// optimised. `node bench/gate/run.mjs copies` runs the copies alone.
import { spawnSync } from "node:child_process";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { generateShape, replicateShape, SHAPES } from "./shapes.mjs";
import { floorCommands, median, MINIMAL_ENV, timed } from "./timing.mjs";

const REPS = Number(process.env.BENCH_REPS ?? 5);
const WORK = process.env.BENCH_DIR ?? "/tmp/decay-bench";
const TARGET = 1.6;
const RSS_TARGET_MB = 200;
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
// BENCH_BIN: another build of the CLI to measure (for before/after comparisons).
const bin = process.env.BENCH_BIN ?? join(repoRoot, "packages/assumptions/dist/bin.cjs");
// BENCH_COMPARE: a second build, timed alternately with the first on the same trees.
const other = process.env.BENCH_COMPARE;

function commands(root, set) {
  return {
    gate: () => timed(process.execPath, [bin, "--root", root, set.plan], repoRoot),
    ...(other ? { other: () => timed(process.execPath, [other, "--root", root, set.plan], repoRoot) } : {}),
    ...floorCommands(root, set.list),
  };
}

/** The gate must be right before its speed means anything: exit 1, exactly the planted divergences. */
function verify(set, gate, sha, find, second) {
  if (second) {
    const problems = verify(set, second, sha, find);
    if (problems.length > 0) return problems.map((p) => `BENCH_COMPARE build: ${p}`);
  }
  const diverged = gate.stdout.split("\n").filter((l) => l.startsWith("DIVERGE ")).length;
  const problems = [];
  if (gate.status !== 1) problems.push(`gate exited ${gate.status}, expected 1: ${gate.stderr.trim().slice(0, 500)}`);
  if (diverged !== set.diverging) {
    const sample = gate.stdout
      .split("\n")
      .filter((l) => l.startsWith("DIVERGE "))
      .slice(0, 5)
      .join("\n  ");
    problems.push(`gate reported ${diverged} diverged rows, expected ${set.diverging}:\n  ${sample}`);
  }
  if (sha.status !== 0) problems.push(`sha256sum exited ${sha.status}: ${sha.stderr.trim().slice(0, 300)}`);
  if (find.status !== 0) problems.push(`find exited ${find.status}`);
  return problems;
}

function measure(root, set) {
  const c = commands(root, set);
  const problems = verify(set, c.gate(), c.sha(), c.find(), c.other?.());
  if (problems.length > 0) return { set, problems };
  const wall = Object.fromEntries(Object.keys(c).map((name) => [name, []]));
  const cpu = Object.fromEntries(Object.keys(c).map((name) => [name, []]));
  const rss = { gate: 0, other: 0 };
  for (let k = 0; k < REPS; k += 1) {
    for (const name of Object.keys(c)) {
      const r = c[name]();
      wall[name].push(r.ms);
      cpu[name].push(r.cpu);
      if (name in rss) rss[name] = Math.max(rss[name], r.rssMb);
    }
  }
  const m = (t) => Object.fromEntries(Object.keys(t).map((name) => [name, median(t[name])]));
  const w = m(wall);
  const u = m(cpu);
  const floor = w.sha + w.find;
  const cpuFloor = u.sha + u.find;
  const result = {
    set,
    gate: w.gate,
    sha: w.sha,
    find: w.find,
    floor,
    ratio: w.gate / floor,
    rss: rss.gate,
    cpu: u.gate,
    cpuFloor,
    cpuRatio: u.gate / cpuFloor,
  };
  if (other) result.other = { gate: w.other, ratio: w.other / floor, cpu: u.other, cpuRatio: u.other / cpuFloor, rss: rss.other };
  return result;
}

/** Generates a shape and waits for its files to reach the disk, so no write-back runs under the timings. */
function generated(shape, work, sizes, count) {
  const made = generateShape(shape, work, sizes, count);
  spawnSync("sync");
  return made;
}

/** The gate's fixed cost on a tree: start-up, the plan read, one listing (a one-row plan that holds). */
function fixedCost(root, work, nodeFlags = []) {
  const plan = join(work, "one-row.tsv");
  writeFileSync(plan, "absent\tno-such-entry\n");
  return gateMedian(root, plan, 0, nodeFlags);
}

/** The gate's median wall time on one plan (after one untimed run that must exit `status`), node started with `nodeFlags`. */
function gateMedian(root, plan, status, nodeFlags) {
  const run = () => timed(process.execPath, [...nodeFlags, bin, "--root", root, plan], repoRoot);
  const first = run();
  if (first.status !== status) throw new Error(`${plan} exited ${first.status}, expected ${status}: ${first.stderr.trim().slice(0, 300)}`);
  return median(Array.from({ length: REPS }, () => run().ms));
}

/**
 * V8's optimising compilers (TurboFan, Maglev) off, for the benchmark's child process only: the
 * gate's code runs interpreted or baseline-compiled at every row count, so what a row costs no
 * longer falls as more of the code gets optimised. Never set by the gate itself.
 */
const TIERS_OFF = ["--no-opt", "--no-maglev"];

/** Rows 1,000 and 10,000 over deep trees of as many files; `big` is the 100,000-row run on the standard tree. */
function grownSeries(big) {
  const series = [];
  for (const n of [1_000, 10_000]) {
    const work = join(WORK, "deep-grown");
    const made = generated("deep", work, [n], n);
    const m = measure(made.root, made.sets[0]);
    if (m.problems) throw new Error(`deep, ${n} files: ${m.problems.join("; ")}`);
    series.push({ n, files: made.files, gate: m.gate, fixed: fixedCost(made.root, work) });
    if (!process.env.BENCH_KEEP) rmSync(work, { recursive: true, force: true });
  }
  series.push({ n: big.set.n, files: big.files, gate: big.gate, fixed: big.fixed });
  return series;
}

/**
 * The deep layout's unit of 1,000 files and 1,000 rows, copied 1, 10 and 100 times side by side:
 * unlike the grown trees (a random layout of 1,000 files has 0.47 directories a file, one of
 * 100,000 has 0.31), every count grows by the same factor, rows per directory included.
 */
function copiesSeries() {
  const unitWork = join(WORK, "deep-unit");
  const unit = generated("deep", unitWork, [1_000], 1_000);
  const series = [];
  for (const copies of [1, 10, 100]) {
    const work = join(WORK, "deep-copies");
    const made = replicateShape(unit, work, copies);
    spawnSync("sync");
    const m = measure(made.root, made.sets[0]);
    if (m.problems) throw new Error(`deep, ${copies} copies: ${m.problems.join("; ")}`);
    const [set] = made.sets;
    series.push({
      n: set.n,
      files: made.files,
      gate: m.gate,
      fixed: fixedCost(made.root, work),
      tiersOff: { n: set.n, files: made.files, gate: gateMedian(made.root, set.plan, 1, TIERS_OFF), fixed: fixedCost(made.root, work, TIERS_OFF) },
    });
    if (!process.env.BENCH_KEEP) rmSync(work, { recursive: true, force: true });
  }
  if (!process.env.BENCH_KEEP) rmSync(unitWork, { recursive: true, force: true });
  return series;
}

function reportSeries(title, series) {
  console.log(`${title.padEnd(31)}   rows   files      gate  fixed (one-row plan)  per row net of fixed`);
  for (const s of series) {
    console.log(
      `${" ".repeat(31)}${String(s.n).padStart(7)} ${String(s.files).padStart(7)} ${fmt(s.gate)} ${fmt(s.fixed)}${" ".repeat(12)}${((1000 * (s.gate - s.fixed)) / s.n).toFixed(1).padStart(6)} us`,
    );
  }
  const net = series.map((s) => (s.gate - s.fixed) / s.n);
  console.log(`  per row net of fixed cost, largest / smallest: ${(Math.max(...net) / Math.min(...net)).toFixed(2)}x (target within 1.3x)`);
}

function fmt(ms) {
  return `${ms.toFixed(0).padStart(6)} ms`;
}

function report(shape, files, m) {
  if (m.problems) return `${shape.padEnd(13)} ${String(m.set.n).padStart(7)}  FAILED: ${m.problems.join("; ")}`;
  const perRow = (m.gate * 1000) / m.set.n;
  const line = `${shape.padEnd(13)} ${String(m.set.n).padStart(7)} ${String(files).padStart(7)} ${String(m.set.reads).padStart(6)}  ${fmt(m.gate)} ${fmt(m.sha)} ${fmt(m.find)} ${fmt(m.floor)}  ${m.ratio.toFixed(2).padStart(5)}x  ${m.rss.toFixed(0).padStart(4)} MiB  ${perRow.toFixed(1).padStart(6)} us  | cpu ${fmt(m.cpu)} vs ${fmt(m.cpuFloor)} ${m.cpuRatio.toFixed(2).padStart(5)}x`;
  if (!m.other) return line;
  const o = m.other;
  return `${line}\n${"  (compare)".padEnd(37)}  ${fmt(o.gate)} ${" ".repeat(38)}${o.ratio.toFixed(2).padStart(5)}x  ${o.rss.toFixed(0).padStart(4)} MiB  ${" ".repeat(9)}  | cpu ${fmt(o.cpu)} ${" ".repeat(12)}${o.cpuRatio.toFixed(2).padStart(5)}x`;
}

function main() {
  if (!existsSync(bin)) {
    console.error(`missing ${bin}: build first (npx -y pnpm@12.4.2 build)`);
    return 2;
  }
  const asked = process.argv.length > 2 ? process.argv.slice(2) : SHAPES;
  // `copies` is no shape: it runs the copied-tree series alone (it runs after `deep` anyway).
  const unknown = asked.filter((s) => !SHAPES.includes(s) && s !== "copies");
  if (unknown.length > 0) {
    console.error(`unknown shape(s): ${unknown.join(", ")}; known: ${SHAPES.join(", ")}, and copies`);
    return 2;
  }
  const shapes = asked.filter((s) => s !== "copies");
  const startup = median(Array.from({ length: 5 }, () => timed(process.execPath, ["-e", "0"], repoRoot, MINIMAL_ENV).ms));
  console.log(`node ${process.version}; ${cpus().length} CPUs; median of ${REPS} after one warm-up; an empty node program starts in ${startup.toFixed(0)} ms`);
  if (shapes.length > 0) {
    console.log(
      "shape            rows   files  reads       gate     sha256sum          find         floor   ratio  gate RSS   per row  | cpu: gate vs floor, ratio",
    );
  }
  let failed = false;
  const results = [];
  for (const shape of shapes) {
    const sizes = shape === "deep" ? [1_000, 10_000, 100_000] : [10_000];
    const work = join(WORK, shape);
    const made = generated(shape, work, sizes);
    for (const set of made.sets) {
      const m = measure(made.root, set);
      if (m.problems) failed = true;
      else results.push({ shape, files: made.files, ...m });
      console.log(report(shape, made.files, m));
    }
    if (shape === "deep") {
      const fixed = fixedCost(made.root, work);
      for (const r of results) if (r.shape === "deep") r.fixed = fixed;
    }
    if (!process.env.BENCH_KEEP) rmSync(work, { recursive: true, force: true });
  }
  const at10k = results.filter((r) => r.set.n === 10_000);
  const worst = Math.max(...at10k.map((r) => r.ratio));
  const rss = Math.max(...at10k.map((r) => r.rss));
  if (at10k.length > 0)
    console.log(
      `targets at 10,000 rows: ratio <= ${TARGET} on every shape: ${worst <= TARGET ? "met" : "MISSED"} (worst ${worst.toFixed(2)}x); peak RSS <= ${RSS_TARGET_MB} MiB: ${rss <= RSS_TARGET_MB ? "met" : "MISSED"} (${rss.toFixed(0)} MiB)`,
    );
  const deep = results.filter((r) => r.shape === "deep");
  if (deep.length === 3) {
    const per = deep.map((r) => r.gate / r.set.n);
    const marginal = (deep[2].gate - deep[0].gate) / (deep[2].set.n - deep[0].set.n);
    console.log(
      `deep, time per row: ${per.map((p) => `${(p * 1000).toFixed(1)} us`).join(" / ")} at 1k / 10k / 100k rows; 100k vs 1k: ${(per[2] / per[0]).toFixed(2)}x; marginal 1k->100k ${(marginal * 1000).toFixed(1)} us/row`,
    );
    reportSeries("deep, tree grown with the plan:", grownSeries(deep[2]));
  }
  if (asked.includes("deep") || asked.includes("copies")) {
    const copies = copiesSeries();
    reportSeries("deep, copies of 1,000 files:", copies);
    reportSeries(
      "same, optimising tiers off:",
      copies.map((s) => s.tiersOff),
    );
  }
  console.log(
    `load average at the end: ${loadavg()
      .map((x) => x.toFixed(2))
      .join(" ")}`,
  );
  return failed ? 1 : 0;
}

process.exitCode = main();
