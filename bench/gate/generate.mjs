// Generates the plan-decay benchmark workload once (deterministic), cached under .bench-work/.
// The tree: 100,000 files in 2,000 directories (four of them hold 5,000 entries each), 40 files of
// 1 MiB, ~5% CRLF, ~2% BOM, ~2% NFD text, ~1% non-ASCII names stored NFD. The rows: 10,000 over all
// five kinds, 50 of them diverging. Expected digests are computed here, independently of the gate.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const FILES = 100_000;
const DIRS = 2_000;
const BIG_DIRS = 4;
const BIG_DIR_FILES = 5_000;
const MIB_FILES = 40;
const ROWS = 10_000;
const DIVERGING_PER_KIND = 10;
const VERSION = "v1";

/** A small seeded PRNG (mulberry32), so every machine generates the same workload. */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The digest an `unchanged` row needs: BOM stripped, CRLF/CR to LF, NFC, SHA-256 of UTF-8. */
export function normalisedDigest(buffer) {
  let text = buffer.toString("utf8");
  if (text.startsWith("\uFEFF")) text = text.slice(1);
  text = text.replace(/\r\n?/g, "\n").normalize("NFC");
  return createHash("sha256").update(text, "utf8").digest("hex");
}

function body(i, rnd) {
  const lines = [`// module ${i}`, `export const value${i} = ${Math.floor(rnd() * 1e9)};`];
  const extra = 10 + Math.floor(rnd() * 30);
  for (let k = 0; k < extra; k += 1) lines.push(`export function helper${i}_${k}(x: number): number { return x * ${k + 1}; }`);
  return lines;
}

function styleOf(r) {
  if (r < 0.05) return "crlf";
  if (r < 0.07) return "bom";
  if (r < 0.09) return "nfd";
  return "plain";
}

function encode(lines, style) {
  if (style === "nfd") lines.push(`export const menu = "${"café crème brûlée".normalize("NFD")}";`);
  const text = lines.join(style === "crlf" ? "\r\n" : "\n") + (style === "crlf" ? "\r\n" : "\n");
  return Buffer.from(style === "bom" ? `\uFEFF${text}` : text, "utf8");
}

function mibFile(i) {
  const line = `export const filler${i} = "${"x".repeat(100)}";\n`;
  const buf = Buffer.from(line.repeat(Math.ceil((1 << 20) / line.length))).subarray(0, 1 << 20);
  buf[buf.length - 1] = 0x0a;
  return buf;
}

/** Directory index for file i: the first 20,000 files fill the four big directories. */
function dirOf(i) {
  if (i < BIG_DIRS * BIG_DIR_FILES) return Math.floor(i / BIG_DIR_FILES);
  return BIG_DIRS + ((i - BIG_DIRS * BIG_DIR_FILES) % (DIRS - BIG_DIRS));
}

function nameOf(i, rnd) {
  const base = `m${String(i).padStart(6, "0")}`;
  return rnd() < 0.01 ? `${base}-résumé-ñ.ts`.normalize("NFD") : `${base}.ts`;
}

function writeTree(root, rnd) {
  for (let d = 0; d < DIRS; d += 1) mkdirSync(join(root, `d${String(d).padStart(4, "0")}`), { recursive: true });
  const files = [];
  for (let i = 0; i < FILES; i += 1) {
    const dir = `d${String(dirOf(i)).padStart(4, "0")}`;
    const name = nameOf(i, rnd);
    const big = i % Math.floor(FILES / MIB_FILES) === 7;
    const bytes = big ? mibFile(i) : encode(body(i, rnd), styleOf(rnd()));
    writeFileSync(join(root, dir, name), bytes);
    const raw = createHash("sha256").update(bytes).digest("hex");
    files.push({ i, dir, name, big, raw, digest: normalisedDigest(bytes) });
  }
  return files;
}

function shuffle(items, rnd) {
  for (let k = items.length - 1; k > 0; k -= 1) {
    const j = Math.floor(rnd() * (k + 1));
    [items[k], items[j]] = [items[j], items[k]];
  }
  return items;
}

function rowFor(kind, f, diverge) {
  const path = `${f.dir}/${f.name.normalize("NFC")}`;
  const missing = `${f.dir}/absent-${f.i}.ts`;
  switch (kind) {
    case "exists":
      return diverge ? `exists\t${missing}` : `exists\t${path}`;
    case "absent":
      return diverge ? `absent\t${path}` : `absent\t${missing}`;
    case "contains":
      return `contains\t${path}\t${diverge ? `export const nowhere${f.i} =` : `export const value${f.i} =`}`;
    case "lacks":
      return `lacks\t${path}\t${diverge ? `export const value${f.i} =` : `export const nowhere${f.i} =`}`;
    default:
      return `unchanged\t${path}\t${diverge ? "0".repeat(64) : f.digest}`;
  }
}

const MIX = [
  ["unchanged", 4_000],
  ["exists", 2_000],
  ["absent", 1_500],
  ["contains", 1_250],
  ["lacks", 1_250],
];

function makeRows(files, rnd) {
  const small = shuffle(
    files.filter((f) => !f.big),
    rnd,
  );
  const bigs = files.filter((f) => f.big);
  const rows = bigs.map((f) => ({ kind: "unchanged", file: f, diverge: false }));
  let next = 0;
  for (const [kind, count] of MIX) {
    const want = kind === "unchanged" ? count - bigs.length : count;
    for (let k = 0; k < want; k += 1) rows.push({ kind, file: small[next++], diverge: k < DIVERGING_PER_KIND });
  }
  return shuffle(rows, rnd);
}

function writeSubset(work, rows, n) {
  const subset = rows.slice(0, n);
  const tsv = subset.map((r) => rowFor(r.kind, r.file, r.diverge)).join("\n");
  writeFileSync(join(work, `rows-${n}.tsv`), `# plan-decay benchmark, ${n} rows\n${tsv}\n`);
  const sums = subset.filter((r) => r.kind === "unchanged").map((r) => `${r.file.raw}  ${r.file.dir}/${r.file.name}`);
  writeFileSync(join(work, `sums-${n}.txt`), `${sums.join("\n")}\n`);
  return { n, diverging: subset.filter((r) => r.diverge).length, unchanged: sums.length };
}

/** Builds (or reuses) the workload; returns where it lives and the row sets with their expectations. */
export function ensureWorkload(repoRoot, sizes) {
  const work = join(repoRoot, ".bench-work", `gate-${VERSION}`);
  const manifest = join(work, "manifest.json");
  const root = join(work, "tree");
  if (existsSync(manifest)) return { ...JSON.parse(readFileSync(manifest, "utf8")), work, root };
  rmSync(work, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  const rnd = prng(20261129);
  const files = writeTree(root, rnd);
  const rows = makeRows(files, rnd);
  const sets = sizes.map((n) => writeSubset(work, rows, Math.min(n, ROWS)));
  const result = { files: FILES, dirs: DIRS, sets };
  writeFileSync(manifest, JSON.stringify(result, null, 2));
  return { ...result, work, root };
}
