import { defineConfig } from "vitest/config";

// `pnpm test:browser`: the smoke suites that drive headless Chromium (test/browser/*.smoke.ts).
// Apart from the normal suite (vitest.config.ts), which never launches a browser.
export default defineConfig({
  test: {
    include: ["test/browser/**/*.smoke.ts"],
    exclude: ["**/node_modules/**", "**/dist/**"],
    testTimeout: 30_000,
    hookTimeout: 90_000,
    pool: "forks",
    fileParallelism: false,
  },
});
