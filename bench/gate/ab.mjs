// A/B timing of two or more builds of the gate (or any commands), run alternately so that a
// machine's slow and fast phases fall on every side alike. Wall-clock time from the parent,
// CPU time (user + system) from GNU time; min, median and mean of each. Every command runs with
// PATH and the locale only, as in run.mjs.
//   node bench/gate/ab.mjs 11 "node old/bin.cjs --root TREE rows.tsv" "node new/bin.cjs --root TREE rows.tsv"
// Arguments are split on spaces: paths holding spaces are not supported.
import { median, timed } from "./timing.mjs";

const [runs, ...commands] = process.argv.slice(2);
const n = Number(runs);
if (!Number.isInteger(n) || n < 1 || commands.length === 0) {
  console.error('usage: node bench/gate/ab.mjs RUNS "COMMAND ARGS..." ["COMMAND ARGS..."]...');
  process.exit(2);
}

function summary(xs) {
  if (xs.some(Number.isNaN)) return "n/a (no /usr/bin/time)";
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  return `min ${Math.min(...xs).toFixed(0)} med ${median(xs).toFixed(0)} mean ${mean.toFixed(0)}`;
}

const samples = commands.map(() => ({ wall: [], cpu: [], statuses: new Set() }));
for (let i = 0; i < n; i += 1) {
  commands.forEach((command, k) => {
    const argv = command.split(" ").filter(Boolean);
    const r = timed(argv[0], argv.slice(1), process.cwd());
    samples[k].wall.push(r.ms);
    samples[k].cpu.push(r.cpu);
    samples[k].statuses.add(r.status);
  });
}
commands.forEach((command, k) => {
  const { wall, cpu, statuses } = samples[k];
  console.log(`wall ${summary(wall)} | cpu ${summary(cpu)} | exit ${[...statuses].join(",")} | ${command}`);
});
