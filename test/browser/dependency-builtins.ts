// What memfs and isomorphic-git need in a browser, and nothing for decay. memfs imports five Node
// builtins (through @jsonjoy.com/fs-node-builtins) and isomorphic-git imports `buffer`; a browser
// bundle maps each to its browser package. decay's own files may import none of them: the plugin
// records any such import so the smoke fails on it instead of quietly mapping it.
import type { Plugin } from "esbuild";
import { REPO } from "../embedding/bundle.js";

/** Each Node builtin a dependency imports, and the browser package that stands in for it. */
export const BROWSER_PACKAGES: Readonly<Record<string, string>> = {
  buffer: "buffer/",
  events: "events/",
  path: "path-browserify",
  stream: "readable-stream",
  url: "url/",
};

/** Maps dependencies' builtin imports to browser packages; pushes any made from decay's own files to `own`. */
export function dependencyBuiltins(own: string[]): Plugin {
  return {
    name: "dependency-builtins",
    setup(b) {
      b.onResolve({ filter: /^(node:)?(buffer|events|path|stream|url)$/ }, async (args) => {
        if (!args.importer.includes("/node_modules/")) {
          own.push(`${args.path} (imported by ${args.importer.replace(REPO, "")})`);
          return { path: args.path, external: true };
        }
        const target = BROWSER_PACKAGES[args.path.replace(/^node:/, "")] as string;
        const found = await b.resolve(target, { resolveDir: REPO, kind: args.kind });
        return found.errors.length > 0 ? { errors: found.errors } : { path: found.path };
      });
    },
  };
}
