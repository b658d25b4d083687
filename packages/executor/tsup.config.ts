import { defineConfig } from "tsup";

const entry = {
  index: "src/index.ts",
  git: "src/entries/git.ts",
  node: "src/entries/node.ts",
  testing: "src/entries/testing.ts",
};

const shared = {
  // The shared CLI seal and the runtime-neutral helpers are internal: bundle them so the published
  // package stands alone.
  noExternal: ["@decay/cli-kit", "@decay/portable"],
  sourcemap: true,
  target: "node20",
} as const;

export default defineConfig([
  {
    ...shared,
    entry,
    format: ["esm", "cjs"],
    // The internal packages' types are inlined (a user never installs them): tsconfig.json maps them to
    // their sources, so their type-only modules are inlined too (resolved through node_modules they were not).
    dts: { entry },
    external: ["vitest"],
    // Each build cleans only its own outputs: the two builds run at the same time.
    clean: ["**", "!cli.*", "!bin.*"],
  },
  {
    ...shared,
    // The CLI is ESM only: log-update (the live view) is an ES module, which Node 20 cannot require.
    entry: { cli: "src/entries/cli.ts", bin: "src/bin.ts" },
    format: ["esm"],
    dts: { entry: { cli: "src/entries/cli.ts" } },
    splitting: false,
    clean: ["cli.*", "bin.*"],
  },
]);
