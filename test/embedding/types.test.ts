// The published type declarations stand alone: the internal packages (@decay/cli-kit,
// @decay/portable) are inlined, and every relative import names a file that was built. Reads the
// built dist (the root test script builds first).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { REPO } from "./bundle.js";

const PACKAGES = ["assumptions", "contract", "evidence", "executor"] as const;

describe.each(PACKAGES)("@decay/%s type declarations", (name) => {
  const dist = join(REPO, "packages", name, "dist");
  const files = readdirSync(dist).filter((f) => /\.d\.c?ts$/.test(f));

  test("import no internal package and no file that is not there", () => {
    expect(files.length).toBeGreaterThan(0);
    const problems: string[] = [];
    for (const file of files) {
      for (const [, spec] of readFileSync(join(dist, file), "utf8").matchAll(/from '([^']+)'/g)) {
        if (spec === undefined) continue;
        if (/^@decay\/(cli-kit|portable)/.test(spec)) problems.push(`${file} imports ${spec}`);
        const target = spec.replace(/\.c?js$/, (ext) => (ext === ".cjs" ? ".d.cts" : ".d.ts"));
        if (spec.startsWith(".") && !existsSync(join(dist, target))) problems.push(`${file} imports ${spec}, which was not built`);
      }
    }
    expect(problems).toEqual([]);
  });
});
