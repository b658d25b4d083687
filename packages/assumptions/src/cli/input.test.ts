import { execFileSync, spawnSync } from "node:child_process";
import { closeSync, mkdirSync, openSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { tempDir } from "../../../../test-utils/tmp.js";
import { JsonFault } from "./json.js";
import { main } from "./main.js";
import { memoryIo } from "../../test/support/memory-io.js";
import { BIN, REPO } from "../../test/run-cli.js";

// Runs a built bin with a directory (opened read-only, as the shell's `< dir` does) as its standard input.
function withDirectoryOnStdin(bin: string, args: string[], dir: string) {
  const fd = openSync(dir, "r");
  try {
    return spawnSync(process.execPath, [bin, ...args], { cwd: REPO, stdio: [fd, "pipe", "pipe"], encoding: "utf8" });
  } finally {
    closeSync(fd);
  }
}

const HOLDS = "fixtures/gate/plan-holds";

async function run(argv: string[], opts: Parameters<typeof memoryIo>[0] = {}) {
  const m = memoryIo(opts);
  const code = await main(argv, m.io);
  return { code, stdout: m.stdout(), stderr: m.stderr() };
}

describe("plan-decay reads every assumptions file bounded", () => {
  test("an empty file name is refused as naming no file, never read as the working directory (after -- too)", async () => {
    for (const argv of [
      ["--root", HOLDS, ""],
      ["--root", HOLDS, "--", ""],
    ]) {
      const r = await run(argv);
      expect([r.code, r.stdout, r.stderr]).toEqual([
        2,
        "",
        'error: cannot read the assumptions file "": the name is empty, and an empty argument names no file\n',
      ]);
    }
  });

  test("a FIFO nobody writes is refused before it is opened: exit 2 naming it", async () => {
    const dir = await tempDir();
    execFileSync("mkfifo", [join(dir, "plan.tsv")]);
    const r = await run(["--root", HOLDS, join(dir, "plan.tsv")]);
    expect([r.code, r.stdout]).toEqual([2, ""]);
    expect(r.stderr).toBe(`error: cannot read the assumptions file ${join(dir, "plan.tsv")}: it is a FIFO (named pipe), not a regular file\n`);
  });

  test("a file over --max-input-bytes is an ordinary fault, and --json prints a fault object", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, "plan.tsv"), "exists\tsrc/payments.ts\n".repeat(10));
    const r = await run(["--root", HOLDS, "--json", "--max-input-bytes", "100", join(dir, "plan.tsv")]);
    expect(r.code).toBe(2);
    const fault = JsonFault.parse(JSON.parse(r.stdout));
    expect(fault.fault.code).toBe("input-unreadable");
    expect(fault.fault.message).toMatch(/larger than the limit of 100 bytes \(--max-input-bytes raises it\)$/);
    expect(r.stderr.split("\n")).toHaveLength(2);
  });

  test("standard input past the limit is refused", async () => {
    const r = await run(["--root", HOLDS, "--max-input-bytes", "10", "-"], { stdin: "exists\tsrc/payments.ts\n" });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("error: cannot read the assumptions file standard input: it is larger than the limit of 10 bytes (--max-input-bytes raises it)\n");
  });

  test("--max-input-bytes takes a whole number up to 256 MiB", async () => {
    for (const bad of ["0", "-1", "1e3", "268435457"]) {
      const r = await run(["--root", HOLDS, `--max-input-bytes=${bad}`, "-"]);
      expect([bad, r.code]).toEqual([bad, 2]);
      expect(r.stderr).toMatch(/--max-input-bytes .* is not accepted: expected a whole number of bytes from 1 to 268435456/);
    }
  });

  test("a directory on standard input (`- < dir`) is refused as a directory, never read as an empty plan", async () => {
    const dir = await tempDir();
    mkdirSync(join(dir, "plandir"));
    const r = withDirectoryOnStdin(BIN, ["--root", HOLDS, "--json", "-"], join(dir, "plandir"));
    expect([r.status, r.stderr]).toEqual([2, "error: cannot read the assumptions file standard input: it is a directory, not a file or a stream\n"]);
    expect(JsonFault.parse(JSON.parse(r.stdout)).fault.code).toBe("input-unreadable");
  });

  test("decay-evidence shares the check: `hash - < dir` is refused the same way", async () => {
    const dir = await tempDir();
    const r = withDirectoryOnStdin(join(REPO, "packages/evidence/dist/bin.js"), ["hash", "-"], dir);
    expect([r.status, r.stdout, r.stderr]).toEqual([2, "", "decay-evidence: cannot read standard input: it is a directory, not a file or a stream\n"]);
  });

  test("a plan named with a trailing `/` (or `/.`) names a directory: refused as typed, the file never read", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, "plan.tsv"), "exists\tsrc/payments.ts\n");
    for (const [typed, ending] of [
      ["plan.tsv/", "/"],
      ["plan.tsv/.", "/."],
    ]) {
      const r = await run(["--root", join(REPO, HOLDS), typed as string], { cwd: dir });
      expect([r.code, r.stdout, r.stderr]).toEqual([
        2,
        "",
        `error: cannot read the assumptions file ${typed}: its name ends with "${ending}", so it names a directory, not a regular file\n`,
      ]);
    }
    expect((await run(["--root", join(REPO, HOLDS), "plan.tsv"], { cwd: dir })).code).toBe(0);
  });
});
