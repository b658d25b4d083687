// decay-contract (the built bin) against the shared hostile inputs: every one a fault (exit 2),
// one line naming the input, no stack trace, memory bounded, the temp dir as it was.
import * as fs from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import {
  BINS,
  ENDLESS,
  INVALID_UTF8,
  MEMORY_TEST_LIMIT,
  REPO,
  expectFault,
  expectUnderTwiceTheLimit,
  fifo,
  runBin,
  snapshot,
} from "../../../../test-utils/hostile.js";
import { tempDir } from "../../../../test-utils/tmp.js";

const PLAN = fs.readFileSync(join(REPO, "fixtures/plans/refunds-report.plan.md"), "utf8");
const contract = (args: string[], cwd: string, stdin?: Parameters<typeof runBin>[2]["stdin"]) =>
  runBin(BINS.contract, args, stdin === undefined ? { cwd } : { cwd, stdin });

async function scene(extra: (dir: string) => void = () => undefined) {
  const dir = await tempDir("decay-hostile-contract-");
  fs.writeFileSync(join(dir, "plan.md"), PLAN);
  extra(dir);
  return { dir, before: snapshot(dir) };
}

describe("decay-contract: inputs", () => {
  test("a plan that is a FIFO nobody writes: refused before opening", async () => {
    const { dir, before } = await scene((d) => void fifo(join(d, "pipe.md")));
    expectFault(await contract(["compile", "pipe.md"], dir), "pipe.md", /FIFO/);
    expectFault(await contract(["check", "pipe.md"], dir), "pipe.md", /FIFO/);
    expect(snapshot(dir)).toEqual(before);
  });

  test("check --plan naming a FIFO nobody writes: refused before opening", async () => {
    const { dir } = await scene((d) => void fifo(join(d, "pipe.md")));
    expect((await contract(["compile", "plan.md", "-o", "c.md"], dir)).status).toBe(0);
    const before = snapshot(dir);
    expectFault(await contract(["check", "c.md", "--plan", "pipe.md"], dir), "pipe.md", /FIFO/);
    expect(snapshot(dir)).toEqual(before);
  });

  test("standard input longer than the limit: refused, memory bounded", async () => {
    const { dir, before } = await scene();
    expectFault(await contract(["compile", "-", "--max-input-bytes", "4194304"], dir, ENDLESS), "standard input", /larger than the limit/);
    expect(snapshot(dir)).toEqual(before);
  });

  test("300 MiB on standard input past a 64 MiB limit: peak memory over the baseline stays under twice the limit", async () => {
    const { dir, before } = await scene();
    for (const command of ["compile", "check"]) {
      await expectUnderTwiceTheLimit(BINS.contract, [command, "-", "--max-input-bytes", String(MEMORY_TEST_LIMIT)], { cwd: dir });
    }
    expect(snapshot(dir)).toEqual(before);
  });

  test("/dev/zero (where it exists): refused, never read", async () => {
    if (!fs.existsSync("/dev/zero")) return;
    const { dir } = await scene();
    expectFault(await contract(["compile", "/dev/zero"], dir), "/dev/zero", /character device/);
  });

  test("invalid UTF-8 in a plan: the line and the byte offset", async () => {
    const { dir } = await scene((d) => fs.writeFileSync(join(d, "bad.md"), INVALID_UTF8));
    expectFault(
      await contract(["compile", "bad.md"], dir),
      "bad.md",
      /line 2: the file is not valid UTF-8: byte 0xC0 at byte offset 20 \(byte 11 of the line\)/,
    );
  });

  test("CR-only line endings: named, not read as one long line", async () => {
    const { dir } = await scene((d) => fs.writeFileSync(join(d, "cr.md"), PLAN.replace(/\n/g, "\r")));
    expectFault(await contract(["compile", "cr.md"], dir), "cr.md", /line 1: the line ends in CR alone; convert line endings to LF or CRLF/);
  });

  test("40,000 backticks in a row: compiled or refused with a message, never a RegExp error", async () => {
    const ticks = PLAN.replace("Acceptance: `pnpm vitest run test/ledger.test.ts`", `Acceptance: ${"`".repeat(40_000)}`);
    const { dir } = await scene((d) => fs.writeFileSync(join(d, "ticks.md"), ticks));
    const run = await contract(["compile", "ticks.md"], dir);
    expectFault(run, "ticks.md", /acceptance line not understood: "Acceptance: `{68}"… \(40050 characters\)/);
    expect(run.stderr).not.toMatch(/Regular expression/);
    expect(run.stderr.length).toBeLessThan(400);
  });

  test("a contract truncated at a stage boundary: check --plan is a fault, never exit 0", async () => {
    const { dir } = await scene();
    const compiled = await contract(["compile", "plan.md"], dir);
    expect(compiled.status).toBe(0);
    fs.writeFileSync(join(dir, "c.md"), `${compiled.stdout.slice(0, compiled.stdout.lastIndexOf("\n## S"))}\n`);
    expectFault(await contract(["check", "c.md", "--plan", "plan.md"], dir), "c.md", /does not match its own stage count/);
  });
});

describe("decay-contract compile -o", () => {
  test.each([
    ["a FIFO", (d: string) => void fifo(join(d, "out.md"))],
    ["a symbolic link", (d: string) => fs.symlinkSync("plan.md", join(d, "out.md"))],
    ["a directory", (d: string) => fs.mkdirSync(join(d, "out.md"))],
  ])("over %s: a fault naming it, the target untouched", async (what, make) => {
    const { dir, before } = await scene(make);
    expectFault(await contract(["compile", "plan.md", "-o", "out.md"], dir), "out.md", new RegExp(`it is ${what.replace("(", "\\(")}`));
    expect(snapshot(dir)).toEqual(before);
  });

  test("-o - is standard output; -o FILE replaces a file atomically", async () => {
    const { dir } = await scene((d) => fs.writeFileSync(join(d, "out.md"), "old\n"));
    const stdout = await contract(["compile", "plan.md", "-o", "-"], dir);
    expect([stdout.status, stdout.stdout.startsWith("---\nformat: decay-contract/2\n"), fs.existsSync(join(dir, "-"))]).toEqual([0, true, false]);
    expect((await contract(["compile", "plan.md", "-o", "out.md"], dir)).status).toBe(0);
    expect(fs.readFileSync(join(dir, "out.md"), "utf8")).toBe(stdout.stdout);
    expect(fs.readdirSync(dir).sort()).toEqual(["out.md", "plan.md"]);
  });
});
