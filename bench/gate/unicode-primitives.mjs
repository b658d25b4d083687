// Micro-benchmark of the gate's Unicode primitives (case fold, confusable skeleton and key,
// scripts, NFC, text decoding and digests, rule 6) in two snapshots of packages/assumptions,
// each a directory holding that package's `src/` and built `dist/` (copy both aside before a
// change), timed alternately on realistic inputs; then, with --gate DIR, the whole gate of each
// snapshot's dist on a generated tree (DIR holding `tree/` and `rows-10000.tsv`), whose outputs
// must be identical.
//   node bench/gate/unicode-primitives.mjs /work/scratch/u-before packages/assumptions [--gate /tmp/keep/unicode]
// The primitives are internal (dist does not export them): each snapshot's own sources are
// bundled with esbuild into its own module, so every number is that snapshot's code.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { median, timed } from "./timing.mjs";

const args = process.argv.slice(2);
const gateAt = args.indexOf("--gate");
const gateDir = gateAt === -1 ? undefined : args.splice(gateAt, 2)[1];
if (args.length !== 2) {
  console.error("usage: node bench/gate/unicode-primitives.mjs BEFORE_PACKAGE AFTER_PACKAGE [--gate DIR]");
  process.exit(2);
}
const snapshots = args.map((dir) => resolve(dir));
const packageModules = fileURLToPath(new URL("../../packages/assumptions/node_modules", import.meta.url));

// The functions each snapshot exports; skeletonIncludes exists only where it was written.
const ENTRY = `
export { caseFold, nfc } from "./core/unicode/fold.ts";
export { confusableKey, skeleton } from "./core/unicode/skeleton.ts";
export { scriptsOf, isSingleScript } from "./core/unicode/scripts.ts";
export { checkCharacters } from "./core/rules.ts";
export { digestText, normaliseBytes } from "./core/text.ts";
export * as search from "./core/unicode/skeleton-search.ts";
`;

async function load(dir, scratch, k) {
  const outfile = join(scratch, `primitives-${k}.mjs`);
  const src = join(dir, "src");
  await build({
    stdin: { contents: ENTRY, resolveDir: src, loader: "ts" },
    bundle: true,
    format: "esm",
    platform: "node",
    outfile,
    nodePaths: [join(dir, "node_modules"), packageModules],
    logLevel: "silent",
    // A snapshot from before skeleton-search.ts existed: that export is left empty.
    plugins: [{ name: "optional", setup: (b) => optional(b, join(src, "core/unicode/skeleton-search.ts")) }],
  });
  return import(pathToFileURL(outfile).href);
}

// Resolves skeleton-search.ts to an empty module where the snapshot has none.
function optional(b, path) {
  b.onResolve({ filter: /skeleton-search/ }, () => (existsSync(path) ? { path } : { path, namespace: "empty" }));
  b.onLoad({ filter: /.*/, namespace: "empty" }, () => ({ contents: "", loader: "js" }));
}

// --- inputs ---
const FILES = ["résumé", "Ωμέγα", "Привет", "niño", "ファイル", "Ärger", "Readme", "file", "données", "über-größe"];
const NAMES = Array.from({ length: 1000 }, (_, i) => {
  const name = `${FILES[i % FILES.length]}-${56857 + i}.md`;
  return i % 2 === 0 ? name.normalize("NFD") : name;
});
const PATHS = NAMES.map((name, i) => `${i % 3 === 0 ? "данные-3" : "docs"}/${name}`.normalize("NFC"));
const FILLER = "export function helper(x: number): number { return (x * 31 + 7) % 1000003; }\n";
const MIXED_LINE = "// Ωμέγα данные résumé: ファイル\n";
const text5k = `${(FILLER.repeat(30) + MIXED_LINE).repeat(2)}export const ${"café12".normalize("NFD")} =\n`.normalize("NFC");
const text1m = `${FILLER.repeat(13_000)}export const café12 = 1;\n`;
const prose1m = "Ωμέγα σοφίας Привет мир данные ".repeat(34_000);
const utf8 = new TextEncoder();
const bytes5kNfd = utf8.encode(text5k.normalize("NFD"));
const bytes1m = utf8.encode(text1m);
const bytesProse = utf8.encode(prose1m);
const bytes1mNfc = utf8.encode(`${text1m}// ${MIXED_LINE}`);
const byteCount = (bytes) => String(bytes.length);

// Each case: a label and how to run it once against a snapshot's module (`m`).
const lacks = (m, text, literal) =>
  m.search.skeletonIncludes ? m.search.skeletonIncludes(text, m.skeleton(literal)) : m.skeleton(text).includes(m.skeleton(literal));
const each = (list, f) => {
  let n = 0;
  for (const x of list) n += f(x).length;
  return n;
};
const CASES = [
  ["caseFold, 1,000 names (half NFD)", (m) => each(NAMES, m.caseFold)],
  ["confusableKey, 1,000 names", (m) => each(NAMES, m.confusableKey)],
  ["scriptsOf, 1,000 names", (m) => each(NAMES, m.scriptsOf)],
  ["nfc, 1,000 names", (m) => each(NAMES, m.nfc)],
  ["checkCharacters, 1,000 paths", (m) => each(PATHS, (p) => m.checkCharacters(p, "path", 1)._unsafeUnwrap())],
  ["skeleton, 5 KiB text", (m) => m.skeleton(text5k).length],
  ["skeleton, 1 MiB text", (m) => m.skeleton(text1m).length],
  ["lacks check (skeletonIncludes after), 5 KiB", (m) => lacks(m, text5k, "данные12")],
  ["lacks check (skeletonIncludes after), 1 MiB", (m) => lacks(m, text1m, "данные12")],
  ["lacks check (skeletonIncludes after), 1 MiB prose", (m) => lacks(m, prose1m, "данные12")],
  ["nfc, 1 MiB text", (m) => m.nfc(text1m.normalize("NFD")).length],
  ["normaliseBytes, 5 KiB NFD", (m) => m.normaliseBytes(bytes5kNfd)._unsafeUnwrap().text().length],
  // The hash itself left out (the gate hashes with the tree's own): what is timed is making the bytes to hash.
  ["digestText less hashing, 5 KiB NFD", (m) => m.digestText(bytes5kNfd, "f", byteCount)._unsafeUnwrap()],
  ["digestText less hashing, 1 MiB ASCII", (m) => m.digestText(bytes1m, "f", byteCount)._unsafeUnwrap()],
  ["digestText less hashing, 1 MiB NFC", (m) => m.digestText(bytes1mNfc, "f", byteCount)._unsafeUnwrap()],
  ["digestText less hashing, 1 MiB prose", (m) => m.digestText(bytesProse, "f", byteCount)._unsafeUnwrap()],
];

// CPU microseconds a call of each run (process CPU time: on a shared virtual machine it is
// steadier than wall time), the median of seven batches taken alternately, each as many calls
// as fill about 30 ms.
function timePair(runs) {
  const reps = runs.map((run) => {
    run();
    const t0 = performance.now();
    run();
    return Math.max(1, Math.round(30 / Math.max(0.01, performance.now() - t0)));
  });
  const batches = runs.map(() => []);
  for (let b = 0; b < 7; b += 1) {
    runs.forEach((run, k) => {
      const start = process.cpuUsage();
      for (let r = 0; r < reps[k]; r += 1) run();
      const used = process.cpuUsage(start);
      batches[k].push((used.user + used.system) / reps[k]);
    });
  }
  return batches.map(median);
}

const scratch = mkdtempSync(join(tmpdir(), "unicode-primitives-"));
try {
  const [before, after] = await Promise.all(snapshots.map((dir, k) => load(dir, scratch, k)));
  console.log(`before ${snapshots[0]}\nafter  ${snapshots[1]}\n`);
  console.log(`${"case (CPU µs a call, median of 7)".padEnd(52)} ${"before".padStart(11)} ${"after".padStart(11)}  ratio`);
  for (const [label, run] of CASES) {
    if (String(run(before)) !== String(run(after))) throw new Error(`${label}: the snapshots disagree`);
    const [a, b] = timePair([() => run(before), () => run(after)]);
    console.log(`${label.padEnd(52)} ${a.toFixed(1).padStart(11)} ${b.toFixed(1).padStart(11)}  ${(a / b).toFixed(2)}x`);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

if (gateDir) gate(resolve(gateDir));

// The whole gate of each snapshot on the tree, alternately, 5 runs each after a warm-up.
function gate(dir) {
  const bins = snapshots.map((s) => join(s, "dist/bin.cjs"));
  const argv = (bin) => [bin, "--root", "tree", "rows-10000.tsv"];
  const outs = bins.map((bin) => timed(process.execPath, argv(bin), dir).stdout);
  if (outs[0] !== outs[1]) throw new Error("the two gates' outputs differ");
  const runs = bins.map(() => ({ wall: [], cpu: [], rss: [] }));
  for (let i = 0; i < 5; i += 1) {
    bins.forEach((bin, k) => {
      const r = timed(process.execPath, argv(bin), dir);
      runs[k].wall.push(r.ms);
      runs[k].cpu.push(r.cpu);
      runs[k].rss.push(r.rssMb);
    });
  }
  console.log(`\nwhole gate on ${dir} (outputs identical, ${outs[0].split("\n").length - 1} lines), medians of 5:`);
  runs.forEach((r, k) => {
    console.log(
      `${k === 0 ? "before" : "after "} wall ${median(r.wall).toFixed(0)} ms  cpu ${median(r.cpu).toFixed(0)} ms  peak RSS ${median(r.rss).toFixed(0)} MiB`,
    );
  });
  console.log(`ratio  wall ${(median(runs[0].wall) / median(runs[1].wall)).toFixed(2)}x  cpu ${(median(runs[0].cpu) / median(runs[1].cpu)).toFixed(2)}x`);
}
