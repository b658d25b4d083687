import { defineConfig } from "tsup";

const shared = {
  // The shared CLI seal is internal: bundle it so the published package stands alone.
  noExternal: ["@decay/cli-kit"],
  sourcemap: true,
  target: "node20",
} as const;

export default defineConfig([
  {
    ...shared,
    entry: {
      index: "src/index.ts",
      git: "src/entries/git.ts",
      vitest: "src/entries/vitest.ts",
    },
    format: ["esm", "cjs"],
    dts: { entry: { index: "src/index.ts", git: "src/entries/git.ts", vitest: "src/entries/vitest.ts" } },
    // Each build cleans only its own outputs: the two builds run at the same time.
    clean: ["**", "!bin.*"],
  },
  {
    ...shared,
    // The CLI is one CommonJS file: Node 20 starts it about 20 ms sooner than the ESM entry and
    // its chunks (docs/performance.md).
    entry: { bin: "src/bin.ts" },
    format: ["cjs"],
    // neverthrow too, which every run needs: one file fewer to resolve and load at each start.
    noExternal: ["@decay/cli-kit", "neverthrow"],
    clean: ["bin.*"],
  },
]);
