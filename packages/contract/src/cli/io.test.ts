import { execFileSync } from "node:child_process";
import { lstatSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { tempDir } from "../../../../test-utils/tmp.js";
import type { CliIo } from "./io.js";
import { main } from "./main.js";

const root = fileURLToPath(new URL("../../../../", import.meta.url));
const refunds = join(root, "fixtures/plans/refunds-report.plan.md");

async function run(argv: string[], cwd: string, stdin?: string) {
  const out = { stdout: "", stderr: "" };
  const io: CliIo = {
    stdout: async (t) => void (out.stdout += t),
    stderr: async (t) => void (out.stderr += t),
    cwd,
    env: {},
    ...(stdin === undefined
      ? {}
      : {
          stdin: (async function* () {
            yield stdin;
          })(),
        }),
  };
  return { code: await main(argv, io), ...out };
}

describe("decay-contract input and output", () => {
  test("-o - writes the contract to standard output and no file named -", async () => {
    const dir = await tempDir();
    const r = await run(["compile", refunds, "-o", "-"], dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^---\nformat: decay-contract\/2\n/);
    expect(readdirSync(dir)).toEqual([]);
  });

  test("-o over a FIFO is refused, naming it; the FIFO is left as it was", async () => {
    const dir = await tempDir();
    execFileSync("mkfifo", [join(dir, "out")]);
    const r = await run(["compile", refunds, "-o", "out"], dir);
    expect([r.code, r.stdout]).toEqual([2, ""]);
    expect(r.stderr).toBe("decay-contract: out: cannot write: it is a FIFO (named pipe); only a regular file is replaced\n");
    expect(lstatSync(join(dir, "out")).isFIFO()).toBe(true);
  });

  test("a plan that is a FIFO is refused before it is opened", async () => {
    const dir = await tempDir();
    execFileSync("mkfifo", [join(dir, "plan.md")]);
    const r = await run(["compile", "plan.md"], dir);
    expect(r).toEqual({ code: 2, stdout: "", stderr: "decay-contract: plan.md: cannot read: it is a FIFO (named pipe), not a regular file\n" });
  });

  test("- reads the plan from standard input, bounded by --max-input-bytes", async () => {
    const dir = await tempDir();
    const plan = readFileSync(refunds, "utf8");
    expect((await run(["compile", "-"], dir, plan)).code).toBe(0);
    const r = await run(["compile", "-", "--max-input-bytes", "100"], dir, plan);
    expect(r).toEqual({
      code: 2,
      stdout: "",
      stderr: "decay-contract: standard input: cannot read: it is larger than the limit of 100 bytes (--max-input-bytes raises it)\n",
    });
  });

  test("a contract truncated at a stage boundary is a fault for check --plan, never exit 0", async () => {
    const dir = await tempDir();
    const compiled = await run(["compile", refunds], dir);
    const text = compiled.stdout;
    const cut = text.slice(0, text.lastIndexOf("\n## S"));
    writeFileSync(join(dir, "c.md"), `${cut}\n`);
    const r = await run(["check", "c.md", "--plan", refunds], dir);
    expect([r.code, r.stdout]).toEqual([2, ""]);
    expect(r.stderr).toMatch(/^decay-contract: c\.md: line 7: the contract does not match its own stage count \(recorded \d+, found \d+\)/);
  });
});
