import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compileBundle } from "@decay/cli-kit/code-cache";
import { describe, expect, test } from "vitest";
import { tempDir } from "../../../test-utils/tmp.js";
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

describe("the bin starts the program from the build's code cache, and without it", () => {
  const dist = join(REPO, "packages/assumptions/dist");
  const fixture = ["--root", "fixtures/gate/plan-decayed", "fixtures/gate/batch-plan.assumptions.tsv"];

  test("the build's cache is one this Node takes for the program as built", () => {
    expect(compileBundle(join(dist, "gate.cjs"), readFileSync(join(dist, "gate.cache"))).cacheRejected).toBe(false);
  });

  test("with the cache spoilt or gone, the report and exit code are the same", async () => {
    const want = spawnSync(process.execPath, [BIN, ...fixture], { cwd: REPO, encoding: "utf8" });
    expect(want.status).toBe(1);
    for (const cache of [Buffer.from("not a cache"), undefined]) {
      const dir = await tempDir("decay-bin-");
      copyFileSync(join(dist, "bin.cjs"), join(dir, "bin.cjs"));
      copyFileSync(join(dist, "gate.cjs"), join(dir, "gate.cjs"));
      if (cache !== undefined) writeFileSync(join(dir, "gate.cache"), cache);
      const r = spawnSync(process.execPath, [join(dir, "bin.cjs"), ...fixture], { cwd: REPO, encoding: "utf8" });
      expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({ status: want.status, stdout: want.stdout, stderr: want.stderr });
    }
  });

  test("started through a link, also with --preserve-symlinks-main, the bin finds its program", async () => {
    const want = spawnSync(process.execPath, [BIN, ...fixture], { cwd: REPO, encoding: "utf8" });
    const link = join(await tempDir("decay-bin-link-"), "plan-decay");
    symlinkSync(BIN, link);
    for (const flags of [[], ["--preserve-symlinks-main"]]) {
      const r = spawnSync(process.execPath, [...flags, link, ...fixture], { cwd: REPO, encoding: "utf8" });
      expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({ status: want.status, stdout: want.stdout, stderr: want.stderr });
    }
  });

  test("without its program the bin is a fault (exit 2) that says so, never a verdict", async () => {
    const dir = await tempDir("decay-bin-");
    copyFileSync(join(dist, "bin.cjs"), join(dir, "bin.cjs"));
    const r = spawnSync(process.execPath, [join(dir, "bin.cjs"), ...fixture], { cwd: REPO, encoding: "utf8" });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^plan-decay: internal error: cannot start: .*gate\.cjs/);
  });
});
