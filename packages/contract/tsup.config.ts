import { defineConfig } from "tsup";

export default defineConfig({
  entry: {
    index: "src/index.ts",
    bin: "src/bin.ts",
  },
  format: ["esm", "cjs"],
  dts: { entry: { index: "src/index.ts" } },
  // The shared CLI seal is internal: bundle it so the published package stands alone.
  noExternal: ["@decay/cli-kit"],
  clean: true,
  sourcemap: true,
  target: "node20",
});
