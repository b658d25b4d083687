// Packs the published packages the way a release does (`pnpm pack`, which rewrites `workspace:`
// ranges) and unpacks each tarball, for the tests that check what a stranger would install.
import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join, posix, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);

export const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The packages published to npm (cli-kit and portable are internal: tsup bundles them into each). */
export const PUBLISHED = ["assumptions", "contract", "evidence", "executor"] as const;
export type Published = (typeof PUBLISHED)[number];

/** The fields of a packed package.json these tests read. */
export interface Manifest {
  readonly name: string;
  readonly version: string;
  readonly license?: string;
  readonly repository?: { readonly type: string; readonly url: string; readonly directory: string };
  readonly homepage?: string;
  readonly bugs?: { readonly url: string };
  readonly main?: string;
  readonly module?: string;
  readonly types?: string;
  readonly exports: Record<string, unknown>;
  readonly bin?: Record<string, string>;
  readonly dependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
  readonly peerDependenciesMeta?: Record<string, { readonly optional?: boolean }>;
  readonly devDependencies?: Record<string, string>;
}

/** One packed package: its tarball, where it was unpacked, its manifest as packed. */
export interface Packed {
  readonly short: Published;
  readonly tarball: string;
  readonly root: string;
  readonly manifest: Manifest;
}

/** `pnpm pack`s every published package into `dir` and unpacks each beside its tarball. */
export async function packAll(dir: string): Promise<readonly Packed[]> {
  for (const short of PUBLISHED) {
    const dist = join(REPO_ROOT, "packages", short, "dist");
    if (!existsSync(dist)) throw new Error(`missing ${dist}: build first (npx -y pnpm@12.4.2 run build)`);
  }
  return Promise.all(
    PUBLISHED.map(async (short) => {
      const cwd = join(REPO_ROOT, "packages", short);
      const { stdout } = await run("npx", ["-y", "pnpm@12.4.2", "pack", "--pack-destination", dir], { cwd });
      const tarball = stdout.trim().split("\n").at(-1) ?? "";
      const root = join(dir, short);
      await mkdir(root);
      await run("tar", ["-xzf", tarball, "-C", root, "--strip-components=1"]);
      const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as Manifest;
      return { short, tarball, root, manifest };
    }),
  );
}

/** Every file under `root`, as POSIX paths relative to it. */
export function filesUnder(root: string, at = root): string[] {
  return readdirSync(at).flatMap((name) => {
    const path = join(at, name);
    return statSync(path).isDirectory() ? filesUnder(root, path) : [relative(root, path).split("\\").join("/")];
  });
}

/** The string leaves of an `exports` map (its targets). */
function targets(node: unknown): string[] {
  if (typeof node === "string") return [node];
  if (node === null || typeof node !== "object") return [];
  return Object.values(node).flatMap(targets);
}

// A relative module specifier in emitted JS or declarations, and a source map comment.
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire(?:\.resolve)?\s*\(\s*|^\s*import\s+)["'](\.\.?\/[^"']+)["']/gm;
const SOURCE_MAP = /^\/\/# sourceMappingURL=(\S+)$/m;

/** A declaration file names its neighbours by their JS names: `./x.js` is `./x.d.ts`, `./x.cjs` is `./x.d.cts`. */
function asDeclaration(from: string, target: string): string {
  if (from.endsWith(".d.ts")) return target.replace(/\.js$/, ".d.ts");
  if (from.endsWith(".d.cts")) return target.replace(/\.cjs$/, ".d.cts");
  return target;
}

/**
 * The files the manifest reaches: its entry points (`main`, `module`, `types`, `exports`, `bin`),
 * then every relative import, require and source map of those files, transitively; and a
 * bundle's code cache (`gate.cache` beside `gate.cjs`, which the bin starts it from).
 */
export function reachable(root: string, manifest: Manifest): Set<string> {
  const start = [manifest.main, manifest.module, manifest.types, ...targets(manifest.exports), ...Object.values(manifest.bin ?? {})];
  const seen = new Set<string>();
  const all = filesUnder(root);
  // A subpath pattern (`./schemas/*.json`) reaches every file it matches.
  const expand = (p: string): string[] => {
    if (!p.includes("*")) return [posix.normalize(p)];
    const [head, tail] = posix.normalize(p).split("*") as [string, string];
    return all.filter((f) => f.startsWith(head) && f.endsWith(tail) && f.length >= head.length + tail.length);
  };
  const queue = start.filter((p): p is string => p !== undefined).flatMap(expand);
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    const path = join(root, file);
    if (!existsSync(path) || !/\.(c?js|d\.c?ts)$/.test(file)) continue;
    const text = readFileSync(path, "utf8");
    const near = (target: string) => posix.normalize(posix.join(posix.dirname(file), target));
    for (const m of text.matchAll(SPECIFIER)) queue.push(near(asDeclaration(file, m[1] as string)));
    const map = SOURCE_MAP.exec(text)?.[1];
    if (map !== undefined) queue.push(near(map));
    const cache = file.replace(/\.cjs$/, ".cache");
    if (cache !== file && all.includes(cache)) queue.push(cache);
  }
  return seen;
}
