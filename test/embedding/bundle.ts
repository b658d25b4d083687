// Bundles a package entry the way a browser build would (esbuild, platform browser, nothing
// external, no polyfill, no shim) and reports what in it belongs to Node.
import { builtinModules } from "node:module";
import { fileURLToPath } from "node:url";
import { build, type Plugin } from "esbuild";

/** The repository root. */
export const REPO = fileURLToPath(new URL("../../", import.meta.url));

/** Node globals a runtime-neutral bundle must never read (`require` is checked apart: see below). */
export const NODE_GLOBALS = ["Buffer", "process", "global", "__dirname", "__filename"] as const;

const BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

/** What bundling one entry found. */
export interface Bundled {
  /** The bundle: an IIFE assigning the entry's exports to `globalThis.__entry`. */
  readonly code: string;
  /** Every Node builtin imported, with the file that imports it. */
  readonly builtins: readonly string[];
  /** Every Node global read as a free variable. */
  readonly globals: readonly string[];
  /** The Node globals read as free variables in decay's own files (not under node_modules), with the file. */
  readonly ownGlobals: readonly string[];
  /** The bundle's input files (repository-relative). */
  readonly inputs: readonly string[];
}

// Records each Node builtin import instead of failing the build at the first, so one run names them all.
function builtinRecorder(found: string[]): Plugin {
  return {
    name: "node-builtins",
    setup(b) {
      b.onResolve({ filter: /.*/ }, (args) => {
        if (!BUILTINS.has(args.path) && !args.path.startsWith("node:")) return undefined;
        found.push(`${args.path} (imported by ${args.importer.replace(REPO, "")})`);
        return { path: args.path, external: true };
      });
    },
  };
}

// A free reference to a Node global becomes a marker (esbuild's define only replaces free
// references, never a local binding of the same name), so its presence is found in the output.
const marker = (name: string): string => `__node_global_${name}__`;

// esbuild heads each input's code with a `// path` comment line; a marker below one belongs to it.
function ownGlobals(code: string): string[] {
  const found = new Set<string>();
  let file = "";
  for (const line of code.split("\n")) {
    const head = /^\s*\/\/ (\S+\.[cm]?[jt]s)$/.exec(line);
    if (head?.[1] !== undefined) file = head[1];
    if (file.includes("node_modules/")) continue;
    for (const g of NODE_GLOBALS) if (line.includes(marker(g))) found.add(`${g} (${file})`);
  }
  return [...found];
}

/** What every browser bundle of the repository's sources shares: decay through the tsconfig paths, one IIFE, in memory. */
export const BROWSER_BUILD = {
  absWorkingDir: REPO,
  tsconfig: `${REPO}tsconfig.json`,
  bundle: true,
  platform: "browser",
  format: "iife",
  write: false,
  logLevel: "silent",
} as const;

/** Bundles `entry` (repository-relative) for the browser. */
export async function bundleForBrowser(entry: string): Promise<Bundled> {
  const builtins: string[] = [];
  const result = await build({
    ...BROWSER_BUILD,
    entryPoints: [`${REPO}${entry}`],
    globalName: "__entry",
    metafile: true,
    define: Object.fromEntries(NODE_GLOBALS.map((g) => [g, marker(g)])),
    plugins: [builtinRecorder(builtins)],
  });
  const code = result.outputFiles[0]?.text ?? "";
  const globals: string[] = NODE_GLOBALS.filter((g) => code.includes(marker(g)));
  // Defining `require` would stop esbuild from bundling CommonJS dependencies; a `require` it could
  // not bundle is left to esbuild's `__require` shim, which needs a real `require` at run time.
  if (/\b__require\b/.test(code)) globals.push("require");
  return { code, builtins, globals, ownGlobals: ownGlobals(code), inputs: Object.keys(result.metafile.inputs) };
}
