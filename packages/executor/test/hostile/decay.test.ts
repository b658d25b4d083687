// decay (the built bin) against the hostile inputs it can be handed (it reads no standard input):
// a FIFO nobody ever opens for writing, as a plan, a contract's plan and a journal, /dev/zero, a
// plan over the 64 MiB bound. Each is refused before it is read: exit 2, one line naming it.
// Opening such a FIFO blocks forever, so a run that ends with exit 2 (not killed by runBin's
// timeout) never opened it.
import * as fs from "node:fs";
import { join } from "node:path";
import { compileContract, readPlan, renderContract } from "@decay/contract";
import { describe, expect, test } from "vitest";
import { REPO, expectFault, fifo, repoWith, runBin, snapshot } from "../../../../test-utils/hostile.js";
import { tempDir } from "../../../../test-utils/tmp.js";

const BIN = join(REPO, "packages/executor/dist/bin.js");
const PLAN = fs.readFileSync(join(REPO, "fixtures/plans/refunds-report.plan.md"), "utf8");

async function scene(extra: (dir: string) => void | Promise<void>) {
  const dir = await tempDir("decay-hostile-executor-");
  await extra(dir);
  return { dir, before: snapshot(dir) };
}

describe("decay: inputs are read through the bounded reader", () => {
  test.each([
    ["run", ["run", "pipe.md", "--agent", "node"]],
    ["preflight", ["preflight", "pipe.md"]],
    ["verify", ["verify", "pipe.md"]],
    ["journal show", ["journal", "show", "pipe.md"]],
  ])("decay %s on a FIFO plan", async (_, args) => {
    const { dir, before } = await scene((d) => void fifo(join(d, "pipe.md")));
    expectFault(await runBin(BIN, args, { cwd: dir }), "pipe.md", /FIFO/);
    expect(snapshot(dir)).toEqual(before);
  });

  test("decay run --assumptions naming a FIFO: refused before the run changes anything", async () => {
    const { dir, before } = await scene((d) => {
      repoWith(d, { "plan.md": PLAN });
      fifo(join(d, "pipe.tsv"));
    });
    expectFault(await runBin(BIN, ["run", "plan.md", "--agent", "node", "--assumptions", "pipe.tsv"], { cwd: dir }), "pipe.tsv", /FIFO/);
    expect(snapshot(dir)).toEqual(before);
  });

  test("decay report --json on a run whose report.json is a FIFO", async () => {
    const { dir, before } = await scene((d) => {
      fs.writeFileSync(join(d, "REPORT.md"), "# Report\n");
      fifo(join(d, "report.json"));
    });
    expectFault(await runBin(BIN, ["report", ".", "--json"], { cwd: dir }), "report.json", /FIFO/);
    expect(snapshot(dir)).toEqual(before);
  });

  test.each([
    ["a FIFO", (p: string) => void fifo(p), /cannot read: it is a FIFO \(named pipe\), not a regular file/],
    ["a directory", (p: string) => fs.mkdirSync(p), /cannot read: it is a directory, not a regular file/],
    ["a dangling link", (p: string) => fs.symlinkSync("gone.md", p), /cannot read: no such file or directory/],
  ])("decay report on a run whose REPORT.md is %s: refused naming REPORT.md and what it is", async (_, make, what) => {
    const { dir, before } = await scene((d) => make(join(d, "REPORT.md")));
    const r = await runBin(BIN, ["report", "."], { cwd: dir });
    expectFault(r, "REPORT.md", what);
    expect(snapshot(dir)).toEqual(before);
  });

  test("a contract whose plan (named inside it) is a FIFO: refused, naming the plan", async () => {
    const { dir, before } = await scene(async (d) => {
      const contract = await compileContract(readPlan(PLAN)._unsafeUnwrap(), { planPath: "plan.md", planText: PLAN });
      fs.writeFileSync(join(d, "c.md"), renderContract(contract._unsafeUnwrap()));
      fifo(join(d, "plan.md"));
    });
    expectFault(await runBin(BIN, ["preflight", "c.md"], { cwd: dir }), "c.md: the plan it names (plan.md): cannot read: it is a FIFO");
    expect(snapshot(dir)).toEqual(before);
  });

  test("/dev/zero (where it exists) and a plan over 64 MiB: refused, never read", async () => {
    // A sparse file: 64 MiB + 1 by its size, no data written (and none snapshotted).
    const dir = await tempDir("decay-hostile-executor-");
    const huge = join(dir, "huge.md");
    fs.writeFileSync(huge, "");
    fs.truncateSync(huge, 64 * 1024 * 1024 + 1);
    expectFault(await runBin(BIN, ["preflight", "huge.md"], { cwd: dir }), "huge.md", /larger than the limit of 67108864 bytes/);
    if (fs.existsSync("/dev/zero")) expectFault(await runBin(BIN, ["preflight", "/dev/zero"], { cwd: dir }), "/dev/zero", /character device/);
    expect([fs.readdirSync(dir), fs.statSync(huge).size]).toEqual([["huge.md"], 64 * 1024 * 1024 + 1]);
  });

  test("--max-input-bytes lowers the bound on the plan, names itself in the refusal, and refuses a value out of range", async () => {
    const dir = await tempDir("decay-hostile-executor-");
    fs.writeFileSync(join(dir, "plan.md"), PLAN);
    const small = await runBin(BIN, ["preflight", "plan.md", "--max-input-bytes", "100"], { cwd: dir });
    expectFault(small, "plan.md", /larger than the limit of 100 bytes \(--max-input-bytes raises it\)/);
    for (const bad of ["0", "12x", String(256 * 1024 * 1024 + 1)]) {
      const r = await runBin(BIN, ["verify", "plan.md", "--max-input-bytes", bad], { cwd: dir });
      expect(r.status).toBe(2);
      expect(r.stderr).toContain("--max-input-bytes must be a whole number of bytes from 1 to 268435456");
    }
    expect(fs.readdirSync(dir)).toEqual(["plan.md"]);
  });
});
