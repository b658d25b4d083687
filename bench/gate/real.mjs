// The "real" shape: copies of the workspace's own node_modules/.pnpm (about 10,000 files each,
// links and all), enough of them for about 100,000 files. Rows are sampled from its files;
// `contains` literals are identifiers taken from the files themselves.
import { execFileSync } from "node:child_process";
import { isUtf8 } from "node:buffer";
import { lstatSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { normalisedDigest, normalisedText } from "./content.mjs";

// Paths a plan may spell as they are: printable ASCII, no space or backslash, no `.`/`..`.
const PLAIN = /^[!-[\]-~]+$/;

function plain(path) {
  return PLAIN.test(path) && !path.split("/").some((c) => c === "." || c === "..");
}

function walk(root, dir, out) {
  for (const e of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = dir === "" ? e.name : `${dir}/${e.name}`;
    if (!plain(path)) continue;
    if (e.isDirectory()) {
      out.dirs.push({ disk: path, plan: path });
      walk(root, path, out);
    } else if (e.isFile()) out.files.push({ disk: path, plan: path, big: false });
    else if (e.isSymbolicLink()) {
      let inside = false;
      try {
        inside = realpathSync(join(root, path)).startsWith(`${realpathSync(root)}/`);
      } catch {}
      if (inside) out.links.push(path);
    }
  }
}

/**
 * Copies `source` `copies` times under `root` (hard links to its files where the filesystem allows,
 * else real copies: the gate and the floor read the same bytes either way) and lists what the rows
 * are sampled from.
 */
export function writeReal(root, source, copies) {
  for (let k = 0; k < copies; k += 1) {
    const to = join(root, `c${k}`);
    try {
      execFileSync("cp", ["-al", source, to], { stdio: "ignore" });
    } catch {
      execFileSync("rm", ["-rf", to]);
      execFileSync("cp", ["-a", source, to]);
    }
  }
  const out = { files: [], dirs: [], links: [] };
  walk(root, "", out);
  return out;
}

/** Facts about a real file (`undefined` when no content row may name it), computed once each. */
export function realFacts(root) {
  const cache = new Map();
  const facts = (f) => {
    if (cache.has(f.disk)) return cache.get(f.disk);
    const bytes = readFileSync(join(root, f.disk));
    let answer;
    if (isUtf8(bytes) && lstatSync(join(root, f.disk)).isFile()) {
      const text = normalisedText(bytes);
      const marker = text.slice(Math.floor(text.length / 2)).match(/[A-Za-z_][A-Za-z0-9_]{5,24}/)?.[0];
      const missing = `nowhere_${f.disk.length}_qzx`;
      if (marker !== undefined && !text.includes(missing)) answer = { digest: normalisedDigest(bytes), marker, missing };
    }
    cache.set(f.disk, answer);
    return answer;
  };
  return { facts, readable: (f) => facts(f) !== undefined };
}
