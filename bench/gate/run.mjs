// plan-decay benchmark: the gate against `sha256sum -c` (same unchanged files) plus `find -type f`
// over the same tree, in one run, page cache warmed by one untimed run of each. Run after a build:
//   npx -y pnpm@12.4.2 bench        (or: node bench/gate/run.mjs)
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { cpus } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ensureWorkload } from "./generate.mjs";

const REPS = Number(process.env.BENCH_REPS ?? 5);
const TARGET = 1.6;
const SIZES = [1_000, 10_000];
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const bin = join(repoRoot, "packages/assumptions/dist/bin.js");

function run(cmd, args, cwd) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { cwd, maxBuffer: 256 << 20, encoding: "utf8" });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.error) throw r.error;
  return { ms, status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function commands(w, set) {
  return {
    gate: () => run(process.execPath, [bin, "--root", w.root, join(w.work, `rows-${set.n}.tsv`)], repoRoot),
    sha: () => run("sha256sum", ["-c", "--quiet", join(w.work, `sums-${set.n}.txt`)], w.root),
    find: () => run("find", [w.root, "-type", "f"], repoRoot),
  };
}

/** The gate must be right before its speed means anything: exit 1, exactly the planted divergences. */
function verify(set, gate, sha, find) {
  const diverged = gate.stdout.split("\n").filter((l) => l.startsWith("DIVERGE ")).length;
  const problems = [];
  if (gate.status !== 1) problems.push(`gate exited ${gate.status}, expected 1: ${gate.stderr.trim()}`);
  if (diverged !== set.diverging) problems.push(`gate reported ${diverged} diverged rows, expected ${set.diverging}`);
  if (sha.status !== 0) problems.push(`sha256sum -c exited ${sha.status}`);
  if (find.stdout.split("\n").filter(Boolean).length < 100_000) problems.push("find listed fewer than 100,000 files");
  return problems;
}

function measure(w, set) {
  const c = commands(w, set);
  const problems = verify(set, c.gate(), c.sha(), c.find()); // the untimed warm-up run of each
  if (problems.length > 0) return { set, problems };
  const times = { gate: [], sha: [], find: [] };
  for (let k = 0; k < REPS; k += 1) for (const name of ["gate", "sha", "find"]) times[name].push(c[name]().ms);
  const gate = median(times.gate);
  const sha = median(times.sha);
  const find = median(times.find);
  return { set, gate, sha, find, ratio: gate / (sha + find) };
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
  console.log("rows    unchanged  plan-decay    sha256sum -c  find -type f   ratio");
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
    console.log(`${String(set.n).padEnd(8)}${String(set.unchanged).padStart(9)}  ${fmt(m.gate)}  ${fmt(m.sha)}     ${fmt(m.find)}     ${m.ratio.toFixed(2)}x`);
  }
  if (last) console.log(`target <= ${TARGET}x at ${last.set.n} rows: ${last.ratio <= TARGET ? "met" : "MISSED"}`);
  return failed ? 1 : 0;
}

process.exitCode = main();
