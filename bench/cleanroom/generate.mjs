// Generates the clean-room benchmark repository (deterministic, seeded): 10,000 entries in nested
// directories, of mixed sizes, some executable, some symbolic links, in one commit with fixed dates.
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { prng } from "../gate/content.mjs";

export const ENTRIES = 10_000;
const LINKS = 100;
const EXECUTABLES = 200;
const WORDS = [
  "const",
  "value",
  "return",
  "export",
  "function",
  "import",
  "from",
  "type",
  "await",
  "async",
  "if",
  "else",
  "=>",
  "{",
  "}",
  "(",
  ")",
  ";",
  "x",
  "y",
  "index",
  "result",
  "options",
  "stage",
  "commit",
];

/** Sizes like a source tree: mostly small files, some medium, a few large (about 45 MB in all). */
function sizeOf(rnd) {
  const r = rnd();
  if (r < 0.7) return 200 + Math.floor(rnd() * 1800);
  if (r < 0.96) return 2048 + Math.floor(rnd() * 14_000);
  if (r < 0.9995) return 16_384 + Math.floor(rnd() * 49_152);
  return 1 << 20;
}

function text(rnd, size) {
  const parts = [];
  let length = 0;
  while (length < size) {
    const line = Array.from({ length: 4 + Math.floor(rnd() * 8) }, () => WORDS[Math.floor(rnd() * WORDS.length)]).join(" ");
    parts.push(line);
    length += line.length + 1;
  }
  return `${parts.join("\n")}\n`.slice(0, size);
}

/** Directory of the i-th file: one to three levels under 12 top directories. */
function dirOf(rnd) {
  const depth = 1 + Math.floor(rnd() * 3);
  const names = [`pkg${Math.floor(rnd() * 12)}`, `mod${Math.floor(rnd() * 10)}`, `part${Math.floor(rnd() * 8)}`];
  return names.slice(0, depth).join("/");
}

const GIT_ENV = {
  PATH: process.env.PATH,
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_AUTHOR_NAME: "bench",
  GIT_AUTHOR_EMAIL: "bench@decay.invalid",
  GIT_AUTHOR_DATE: "2026-01-01T00:00:00Z",
  GIT_COMMITTER_NAME: "bench",
  GIT_COMMITTER_EMAIL: "bench@decay.invalid",
  GIT_COMMITTER_DATE: "2026-01-01T00:00:00Z",
};

/** Runs git in `dir` with a bare configuration and returns its trimmed output. */
export function git(dir, ...args) {
  return execFileSync("git", ["-C", dir, ...args], { env: GIT_ENV, encoding: "utf8", maxBuffer: 64 << 20 }).trim();
}

/** A stage's worth of work on top: 50 files edited, 20 added, 10 deleted, in a second commit. */
function stageWork(dir, rnd, files) {
  for (let k = 0; k < 50; k += 1) writeFileSync(join(dir, files[Math.floor(rnd() * files.length)]), text(rnd, sizeOf(rnd)));
  for (let k = 0; k < 20; k += 1) writeFileSync(join(dir, `pkg${k % 12}/stage-${k}.ts`), text(rnd, sizeOf(rnd)));
  for (let k = 0; k < 10; k += 1) rmSync(join(dir, files[files.length - 1 - k * 7]), { force: true });
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "a stage");
}

/**
 * Writes the repository at `dir` (created) with two commits: the generated tree (`commit`) and a
 * stage's work on top of it (`next`); `packed` repacks its objects into one pack, as a cloned or
 * garbage-collected repository holds them.
 */
export function generateRepo(dir, { packed }) {
  const rnd = prng(20261201);
  mkdirSync(dir, { recursive: true });
  git(dir, "init", "-q", "-b", "main");
  // No automatic gc: with 10,000 loose objects a commit would start one in the background.
  git(dir, "config", "gc.auto", "0");
  git(dir, "config", "maintenance.auto", "false");
  const files = [];
  for (let i = 0; i < ENTRIES - LINKS; i += 1) {
    const path = `${dirOf(rnd)}/f${i}.${rnd() < 0.8 ? "ts" : "json"}`;
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text(rnd, sizeOf(rnd)));
    if (i % Math.floor((ENTRIES - LINKS) / EXECUTABLES) === 0) chmodSync(join(dir, path), 0o755);
    files.push(path);
  }
  for (let k = 0; k < LINKS; k += 1) {
    const target = files[Math.floor(rnd() * files.length)];
    const path = `links/l${k}`;
    mkdirSync(join(dir, "links"), { recursive: true });
    symlinkSync(`../${target}`, join(dir, path));
  }
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "generated");
  const commit = git(dir, "rev-parse", "HEAD");
  stageWork(dir, rnd, files);
  if (packed) git(dir, "repack", "-a", "-d", "-q");
  return { commit, next: git(dir, "rev-parse", "HEAD") };
}
