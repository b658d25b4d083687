import { defineConfig } from "vitest/config";

// One config for the whole workspace: every package's tests and every example's tests.
export default defineConfig({
  test: {
    include: ["packages/*/src/**/*.test.ts", "packages/*/test/**/*.test.ts", "examples/*/**/*.test.ts", "test/**/*.test.ts"],
    exclude: ["**/node_modules/**", "**/dist/**"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Two files at a time even on two cores (the default there is one): most suites wait on git,
    // child processes and Postgres, so the second worker takes the suite from about 510 s to 360 s.
    maxWorkers: 2,
  },
});
