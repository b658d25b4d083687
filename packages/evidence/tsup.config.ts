import { defineConfig } from "tsup";

// `.` is runtime-neutral; `./node`, `./cli` and `./testing` may use Node (and vitest, a peer).
const entry = {
  index: "src/index.ts",
  github: "src/entries/github.ts",
  node: "src/entries/node.ts",
  cli: "src/entries/cli.ts",
  testing: "src/entries/testing.ts",
};

export default defineConfig({
  entry: { ...entry, bin: "src/bin.ts" },
  format: ["esm", "cjs"],
  dts: { entry },
  // The shared CLI seal and the runtime-neutral helpers are internal: bundle them so the published
  // package stands alone.
  noExternal: ["@decay/cli-kit", "@decay/portable"],
  external: ["vitest"],
  clean: true,
  sourcemap: true,
  target: "node20",
});
