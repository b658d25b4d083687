// What `pnpm pack` would publish: manifests a plain npm can install, tarballs holding only what
// their entry points reach, the licence and project links, and clean publint and attw reports.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { publint } from "publint";
import { formatMessage } from "publint/utils";
import { beforeAll, describe, expect, test } from "vitest";
import { tempDir } from "../../test-utils/tmp.js";
import { filesUnder, type Packed, packAll, REPO_ROOT, reachable } from "./packed.js";

const run = promisify(execFile);
let packed: readonly Packed[] = [];

beforeAll(async () => {
  packed = await packAll(await tempDir("decay-packed-"));
}, 180_000);

const CARET = /^\^\d+\.\d+\.\d+$/;

describe("the packed manifests", () => {
  test("no workspace: range survives; runtime dependencies are caret ranges", () => {
    for (const { manifest } of packed) {
      expect(JSON.stringify(manifest), manifest.name).not.toContain("workspace:");
      for (const [name, range] of Object.entries(manifest.dependencies ?? {})) expect(range, `${manifest.name} ${name}`).toMatch(CARET);
    }
    const executor = packed.find((p) => p.short === "executor")?.manifest;
    expect(executor?.dependencies).toMatchObject({ "@decay/assumptions": "^0.1.0", "@decay/contract": "^0.1.0" });
  });

  test("zod is a caret peer (its types cross the API), never a dependency; vitest an optional caret peer", () => {
    for (const { manifest } of packed) {
      expect(manifest.dependencies, manifest.name).not.toHaveProperty("zod");
      expect(manifest.peerDependencies?.zod, manifest.name).toMatch(CARET);
      const vitest = manifest.peerDependencies?.vitest;
      if (vitest !== undefined) {
        expect(vitest, manifest.name).toMatch(CARET);
        expect(manifest.peerDependenciesMeta?.vitest?.optional, manifest.name).toBe(true);
      }
    }
  });

  test("MIT, with the repository, its folder, a homepage and where to file bugs", () => {
    for (const { manifest, short } of packed) {
      expect(manifest).toMatchObject({
        license: "MIT",
        repository: { type: "git", url: "git+https://github.com/decay-sdk/decay.git", directory: `packages/${short}` },
        homepage: `https://github.com/decay-sdk/decay/tree/main/packages/${short}#readme`,
        bugs: { url: "https://github.com/decay-sdk/decay/issues" },
      });
    }
  });
});

describe("the tarballs", () => {
  test("hold the root LICENSE verbatim and a README", () => {
    const license = readFileSync(join(REPO_ROOT, "LICENSE"), "utf8");
    expect(license).toMatch(/^MIT License\n/);
    for (const { root } of packed) {
      expect(readFileSync(join(root, "LICENSE"), "utf8")).toBe(license);
      expect(readFileSync(join(root, "README.md"), "utf8").length).toBeGreaterThan(0);
    }
  });

  test("hold exactly what the entry points and bins reach (with their source maps), nothing unused, nothing missing", () => {
    for (const { root, manifest } of packed) {
      const files = filesUnder(root).sort();
      const reached = reachable(root, manifest);
      const extra = files.filter((f) => !reached.has(f) && !["package.json", "README.md", "LICENSE"].includes(f));
      const missing = [...reached].filter((f) => !files.includes(f));
      expect({ name: manifest.name, extra, missing }).toEqual({ name: manifest.name, extra: [], missing: [] });
    }
  });
});

describe("the linters of packages", () => {
  test("publint (strict, down to suggestions) finds nothing in any tarball", async () => {
    for (const { tarball, manifest } of packed) {
      const bytes = readFileSync(tarball);
      const { messages, pkg } = await publint({
        pack: { tarball: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) },
        strict: true,
        level: "suggestion",
      });
      expect(
        messages.map((m) => `${m.type} ${m.code}: ${formatMessage(m, pkg)}`),
        manifest.name,
      ).toEqual([]);
    }
  });

  // attw on each tarball, every entry point: Node 16+ resolution from ESM and CJS and bundlers
  // (`--profile node16`: node10 predates `exports`, so no subpath resolves there by design).
  // @decay/executor/cli (log-update is an ES module) and @decay/executor/dbos (DBOS's SDK) are ESM
  // only: they are checked on their own with `--profile esm-only` (docs/embedding.md).
  test("are the types wrong? no, for every entry point of every tarball", async () => {
    const attw = join(REPO_ROOT, "node_modules", ".bin", "attw");
    const runs = packed.flatMap(({ tarball, short }) =>
      short === "executor"
        ? [
            [tarball, "--profile", "node16", "--exclude-entrypoints", "./cli", "./dbos"],
            [tarball, "--profile", "esm-only", "--entrypoints", "./cli", "./dbos"],
          ]
        : [[tarball, "--profile", "node16"]],
    );
    const reports = await Promise.all(
      runs.map((args) =>
        run(attw, [...args, "--format", "table-flipped", "--no-color"]).then(
          () => null,
          (e: { stdout?: string; stderr?: string }) => `${args.join(" ")}\n${e.stdout ?? ""}${e.stderr ?? ""}`,
        ),
      ),
    );
    expect(reports.filter((r) => r !== null)).toEqual([]);
  }, 180_000);
});
