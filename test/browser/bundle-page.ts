// Bundles the smoke page for the browser with esbuild: decay from its package roots (through the
// workspace's tsconfig paths, so the sources under test), no polyfill for decay, and memfs's and
// isomorphic-git's builtins mapped to their browser packages (see dependency-builtins.ts).
import { build } from "esbuild";
import { BROWSER_BUILD, REPO } from "../embedding/bundle.js";
import { dependencyBuiltins } from "./dependency-builtins.js";

/** The bundled page script, and every builtin import that came from decay's own files (must be none). */
export interface PageBundle {
  readonly code: string;
  readonly ownBuiltins: readonly string[];
}

/** Bundles `entry` (repository-relative) as an IIFE assigning its exports to `globalThis.<globalName>`. */
export async function bundlePage(entry: string, globalName: string): Promise<PageBundle> {
  const ownBuiltins: string[] = [];
  const result = await build({
    ...BROWSER_BUILD,
    entryPoints: [`${REPO}${entry}`],
    globalName,
    target: "es2022",
    plugins: [dependencyBuiltins(ownBuiltins)],
  });
  return { code: result.outputFiles[0]?.text ?? "", ownBuiltins };
}
