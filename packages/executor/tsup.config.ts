import { defineConfig } from "tsup";

const entry = {
  index: "src/index.ts",
  node: "src/entries/node.ts",
  testing: "src/entries/testing.ts",
  cli: "src/entries/cli.ts",
};

export default defineConfig({
  entry: { ...entry, bin: "src/bin.ts" },
  format: ["esm", "cjs"],
  dts: { entry },
  external: ["vitest"],
  // The shared CLI seal is internal: bundle it so the published package stands alone.
  noExternal: ["@decay/cli-kit"],
  clean: true,
  sourcemap: true,
  target: "node20",
});
