// A/B timing of two or more builds of the gate (or any commands), run alternately so that a
// machine's slow and fast phases fall on every side alike. Wall-clock time from the parent,
// CPU time (user + system) from GNU time; min, median and mean of each. Every command runs with
// PATH and the locale only, as in run.mjs.
//   node bench/gate/ab.mjs 11 "node old/bin.cjs --root TREE rows.tsv" "node new/bin.cjs --root TREE rows.tsv"
// Arguments are split on spaces: paths holding spaces are not supported.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const [runs, ...commands] = process.argv.slice(2);
const n = Number(runs);
if (!Number.isInteger(n) || n < 1 || commands.length === 0) {
  console.error('usage: node bench/gate/ab.mjs RUNS "COMMAND ARGS..." ["COMMAND ARGS..."]...');
  process.exit(2);
}
const TIME = existsSync("/usr/bin/time") ? "/usr/bin/time" : undefined;
const MARK = "@@cpu ";
const env = Object.fromEntries(["PATH", "LANG", "LC_ALL"].filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]]));

function once(command) {
  const argv = command.split(" ").filter(Boolean);
  const [file, args] = TIME ? [TIME, ["-f", `${MARK}%U %S`, ...argv]] : [argv[0], argv.slice(1)];
  const t0 = process.hrtime.bigint();
  const r = spawnSync(file, args, { env, encoding: "utf8", maxBuffer: 256 << 20 });
  const wall = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.error) throw r.error;
  const at = r.stderr.lastIndexOf(MARK);
  const cpu = at === -1 ? NaN : r.stderr.slice(at + MARK.length).trim().split(" ").reduce((a, b) => a + Number(b) * 1000, 0);
  return { wall, cpu, status: r.status };
}

function summary(xs) {
  if (xs.some(Number.isNaN)) return "n/a (no /usr/bin/time)";
  const s = [...xs].sort((a, b) => a - b);
  const mean = s.reduce((a, b) => a + b, 0) / s.length;
  return `min ${s[0].toFixed(0)} med ${s[s.length >> 1].toFixed(0)} mean ${mean.toFixed(0)}`;
}

const samples = commands.map(() => ({ wall: [], cpu: [], statuses: new Set() }));
for (let i = 0; i < n; i += 1) {
  commands.forEach((command, k) => {
    const r = once(command);
    samples[k].wall.push(r.wall);
    samples[k].cpu.push(r.cpu);
    samples[k].statuses.add(r.status);
  });
}
commands.forEach((command, k) => {
  const { wall, cpu, statuses } = samples[k];
  console.log(`wall ${summary(wall)} | cpu ${summary(cpu)} | exit ${[...statuses].join(",")} | ${command}`);
});
