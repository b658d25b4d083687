import { defineConfig } from "tsup";

// `.` is runtime-neutral; `./cli` may use Node.
const entry = { index: "src/index.ts", cli: "src/entries/cli.ts" };

const shared = {
  // The internal packages' types are inlined (a user never installs them): tsconfig.json maps them to
  // their sources, so their type-only modules are inlined too (resolved through node_modules they were not).
  dts: { entry },
  // The shared CLI seal and the runtime-neutral helpers are internal: bundle them so the published
  // package stands alone.
  noExternal: ["@decay/cli-kit", "@decay/portable"],
  sourcemap: true,
  target: "node20",
} as const;

export default defineConfig([
  // ESM: the entries and the bin, which shares their chunks. The bin is ESM only: a CommonJS copy
  // would ship unused. No build cleans: the builds run at the same time, and tsup's declaration step
  // would delete every .d.ts of the other (its clean ignores the patterns); `pnpm build` empties dist first.
  { ...shared, entry: { ...entry, bin: "src/bin.ts" }, format: ["esm"] },
  { ...shared, entry, format: ["cjs"] },
]);
