import { describe, expect, test } from "vitest";
import { runView } from "./commands.js";
import { testRunner } from "./runners.js";

const runnerOf = (line: string) =>
  runView(line)
    .commands.map(testRunner)
    .find((r) => r !== null) ?? null;

describe("test runners (rule 6)", () => {
  test.each([
    ["npm test", "npm test"],
    ["pnpm test -- --run", "pnpm test"],
    ["yarn run test:unit", "yarn test"],
    ["yarn workspace api test", "yarn test"],
    ["npx vitest run", "npx vitest"],
    ["pnpm exec jest", "pnpm jest"],
    ["pnpm vitest run test/a.test.ts", "pnpm vitest"],
    ["CI=1 pytest -q", "pytest"],
    ["python3 -m pytest tests", "python3 -m pytest"],
    ["go test ./...", "go test"],
    ["cargo test --workspace", "cargo test"],
    ["./gradlew test", "gradlew test"],
    ["cd api && make test", "make test"],
  ])("%s runs %s", (line, runner) => {
    expect(runnerOf(line)).toBe(runner);
  });
  test.each(["node scripts/check.mjs", "pnpm build", "grep -q vitest package.json", "go vet ./...", "npm run lint"])("%s is no test runner", (line) => {
    expect(runnerOf(line)).toBeNull();
  });
});
