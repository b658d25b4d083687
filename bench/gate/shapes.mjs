// Generates one benchmark shape under a work directory: the tree, and for each row count a plan
// (rows-N.tsv), the NUL-separated list of files its rows must read (reads-N.list) and the number
// of rows planted to diverge.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { literals, proseLiterals, prng } from "./content.mjs";
import { FILES, LAYOUTS, writeTree } from "./layouts.mjs";
import { realFacts, writeReal } from "./real.mjs";
import { buildRows, MIXES } from "./rows.mjs";

/**
 * The shapes, in the order the benchmark runs them: the six, then four it does not name
 * (a 300-level chain, one directory of 100,000 files, rows reached through directory links, and
 * message files of prose in four scripts with several `lacks` rows each).
 */
export const SHAPES = ["flat", "deep", "huge", "absent-heavy", "unicode", "real", "chain", "one-dir", "links", "scripts"];

const REAL_COPIES = 10;
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

function rowOptions(shape) {
  return {
    mix: shape === "absent-heavy" ? MIXES.absentHeavy : MIXES.standard,
    missingParents: shape === "absent-heavy" ? 0.5 : 0.2,
    bigShare: shape === "huge" ? 0.85 : 0,
    variants: shape === "unicode",
    lacksPerFile: shape === "scripts" ? 5 : 1,
  };
}

function synthetic(shape, root, seed, count) {
  const rnd = prng(seed);
  const { files, dirs } = writeTree(root, LAYOUTS[shape](rnd, count), rnd);
  const facts = (f) => ({ digest: f.digest, ...(f.prose ? proseLiterals(f.i) : literals(f.i, f.uni)) });
  return { files, dirs, facts, readable: () => true };
}

/**
 * Links each `real/dNNNN` from the top (`dNNNN -> real/dNNNN`); the plans name the files in every
 * other directory through its link, so those rows resolve a link on the way, and some `exists`
 * rows name the links themselves.
 */
function throughLinks(root, made) {
  const linked = new Set();
  const links = [];
  for (const d of made.dirs) {
    const m = /^real\/(d(\d+))$/.exec(d.disk);
    if (!m) continue;
    symlinkSync(d.disk, join(root, m[1]));
    links.push(m[1]);
    if (Number(m[2]) % 2 === 0) linked.add(d.disk);
  }
  for (const f of made.files) {
    const dir = f.disk.slice(0, f.disk.lastIndexOf("/"));
    if (linked.has(dir)) f.plan = f.plan.slice("real/".length);
  }
  return { ...made, links };
}

function real(root) {
  const { files, dirs, links } = writeReal(root, join(repoRoot, "node_modules/.pnpm"), REAL_COPIES);
  return { files, dirs, links, ...realFacts(root) };
}

/** Shapes whose layout takes a file count other than the standard 100,000. */
const SIZABLE = new Set(["deep", "absent-heavy"]);

/**
 * Writes shape `shape` under `work` (emptied first) with plans of each of `sizes` rows; returns
 * the tree's root, its file count and the plans. `count` sizes the tree of a deep-layout shape
 * (default 100,000 files); other shapes refuse any other count.
 */
export function generateShape(shape, work, sizes, count = FILES) {
  if (count !== FILES && !SIZABLE.has(shape)) throw new Error(`the ${shape} shape has a fixed size of ${FILES} files`);
  rmSync(work, { recursive: true, force: true });
  const root = join(work, "tree");
  mkdirSync(root, { recursive: true });
  const seed = 20261201 + SHAPES.indexOf(shape);
  const made =
    shape === "real" ? real(root) : shape === "links" ? throughLinks(root, synthetic(shape, root, seed, count)) : synthetic(shape, root, seed, count);
  const sets = sizes.map((n) => {
    const built = buildRows(made.files, n, prng(seed * 31 + n), { ...rowOptions(shape), ...made });
    const plan = join(work, `rows-${n}.tsv`);
    const list = join(work, `reads-${n}.list`);
    writeFileSync(plan, built.tsv);
    writeFileSync(list, built.reads.map((p) => `${p}\u0000`).join(""));
    return { n: built.rows, plan, list, diverging: built.diverging, reads: built.reads.length };
  });
  return { root, files: made.files.length, sets, expectedFiles: shape === "real" ? undefined : count };
}

/**
 * `copies` copies of a generated shape's tree side by side (`u000/`, `u001/`, ...) under
 * `work/tree`, with its first plan repeated once per copy, each row's path under its copy. Every
 * count grows by exactly `copies` times (files, directories, rows per directory, bytes read,
 * planted divergences), so the gate's time per row over such trees shows whether its cost is
 * linear in rows, with nothing else changing.
 */
export function replicateShape(unit, work, copies) {
  rmSync(work, { recursive: true, force: true });
  const root = join(work, "tree");
  mkdirSync(root, { recursive: true });
  const [set] = unit.sets;
  const rows = readFileSync(set.plan, "utf8")
    .split("\n")
    .filter((line) => line !== "" && !line.startsWith("#"));
  const reads = readFileSync(set.list, "utf8").split("\u0000").filter(Boolean);
  const plan = [`# ${copies} copies of ${set.n} rows`];
  const list = [];
  for (let c = 0; c < copies; c += 1) {
    const copy = `u${String(c).padStart(3, "0")}`;
    const copied = spawnSync("cp", ["-a", `${unit.root}/.`, join(root, copy)]);
    if (copied.status !== 0) throw new Error(`cp into ${copy} failed: ${copied.stderr}`);
    for (const row of rows) {
      const [kind, path, ...rest] = row.split("\t");
      plan.push([kind, `${copy}/${path}`, ...rest].join("\t"));
    }
    for (const p of reads) list.push(`${copy}/${p}\u0000`);
  }
  const planPath = join(work, `rows-${set.n * copies}.tsv`);
  const listPath = join(work, `reads-${set.n * copies}.list`);
  writeFileSync(planPath, `${plan.join("\n")}\n`);
  writeFileSync(listPath, list.join(""));
  return {
    root,
    files: unit.files * copies,
    sets: [{ n: set.n * copies, plan: planPath, list: listPath, diverging: set.diverging * copies, reads: set.reads * copies }],
  };
}
