import { spawnSync } from "node:child_process";
import { expect, test } from "vitest";
import { REPO } from "./run-cli.js";

// `pnpm demo` (the README's first command) after its build: scripts/demo.mjs over the built CLI.
test("the demo shows PLAN HOLDS on the tree the plan was written against, then HALT on the moved one", () => {
  const r = spawnSync(process.execPath, ["scripts/demo.mjs"], { cwd: REPO, encoding: "utf8", timeout: 60_000 });
  expect(r.status, r.stderr).toBe(0);
  const holds = r.stdout.indexOf("\n  PLAN HOLDS: ");
  const halt = r.stdout.indexOf("\n  HALT: ");
  expect(holds).toBeGreaterThan(-1);
  expect(halt).toBeGreaterThan(holds);
  expect(r.stdout).toContain("(exit 0; expected 0)");
  expect(r.stdout).toContain("(exit 1; expected 1)");
});
