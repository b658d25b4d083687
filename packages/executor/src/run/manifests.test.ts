import type { Contract } from "@decay/contract";
import { describe, expect, it } from "vitest";
import { manifestsOf } from "./manifests.js";
import { surfacePaths } from "./surface.js";

describe("manifestsOf: what decides a command line besides its words", () => {
  it.each([
    ["npm test", ["package.json"]],
    ["pnpm run check", ["package.json"]],
    ["yarn test --ci", ["package.json"]],
    ["npx vitest run", ["package.json"]],
    ["node --run test", ["package.json"]],
    ["CI=1 env /usr/local/bin/npm test", ["package.json"]],
    ["cd packages/app && npm test", ["package.json", "packages/app/package.json"]],
    ["npm --prefix web test", ["package.json", "web/package.json"]],
    ["pnpm -C ./web/ test", ["package.json", "web/package.json"]],
    ["yarn --cwd=web test", ["package.json", "web/package.json"]],
    ["make check", ["Makefile", "makefile", "GNUmakefile"]],
    ["make -C sub check", ["Makefile", "makefile", "GNUmakefile", "sub/Makefile", "sub/makefile", "sub/GNUmakefile"]],
    ["node test/check.mjs", []],
    ["sh test/check.sh && echo npm", []],
    ["cd .. && npm test", ["package.json"]],
    ["cd /tmp && npm test", ["package.json"]],
    ["sudo -u ci npm test", ["package.json"]],
    ["timeout 60 make check", ["Makefile", "makefile", "GNUmakefile"]],
    ["sh -c 'cd web && npm test'", ["package.json", "web/package.json"]],
    ["cd 'my app' && \"npm\" test", ["package.json", "my app/package.json"]],
    ["npx -c 'make check'", ["package.json", "Makefile", "makefile", "GNUmakefile"]],
    ["echo 'npm test' && node a.js", []],
    ['test "$(npm test 2>&1 | tail -1)" = ok', ["package.json"]],
    ['out=$(make check) && echo "$out" | grep -q PASS', ["Makefile", "makefile", "GNUmakefile"]],
    ["if [ `make -s count` -gt 0 ]; then exit 1; fi", ["Makefile", "makefile", "GNUmakefile"]],
    ['cd web && [ "$(npm run -s lint | wc -l)" -eq 0 ]', ["package.json", "web/package.json"]],
    // A script in a shell of its own (`$(…)`, `sh -c`) starts where its parent stands; its `cd` stays in it.
    ["top=$(cd .. && pwd) && cd web && npm test", ["package.json", "web/package.json"]],
    ['cd web && echo "$(cd ../api && pwd)" && npm test', ["package.json", "web/package.json"]],
    ["sh -c 'cd a' && cd b && npm test", ["package.json", "b/package.json"]],
    ["cd web && out=$(cd api && npm test)", ["package.json", "web/api/package.json"]],
    ["cd - && sh -c 'cd web && npm test'", ["package.json"]],
    [`sh -c 'sh -c "cd web && npm test"'`, ["package.json", "web/package.json"]],
  ])("%s", (command, paths) => {
    expect(manifestsOf(command)).toEqual({ paths, everyPackage: false });
  });

  it("a workspace-wide run reads every package's manifest", () => {
    for (const c of ["pnpm -r test", "pnpm --filter app test", "npm test --workspaces", "yarn workspaces run test"])
      expect(manifestsOf(c).everyPackage).toBe(true);
    expect(manifestsOf("make -r check").everyPackage).toBe(false);
  });

  it("a program named like an Object.prototype member reads no manifest (and does not throw)", () => {
    for (const c of ["constructor x", "toString", "hasOwnProperty -C dir"]) expect(manifestsOf(c)).toEqual({ paths: [], everyPackage: false });
  });
});

describe("surfacePaths pins the manifests a command reads", () => {
  const contract = (run: string) => ({ plan: "docs/p.plan.md", stages: [{ acceptance: [{ id: "S1.1", run }] }] }) as unknown as Contract;
  const files = ["package.json", "web/package.json", "lib/package.json", "pnpm-workspace.yaml", "Makefile", "src/a.js", "docs/p.plan.md"];

  it("package.json at the top and in the command's directory for npm; the Makefile for make", () => {
    expect(surfacePaths(contract("npm test"), files, [])).toEqual(["docs/p.plan.md", "package.json"]);
    expect(surfacePaths(contract("cd web && npm test"), files, [])).toEqual(["docs/p.plan.md", "package.json", "web/package.json"]);
    expect(surfacePaths(contract("make test"), files, [])).toEqual(["Makefile", "docs/p.plan.md"]);
    expect(surfacePaths(contract("node src/a.js"), files, [])).toEqual(["docs/p.plan.md", "src/a.js"]);
  });

  it("every package.json and the workspace file for a workspace-wide run", () => {
    expect(surfacePaths(contract("pnpm -r test"), files, [])).toEqual([
      "docs/p.plan.md",
      "lib/package.json",
      "package.json",
      "pnpm-workspace.yaml",
      "web/package.json",
    ]);
  });
});
