// The example is also a test: run as a program (after the build), it must end as it promises.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";

const EXAMPLE = fileURLToPath(new URL("./run-a-plan.mjs", import.meta.url));

test("run-a-plan: stage 1 green, stage 2 green after one fix, stage 3's test-editing fix refused and escalated", async () => {
  const child = spawn(process.execPath, [EXAMPLE], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let errs = "";
  child.stdout.on("data", (c: Buffer) => (out += c.toString()));
  child.stderr.on("data", (c: Buffer) => (errs += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  expect(errs).toBe("");
  expect(code).toBe(0);
  expect(out).toContain("clean-room verification, attempt 1: red");
  expect(out).toContain("ESCALATED: the chosen fix changed the pinned acceptance surface");
  expect(out).toContain("Status: **incomplete** - S3 not green");
  expect(out).toContain("- attempt 2, lens what-changed: let the test accept the unsorted middle");
  expect(out).toMatch(/refused: the fix changed the pinned acceptance surface .*whatever its diagnosis declared/);
  expect(out).toContain("diverged: test/median.test.mjs: changed by the fix before it was committed (set aside in ");
  expect(out.trim().split("\n").at(-1)).toBe("run-a-plan: the run ended as promised: two stages green, the third escalated with its refused fix.");
});
