// A run asks git for the files of each commit once: pinning, the execute check and the fix checks
// share the listing of a commit; and it reads and hashes the surface once a stage, to pin it at the
// stage's base. The Git port is the system git adapter, its listFiles and tree counted.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { systemGit } from "../src/entries/node.js";
import { type Git, scriptTable } from "../src/index.js";
import { contractOf, git, makeRepo, nodeOptions, planOf, run } from "./harness.js";

/** The system git adapter for `repo`, the commit of each `listFiles` call kept in `asked`, of each `tree` call in `read`. */
function counted(repo: string): { git: Git; asked: string[]; read: string[] } {
  const real = systemGit({ dir: repo });
  const asked: string[] = [];
  const read: string[] = [];
  const listFiles: Git["listFiles"] = (commit) => (asked.push(commit), real.listFiles(commit));
  const tree: Git["tree"] = (commit) => (read.push(commit), real.tree(commit));
  return { git: { ...real, listFiles, tree }, asked, read };
}

const STAGES: Array<[string, string[]]> = [
  ["a", ["`sh test/check.sh` exits 0"]],
  ["b", ["`sh bin/show.sh b` exits 0 and prints `beta`"]],
];
const A_TYPO = { edit: { "src/a.txt": "alpah\n" } };
const A_RIGHT = { edit: { "src/a.txt": "alpha\n" } };

describe("a run reads each commit's files once", () => {
  it("a stage with a fix and a stage after it: each commit listed once, each stage's surface read once, the same verdicts", async () => {
    const repo = await makeRepo({ "README.md": "r\n", "test/check.sh": "grep -q alpha src/a.txt\n" });
    const contract = await contractOf(repo, planOf(STAGES));
    const { git: port, asked, read } = counted(repo);
    // S1's execute is red, its fix green; S2's execute green.
    const script = scriptTable({ "S1 execute": A_TYPO, "S1 fix": A_RIGHT, "S2 execute": { edit: { "src/b.txt": "beta\n" } } });
    const report = await run(contract, { ...nodeOptions(repo, script), git: port });
    expect(report.status).toBe("green");
    expect(report.stages.map((s) => [s.id, s.state, s.attempts])).toEqual([
      ["S1", "green", 2],
      ["S2", "green", 1],
    ]);
    // The start (checked before anything is spent), S1's base, its execute, its fix (S2's base)
    // and S2's execute: each listed once.
    const [first, start, ...rest] = git(repo, "rev-list", "--reverse", "HEAD").split("\n");
    expect(asked.toSorted()).toEqual([start, ...rest].toSorted());
    expect(asked).not.toContain(first);
    // The surface is read (and hashed) at the start and at each stage's base only: S1's base
    // (the .gitignore commit) and S1's fix.
    const [s1Base, , s1Fix] = rest;
    expect(read).toEqual([start, s1Base, s1Fix]);
    // One record a stage, the surface pinned at its base; the frozen red attempt beside them.
    const freeze = join(repo, ".plan-runs/demo/freeze");
    expect(readdirSync(freeze).sort()).toEqual(["S1-a1", "S1-surface.tsv", "S2-surface.tsv"]);
    const pinned = (name: string) => readFileSync(join(freeze, name), "utf8");
    for (const name of ["S1-surface.tsv", "S2-surface.tsv"]) {
      expect(pinned(name)).toMatch(/^unchanged\tbin\/show\.sh\t/m);
      expect(pinned(name)).toMatch(/^unchanged\tdocs\/demo\.plan\.md\t/m);
      expect(pinned(name)).toMatch(/^unchanged\ttest\/check\.sh\t/m);
    }
  });
});

describe("a run whose start is its first stage's base", () => {
  it("reads the surface there once: the start's check and the pin share it", async () => {
    const repo = await makeRepo({ "README.md": "r\n", ".gitignore": ".plan-runs/\n", "test/check.sh": "grep -q alpha src/a.txt\n" });
    const contract = await contractOf(repo, planOf(STAGES.slice(0, 1)));
    const start = git(repo, "rev-parse", "HEAD");
    const { git: port, read } = counted(repo);
    const report = await run(contract, { ...nodeOptions(repo, scriptTable({ "S1 execute": A_RIGHT })), git: port });
    expect(report.status).toBe("green");
    expect(read).toEqual([start]);
  });
});
