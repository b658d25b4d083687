// Test support only (never exported from the package): builds memfs trees for the core's tests.
import { memfs } from "memfs";
import { memfsTree } from "../../src/adapters/memfs.js";
import type { TreeReader } from "../../src/tree.js";

/** A memfs volume holding a tree at /t, with the TreeReader over it. */
export interface FixtureTree {
  readonly fs: ReturnType<typeof memfs>["fs"];
  readonly tree: TreeReader;
}

/** A memfs tree rooted at /t: files from `files`, symbolic links from `links` (path -> target). */
export function fixtureTree(files: Record<string, string | Uint8Array>, links: Record<string, string> = {}): FixtureTree {
  const { fs } = memfs();
  const parent = (path: string) => fs.mkdirSync(`/t/${path}`.replace(/\/[^/]*$/, ""), { recursive: true });
  fs.mkdirSync("/t", { recursive: true });
  for (const [path, content] of Object.entries(files)) {
    parent(path);
    fs.writeFileSync(`/t/${path}`, content);
  }
  for (const [path, target] of Object.entries(links)) {
    parent(path);
    fs.symlinkSync(target, `/t/${path}`);
  }
  return { fs, tree: memfsTree(fs, "/t", { describe: "fixture" }) };
}
