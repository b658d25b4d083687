import { defineConfig } from "tsup";

// `.` is runtime-neutral; `./cli` may use Node.
const entry = { index: "src/index.ts", cli: "src/entries/cli.ts" };

export default defineConfig({
  entry: { ...entry, bin: "src/bin.ts" },
  format: ["esm", "cjs"],
  dts: { entry },
  // The shared CLI seal and the runtime-neutral helpers are internal: bundle them so the published
  // package stands alone.
  noExternal: ["@decay/cli-kit", "@decay/portable"],
  clean: true,
  sourcemap: true,
  target: "node20",
});
