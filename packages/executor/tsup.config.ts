import { defineConfig } from "tsup";

const entry = {
  index: "src/index.ts",
  node: "src/entries/node.ts",
  testing: "src/entries/testing.ts",
};

export default defineConfig({
  entry,
  format: ["esm", "cjs"],
  dts: { entry },
  external: ["vitest"],
  clean: true,
  sourcemap: true,
  target: "node20",
});
