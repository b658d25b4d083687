// The synthetic tree shapes of the benchmark, each about 100,000 files, generated
// deterministically. A layout only decides where files go and how they are named; `writeTree`
// writes them and returns what the rows are built from.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileBytes, normalisedDigest } from "./content.mjs";

export const FILES = 100_000;

function pad(n, width) {
  return String(n).padStart(width, "0");
}

/** flat: paths `dir/file`, 1,000 directories of 100 files. */
function flat() {
  const places = [];
  for (let i = 0; i < FILES; i += 1) places.push({ dir: `pkg-${pad(i % 1000, 4)}`, name: `f${pad(i, 6)}.ts` });
  return places;
}

const VOCAB = ["src", "lib", "core", "util", "components", "modules", "internal", "api"];

/** deep: files five to eight levels down (four to seven directories), prefixes shared widely. */
function deep(rnd, count = FILES) {
  const places = [];
  let i = 0;
  while (i < count) {
    const depth = 4 + Math.floor(rnd() * 4);
    const comps = [];
    for (let j = 0; j < depth; j += 1) comps.push(`${VOCAB[Math.floor(rnd() * VOCAB.length)]}${Math.floor(rnd() * (j < 2 ? 3 : 2))}`);
    const dir = comps.join("/");
    for (let k = 0; k < 10 && i < count; k += 1, i += 1) places.push({ dir, name: `m${pad(i, 6)}.ts` });
  }
  return places;
}

/** huge: half the files in four directories of 12,500 entries, half in 1,000 of 50. */
function huge() {
  const places = [];
  for (let i = 0; i < FILES; i += 1) {
    const dir = i < FILES / 2 ? `big${i % 4}` : `small/s${pad(i % 1000, 4)}`;
    places.push({ dir, name: `e${pad(i, 6)}.js`, big: i < FILES / 2 });
  }
  return places;
}

const UNI_DIRS = ["données", "данные", "δεδομένα", "データ", "über-größe"];
const UNI_FILES = ["résumé", "Ωμέγα", "Привет", "niño", "ファイル", "Ärger"];

/**
 * unicode: a third of the names non-ASCII (half of those stored NFD), and among the ASCII ones
 * some have a case-variant sibling (`Readme-N.md` beside `readme-N.md`).
 */
function unicode(rnd) {
  const places = [];
  for (let i = 0; i < FILES; i += 1) {
    // 96 files a directory: a multiple of 12, so both names of a case-variant pair share one.
    const d = Math.floor(i / 96);
    let dir = d % 3 === 0 ? `${UNI_DIRS[d % UNI_DIRS.length]}-${d}` : `dir-${d}`;
    if (d % 2 === 0) dir = dir.normalize("NFD");
    const kind = i % 6;
    let name;
    if (kind < 2) name = `${UNI_FILES[i % UNI_FILES.length]}-${i}.md`;
    else if (kind === 2) name = i % 12 === 2 ? `Readme-${i}.md` : `readme-${i - 6}.md`;
    else name = `file-${i}.txt`;
    if (rnd() < 0.5) name = name.normalize("NFD");
    places.push({ dir, name, uni: kind < 2 });
  }
  return places;
}

/** chain: one path 300 directories deep, a three-hundredth of the files at each level. */
function chain() {
  const places = [];
  const levels = 300;
  let dir = "";
  for (let level = 0; level < levels; level += 1) {
    dir = level === 0 ? "c000" : `${dir}/c${pad(level, 3)}`;
    const count = Math.floor(FILES / levels) + (level < FILES % levels ? 1 : 0);
    for (let k = 0; k < count; k += 1) places.push({ dir, name: `f${pad(places.length, 6)}.ts` });
  }
  return places;
}

/** one-dir: every file in one directory. */
function oneDir() {
  return Array.from({ length: FILES }, (_, i) => ({ dir: "all", name: `n${pad(i, 6)}.js` }));
}

/** links: 1,000 directories of 100 files under `real/`; shapes.mjs links each from the top. */
function links() {
  return Array.from({ length: FILES }, (_, i) => ({ dir: `real/d${pad(i % 1000, 4)}`, name: `g${pad(i, 6)}.ts` }));
}

/** scripts: 1,000 directories of 100 message files, each of prose in Cyrillic, Greek, Japanese and accented Latin. */
function scripts() {
  return Array.from({ length: FILES }, (_, i) => ({ dir: `locale-${pad(i % 1000, 4)}`, name: `messages-${pad(i, 6)}.txt`, prose: true }));
}

/** The layouts by shape name (absent-heavy uses the deep layout with other rows). */
export const LAYOUTS = { flat, deep, huge, "absent-heavy": deep, unicode, chain, "one-dir": oneDir, links, scripts };

/**
 * Writes a layout's files under `root`; returns every file (on-disk and NFC plan paths, its
 * digest and literals) and every directory (both spellings).
 */
export function writeTree(root, places, rnd) {
  const dirs = new Map();
  const files = [];
  for (let i = 0; i < places.length; i += 1) {
    const { dir, name, uni = false, big = false, prose = false } = places[i];
    if (!dirs.has(dir)) {
      mkdirSync(join(root, dir), { recursive: true });
      const parts = dir.split("/");
      for (let k = 1; k <= parts.length; k += 1) {
        const sub = parts.slice(0, k).join("/");
        if (!dirs.has(sub)) dirs.set(sub, { disk: sub, plan: sub.normalize("NFC") });
      }
    }
    const disk = `${dir}/${name}`;
    const { bytes, large } = fileBytes(i, rnd, uni, prose);
    writeFileSync(join(root, disk), bytes);
    files.push({ i, disk, plan: disk.normalize("NFC"), uni, prose, big, large, digest: normalisedDigest(bytes) });
  }
  return { files, dirs: [...dirs.values()] };
}
