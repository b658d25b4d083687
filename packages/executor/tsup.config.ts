import { defineConfig } from "tsup";

const entry = {
  index: "src/index.ts",
  git: "src/entries/git.ts",
  node: "src/entries/node.ts",
  testing: "src/entries/testing.ts",
};

/** Optional peers: only the ./dbos entry imports them. */
const DBOS_PEERS = ["@dbos-inc/dbos-sdk", "@electric-sql/pglite", "@electric-sql/pglite-socket"];

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
    dts: { entry },
    external: ["vitest"],
    // No build cleans: the builds run at the same time, and tsup's declaration step would delete every
    // .d.ts of the others (its clean ignores the patterns); `pnpm build` empties dist first.
  },
  {
    ...shared,
    // The CLI is ESM only: log-update (the live view) is an ES module, which Node 20 cannot require.
    entry: { cli: "src/entries/cli.ts", bin: "src/bin.ts" },
    format: ["esm"],
    dts: { entry: { cli: "src/entries/cli.ts" } },
    splitting: false,
    // `decay run --durable` and the fleet commands load ./dbos at run time, by name: the DBOS and
    // PGlite peers stay out of the CLI and load only when asked for.
    external: ["@decay/executor/dbos", ...DBOS_PEERS],
  },
  {
    ...shared,
    // The DBOS runner is ESM only, like the CLI; its peers are optional and never bundled.
    entry: { dbos: "src/entries/dbos.ts" },
    format: ["esm"],
    dts: { entry: { dbos: "src/entries/dbos.ts" } },
    external: DBOS_PEERS,
    splitting: false,
  },
]);
