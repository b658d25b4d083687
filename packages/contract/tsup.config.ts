import { defineConfig } from "tsup";

// `.` is runtime-neutral; `./cli` may use Node.
const entry = { index: "src/index.ts", cli: "src/entries/cli.ts" };

export default defineConfig({
  entry: { ...entry, bin: "src/bin.ts" },
  format: ["esm", "cjs"],
  // The internal packages' types are inlined: a user never installs them.
  dts: { entry, resolve: ["@decay/portable", "@decay/cli-kit"] },
  // The shared CLI seal and the runtime-neutral helpers are internal: bundle them so the published
  // package stands alone.
  noExternal: ["@decay/cli-kit", "@decay/portable"],
  clean: true,
  sourcemap: true,
  target: "node20",
});
