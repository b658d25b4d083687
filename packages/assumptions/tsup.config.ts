import { defineConfig } from "tsup";

const shared = {
  // The shared CLI seal and the runtime-neutral helpers are internal: bundle them so the published
  // package stands alone.
  noExternal: ["@decay/cli-kit", "@decay/portable"],
  sourcemap: true,
  target: "node20",
} as const;

// `.` is runtime-neutral; `./node`, `./cli` and `./testing` may use Node (and vitest, a peer).
const entry = {
  index: "src/index.ts",
  git: "src/entries/git.ts",
  vitest: "src/entries/vitest.ts",
  node: "src/entries/node.ts",
  cli: "src/entries/cli.ts",
  testing: "src/entries/testing.ts",
};

export default defineConfig([
  {
    ...shared,
    entry,
    format: ["esm", "cjs"],
    // The internal packages' types are inlined (a user never installs them): tsconfig.json maps them to
    // their sources, so their type-only modules are inlined too (resolved through node_modules they were not).
    dts: { entry },
    external: ["vitest"],
    // No build cleans: the builds run at the same time, and tsup's declaration step would delete every
    // .d.ts of the other (its clean ignores the patterns); `pnpm build` empties dist first.
  },
  {
    ...shared,
    // The CLI's program is one CommonJS file: Node 20 starts it about 20 ms sooner than the ESM
    // entry and its chunks (docs/performance.md).
    entry: { gate: "src/cli/program.ts" },
    format: ["cjs"],
    // neverthrow and @noble/hashes too, which every run loads: each file resolved and loaded
    // at start costs the gate time on a small plan (docs/performance.md).
    noExternal: ["@decay/cli-kit", "@decay/portable", "neverthrow", "@noble/hashes"],
  },
  {
    ...shared,
    // The bin: a few lines that start gate.cjs from its code cache. It must not bundle the program.
    entry: { bin: "src/bin.ts" },
    format: ["cjs"],
    sourcemap: false,
  },
  {
    ...shared,
    // The build step that makes dist/gate.cache; kept out of dist, so never published.
    entry: { "code-cache": "scripts/code-cache.ts" },
    format: ["cjs"],
    outDir: ".build",
    sourcemap: false,
  },
]);
