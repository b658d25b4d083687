import { defineConfig } from "tsup";

export default defineConfig({
  entry: {
    index: "src/index.ts",
    git: "src/entries/git.ts",
    vitest: "src/entries/vitest.ts",
    bin: "src/bin.ts",
  },
  format: ["esm", "cjs"],
  dts: { entry: { index: "src/index.ts", git: "src/entries/git.ts", vitest: "src/entries/vitest.ts" } },
  clean: true,
  sourcemap: true,
  target: "node20",
});
