// Vite config of the browser-gate page. decay needs nothing here: its package roots and
// @decay/assumptions/git import no Node builtin. memfs does (buffer, events, path, stream, url, through
// @jsonjoy.com/fs-node-builtins) and isomorphic-git imports `buffer`, so for them, and only for
// imports from node_modules, each builtin resolves to its browser package, in `vite build` and in
// `vite` (dev). An import of a builtin from anywhere else fails the build: this page's files, and
// in this workspace decay's too (its packages are linked from packages/, not node_modules).
import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin } from "vite";

const HERE = fileURLToPath(new URL("./index.html", import.meta.url));

/** Each Node builtin a dependency imports, and the browser package that stands in for it. */
const BROWSER_PACKAGES: Readonly<Record<string, string>> = {
  buffer: "buffer/",
  events: "events/",
  path: "path-browserify",
  stream: "readable-stream",
  url: "url/",
};

/** Resolves a dependency's import of one of the builtins above to its browser package, from this page's directory. */
function dependencyBuiltins(): Plugin {
  return {
    name: "dependency-builtins",
    async resolveId(source, importer, options) {
      const name = /^(?:node:)?(buffer|events|path|stream|url)$/.exec(source)?.[1];
      if (name === undefined || importer === undefined) return null;
      if (!importer.includes("/node_modules/")) this.error(`${importer} imports the Node builtin ${source}`);
      return this.resolve(BROWSER_PACKAGES[name] as string, HERE, { ...options, skipSelf: true });
    },
  };
}

export default defineConfig({
  base: "./",
  // "pre": before Vite's own resolver, which would stub the builtins out (empty modules).
  plugins: [{ ...dependencyBuiltins(), enforce: "pre" }],
  // `vite` (dev) pre-bundles memfs and isomorphic-git apart from the plugins above: the same mapping there.
  optimizeDeps: { rolldownOptions: { plugins: [dependencyBuiltins()] } },
  build: { target: "es2022", chunkSizeWarningLimit: 1024 },
});
