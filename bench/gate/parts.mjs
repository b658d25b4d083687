// Where the gate's time goes, part by part, in one process (CPU time from process.cpuUsage):
// loading the built package, parsing the rows, listing every directory the rows reach, reading
// every file a row needs, digesting those bytes, then the whole checkTree. Run after a build and
// after run.mjs has generated the workload:   node bench/gate/parts.mjs [rows]   (default 10000)
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const work = join(repoRoot, ".bench-work/gate-v1");
const rowsFile = join(work, `rows-${process.argv[2] ?? "10000"}.tsv`);

/** CPU milliseconds (user + system) spent in `run`, and its answer. */
async function timed(run) {
  const start = process.cpuUsage();
  const value = await run();
  const used = process.cpuUsage(start);
  return { ms: Math.round((used.user + used.system) / 1000), value };
}

function reached(rows) {
  const dirs = new Set();
  const files = [];
  for (const row of rows) {
    const parts = row.path.split("/");
    for (let i = 1; i < parts.length; i += 1) dirs.add(parts.slice(0, i).join("/"));
    if (row.kind !== "exists" && row.kind !== "absent") files.push(row.path);
  }
  return { dirs: ["", ...dirs], files };
}

async function main() {
  const entry = pathToFileURL(join(repoRoot, "packages/assumptions/dist/index.js")).href;
  const nodeEntry = pathToFileURL(join(repoRoot, "packages/assumptions/dist/node.js")).href;
  const load = await timed(() => Promise.all([import(entry), import(nodeEntry)]));
  const gate = { ...load.value[0], ...load.value[1] };
  const parse = await timed(() => gate.parseAssumptions(readFileSync(rowsFile))._unsafeUnwrap());
  const { dirs, files } = reached(parse.value);
  const tree = gate.nodeTree(join(work, "tree"));
  const list = await timed(async () => {
    let entries = 0;
    for (const dir of dirs) entries += (await tree.list(dir)).unwrapOr([]).length;
    return entries;
  });
  const read = await timed(async () => {
    const bytes = [];
    for (const path of files) (await tree.read(path, gate.DEFAULT_MAX_BYTES)).map((b) => bytes.push(b));
    return bytes;
  });
  const digest = await timed(() => read.value.forEach((b) => gate.digestText(b)));
  const check = await timed(() => gate.checkTree({ tree: gate.nodeTree(join(work, "tree")), assumptions: parse.value }));
  const mib = read.value.reduce((n, b) => n + b.length, 0) / 2 ** 20;
  console.log(`load the package root    ${load.ms} ms (zod included; the CLI loads zod only for --json)`);
  console.log(`parse ${parse.value.length} rows          ${parse.ms} ms`);
  console.log(`list ${dirs.length} directories     ${list.ms} ms (${list.value} entries)`);
  console.log(`read ${read.value.length} files         ${read.ms} ms (${mib.toFixed(1)} MiB)`);
  console.log(`digest those bytes       ${digest.ms} ms`);
  console.log(`checkTree, all of it     ${check.ms} ms (${check.value._unsafeUnwrap().diverged} diverged; lists and reads again)`);
}

await main();
