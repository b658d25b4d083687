// A red attempt whose diff holds a large file: each request carries at most maxDiffBytes of diff,
// cut between files, and says what it left out; the freeze on disk is bounded the same way.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type Agent, AgentRequest, scriptedAgent, scriptTable } from "../src/index.js";
import { contractOf, makeRepo, nodeOptions, planOf, run } from "./harness.js";

const BIG = `${"data line of a generated file\t".repeat(3)}\n`.repeat(40_000); // about 3.7 MB
const SCRIPT = scriptTable({
  "S1 execute": { edit: { "src/a.txt": "alpah\n", "data/big.txt": BIG } },
  "S1 fix": { edit: { "src/a.txt": "alpha\n" } },
});

/** The scripted agent, each request it is sent kept as the JSON a command agent would write. */
function recording(repo: string): { agent: Agent; sent: string[] } {
  const real = scriptedAgent({ fs, dir: repo, script: SCRIPT });
  const sent: string[] = [];
  const keep =
    <K extends keyof Agent>(k: K): Agent[K] =>
    (request: never) => {
      sent.push(JSON.stringify(request));
      return real[k](request);
    };
  return { agent: { execute: keep("execute"), diagnose: keep("diagnose"), adjudicate: keep("adjudicate"), fix: keep("fix") }, sent };
}

describe("a red attempt's diff in requests and freezes", () => {
  it("is cut to maxDiffBytes between files, the large file named as left out with the full size", async () => {
    const repo = await makeRepo({ "README.md": "r\n" });
    const contract = await contractOf(repo, planOf([["a", ["`sh bin/show.sh a` exits 0 and prints `alpha`"]]]));
    const { agent, sent } = recording(repo);
    const max = 64 * 1024;
    const report = await run(contract, { ...nodeOptions(repo, SCRIPT), agent, maxDiffBytes: max });
    expect(report.status).toBe("green");

    const carrying = sent.map((s) => ({ s, r: AgentRequest.parse(JSON.parse(s)) })).filter(({ r }) => r.role === "diagnose" || r.role === "fix");
    expect(carrying.map(({ r }) => r.role)).toEqual(["diagnose", "diagnose", "diagnose", "fix"]);
    // The whole patch from the stage's base (the .gitignore commit) to the execute's commit.
    const full = execFileSync("git", ["diff", "HEAD~2", "HEAD~1"], { cwd: repo, maxBuffer: 64 << 20 }).length;
    expect(full).toBeGreaterThan(BIG.length);
    for (const { s, r } of carrying) {
      if (r.role !== "diagnose" && r.role !== "fix") continue;
      // The request as written: the bound plus the rest of the request, nowhere near the file.
      expect(s.length).toBeLessThan(max + 16 * 1024);
      expect(Buffer.byteLength(r.freeze.diff)).toBeLessThanOrEqual(max);
      expect(r.freeze.diff).toContain("diff --git a/src/a.txt b/src/a.txt");
      expect(r.freeze.diff).not.toContain("data line");
      expect(r.freeze.diff_truncated).toEqual({
        max_bytes: max,
        full_bytes: full,
        kept_bytes: Buffer.byteLength(r.freeze.diff),
        files_left_out: [{ path: "data/big.txt", bytes: expect.any(Number) }],
        files_not_listed: 0,
      });
      expect(r.freeze.diff_truncated?.files_left_out[0]?.bytes).toBeGreaterThan(BIG.length);
    }
    // The freeze on disk holds the same bounded diff, and says what was left out.
    const dir = join(repo, ".plan-runs/demo/freeze/S1-a1");
    expect(fs.statSync(join(dir, "diff.patch")).size).toBeLessThanOrEqual(max);
    expect(fs.statSync(join(dir, "freeze.json")).size).toBeLessThan(max + 16 * 1024);
    expect(JSON.parse(fs.readFileSync(join(dir, "freeze.json"), "utf8")).diff_truncated.files_left_out[0].path).toBe("data/big.txt");
  }, 120_000);

  it("a diff within the bound is carried whole, with diff_truncated null", async () => {
    const repo = await makeRepo({ "README.md": "r\n" });
    const contract = await contractOf(repo, planOf([["a", ["`sh bin/show.sh a` exits 0 and prints `alpha`"]]]));
    const { agent, sent } = recording(repo);
    const report = await run(contract, { ...nodeOptions(repo, SCRIPT), agent, maxDiffBytes: 16 << 20 });
    expect(report.status).toBe("green");
    const fix = sent.map((s) => AgentRequest.parse(JSON.parse(s))).find((r) => r.role === "fix");
    expect(fix?.role === "fix" && fix.freeze.diff_truncated).toBeNull();
    expect(fix?.role === "fix" && fix.freeze.diff).toContain("+data line");
  }, 120_000);
});
