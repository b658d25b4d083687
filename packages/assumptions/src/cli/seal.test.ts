import fc from "fast-check";
import { expect, test } from "vitest";
import { main } from "./main.js";
import { memoryIo, type StdoutMode } from "../../test/support/memory-io.js";

// Properties of the seal over arbitrary command lines: main never rejects, only the four exit
// codes exist, a verdict is printed only with its exit code, and a broken stdout is always 2.

const G = "fixtures/gate";
const token = fc.oneof(
  fc.constantFrom("--root", `${G}/plan-holds`, `${G}/plan-decayed`, `${G}/nope`, "", "-"),
  fc.constantFrom(`${G}/batch-plan.assumptions.tsv`, `${G}/malformed/dotdot.tsv`, `${G}/create-only.assumptions.tsv`),
  fc.constantFrom("--json", "--format", "github", "--digest", "src/ledger.ts", "--help", "--version", "author", "--creates", "x.ts"),
  fc.string({ maxLength: 6 }),
);
const argvs = fc.array(token, { maxLength: 6 });

async function run(argv: string[], stdout: StdoutMode) {
  const m = memoryIo({ stdout, stdin: "exists\tsrc/payments.ts\n" });
  const code = await main(argv, m.io);
  return { code, out: m.stdout(), err: m.stderr() };
}

test("any argv: exit is 0, 1, 2 or 3, and a verdict line appears only with its exit code", async () => {
  await fc.assert(
    fc.asyncProperty(argvs, async (argv) => {
      const { code, out, err } = await run(argv, "ok");
      expect([0, 1, 2, 3]).toContain(code);
      if (/^PLAN HOLDS: /m.test(out)) expect(code).toBe(0);
      if (/^HALT: /m.test(out) || /"verdict": "diverged"/.test(out)) expect(code).toBe(1);
      if (code === 2) expect(err).toMatch(/^error: /);
      if (code === 3) expect(out).toMatch(/^DIGEST \S+ [0-9a-f]{64}\n$/);
    }),
    { numRuns: 60 },
  );
});

test("any argv with a stdout that cannot be written: never 0, 1 or 3", async () => {
  await fc.assert(
    fc.asyncProperty(argvs, fc.constantFrom<StdoutMode>("throws", "rejects"), async (argv, mode) => {
      const { code } = await run(argv, mode);
      // author -o writes a file, not stdout, and may succeed; every other success needs stdout.
      if (!argv.includes("-o") && !argv.includes("--output")) expect(code).toBe(2);
    }),
    { numRuns: 60 },
  );
});
