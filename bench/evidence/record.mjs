// decay-evidence on large records: `hash` (read, validate, canonical JSON, SHA-256) and `prepare`
// (the same, then the snapshot and the envelope written crash-safely) against a named peer in
// the same run, Node's own `JSON.parse`, `JSON.stringify` and `node:crypto` SHA-256 over the same
// file, which neither validates nor keeps integers apart from floats. Three records of about 20 MB:
// few checks with long ASCII results, the same with a tenth of the text needing escapes (quotes,
// newlines, non-ASCII), and a hundred thousand short checks. Medians of BENCH_REPS (default 5)
// after one warm-up that must exit 0.
// Run: pnpm run build && node bench/evidence/record.mjs
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { median, MINIMAL_ENV, timed } from "../gate/timing.mjs";

const reps = Number(process.env.BENCH_REPS) || 5;
const bin = resolve(process.env.BENCH_BIN ?? "packages/evidence/dist/bin.js");
if (!fs.existsSync(bin)) {
  console.error(`missing ${bin}: build first (npx -y pnpm@12.4.2 build)`);
  process.exit(2);
}
const work = fs.mkdtempSync(join(tmpdir(), "decay-bench-evidence-"));
const repo = join(work, "repo");
fs.mkdirSync(repo);
spawnSync("git", ["init", "-q", repo]);

/** A deterministic text of `n` UTF-16 units: `noisy` puts a character needing an escape every ten. */
function textOf(seed, n, noisy) {
  const words = ["ok", "passed", "test", "suite", "line", String(seed)];
  const odd = ['"', "\\", "\n", "é", "→", "\u3042", "\t"];
  let out = "";
  for (let k = 0; out.length < n; k += 1) out += noisy && k % 10 === 9 ? odd[k % odd.length] : `${words[(seed + k) % words.length]} `;
  return out.slice(0, n);
}

function record(checks) {
  return {
    schema: "evidence-record-v1",
    repo: "github.com/o/r",
    pr: 23,
    task: "bench",
    attempt: "a1",
    merge_sha: "a".repeat(40),
    deployment: { id: "d", version: "v" },
    timestamp: 1733300000.5,
    checks,
    production_status: "succeeded",
    author: { id: 1, login: "bench" },
    previous_attempt: null,
  };
}

const shapes = {
  "long ascii": () => Array.from({ length: 400 }, (_, i) => ({ command: `npm test -- part ${i}`, result: textOf(i, 50_000, false) })),
  "long escaped": () => Array.from({ length: 400 }, (_, i) => ({ command: `npm test -- part ${i}`, result: textOf(i, 50_000, true) })),
  "many short": () => Array.from({ length: 100_000 }, (_, i) => ({ command: `check ${i}`, result: textOf(i, 180, i % 2 === 0) })),
};

const PEER = [
  "-e",
  'const t=require("fs").readFileSync(process.argv[1],"utf8");process.stdout.write(require("crypto").createHash("sha256").update(JSON.stringify(JSON.parse(t))).digest("hex"))',
];

function timeOf(args, status) {
  const first = timed(process.execPath, args, work, MINIMAL_ENV);
  if (first.status !== status) throw new Error(`${args.join(" ")} exited ${first.status}, expected ${status}: ${first.stderr.slice(0, 300)}`);
  return median(Array.from({ length: reps }, () => timed(process.execPath, args, work, MINIMAL_ENV).ms));
}

console.log(`node ${process.version}; median of ${reps} after one warm-up; peer: JSON.parse + JSON.stringify + node:crypto over the same file`);
console.log("record          size      hash     prepare       peer   hash / peer   prepare / peer");
for (const [name, make] of Object.entries(shapes)) {
  const file = join(work, `${name.replace(" ", "-")}.json`);
  fs.writeFileSync(file, JSON.stringify(record(make())));
  const mb = fs.statSync(file).size / 1e6;
  const home = join(work, "home");
  fs.mkdirSync(home, { recursive: true });
  const hash = timeOf([bin, "hash", file], 0);
  // Each prepare writes the same snapshot and envelope again: the store's own idempotent path.
  const prepare = timeOf([bin, "prepare", file, "--home", home, "--repo", repo], 0);
  const peer = timeOf([...PEER, file], 0);
  console.log(
    `${name.padEnd(13)} ${mb.toFixed(1).padStart(5)} MB ${hash.toFixed(0).padStart(6)} ms ${prepare.toFixed(0).padStart(7)} ms ${peer.toFixed(0).padStart(6)} ms ${(hash / peer).toFixed(2).padStart(9)}x ${(prepare / peer).toFixed(2).padStart(12)}x`,
  );
}
fs.rmSync(work, { recursive: true, force: true });
