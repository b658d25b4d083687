import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { BIN, REPO } from "./run-cli.js";

// Loads the built bin inside a small host program and prints, as JSON, every thread's nice value
// (field 19 of /proc/self/task/N/stat) before and right after the bin's top level has run.
const HOST = `
const { readdirSync, readFileSync } = require("node:fs");
const nices = () => readdirSync("/proc/self/task").map((t) => {
  try { const s = readFileSync("/proc/self/task/" + t + "/stat", "utf8"); return Number(s.slice(s.lastIndexOf(")") + 2).split(" ")[16]); }
  catch { return undefined; }
}).filter((n) => n !== undefined);
const before = nices();
process.argv.splice(2, Infinity, "--version");
require(process.env.BIN);
process.stderr.write(JSON.stringify({ before, after: nices() }) + "\\n");
`;

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourcesUnder(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

describe("the bin leaves its host process as it found it", () => {
  test.runIf(existsSync("/proc/self/task"))("no thread's scheduling priority changes when the bin loads", () => {
    const r = spawnSync(process.execPath, ["-e", HOST], { cwd: REPO, env: { ...process.env, BIN }, encoding: "utf8" });
    const line = r.stderr.trim().split("\n").pop() ?? "";
    const { before, after } = JSON.parse(line) as { before: number[]; after: number[] };
    expect(after.length).toBeGreaterThan(1);
    expect(new Set(after)).toEqual(new Set(before));
  });

  test("no source of the package sets engine flags or thread priorities", () => {
    const src = join(REPO, "packages/assumptions/src");
    for (const file of sourcesUnder(src)) {
      const text = readFileSync(file, "utf8");
      expect(text, file).not.toMatch(/setFlagsFromString|setPriority|node:v8/);
    }
  });
});
