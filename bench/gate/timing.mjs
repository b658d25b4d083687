// Timing one command, shared by run.mjs (the benchmark) and ab.mjs (alternating A/B runs).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

// CPU time (user + system) is measured too, through GNU time when present: on a shared machine
// it is steadier than wall-clock time, which also counts waiting for a core.
const TIME = existsSync("/usr/bin/time") ? "/usr/bin/time" : undefined;
const CPU_MARK = "@@cpu ";

/**
 * The one environment every timed command runs with: PATH and the locale, nothing else. The
 * machine's own settings for other tools stay out of the measurement; here that matters for
 * NODE_EXTRA_CA_CERTS (set for npm), which makes every Node 20 process parse a CA bundle before
 * running a line of its script.
 */
export const MINIMAL_ENV = Object.fromEntries(["PATH", "LANG", "LC_ALL"].filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]]));

/** Runs one command to its end: wall-clock ms, CPU ms and peak RSS in MiB (NaN without GNU time), status, output. */
export function timed(cmd, args, cwd, env = MINIMAL_ENV) {
  const [file, argv] = TIME ? [TIME, ["-f", `${CPU_MARK}%U %S %M`, cmd, ...args]] : [cmd, args];
  const t0 = process.hrtime.bigint();
  const r = spawnSync(file, argv, { cwd, env, maxBuffer: 256 << 20, encoding: "utf8" });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.error) throw r.error;
  const mark = r.stderr.lastIndexOf(CPU_MARK);
  const [user, sys, rssKb] =
    mark === -1
      ? [NaN, NaN, NaN]
      : r.stderr
          .slice(mark + CPU_MARK.length)
          .trim()
          .split(" ")
          .map(Number);
  const cpu = (user + sys) * 1000;
  const stderr = mark === -1 ? r.stderr : r.stderr.slice(0, mark);
  return { ms, cpu, rssMb: rssKb / 1024, status: r.status, stdout: r.stdout, stderr };
}

/** The median of a list of numbers (the upper middle one for an even count). */
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/**
 * The two halves of a fair floor over a tree: `sha256sum` over the files named (NUL-separated) in
 * `list`, relative to `root`, each read once; and `find -type f` over the whole tree.
 */
export function floorCommands(root, list) {
  return {
    sha: () => timed("xargs", ["-0", "-a", list, "sha256sum"], root),
    find: () => timed("find", [".", "-type", "f"], root),
  };
}
