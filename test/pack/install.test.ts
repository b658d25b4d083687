// A stranger's install: the packed tarballs installed with plain npm into an empty project (no
// workspace, no pnpm), then each example run against them, importing the packages by name, and
// each bin asked for its version.
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, join } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, test } from "vitest";
import { tempDir } from "../../test-utils/tmp.js";
import { type Packed, packAll, REPO_ROOT } from "./packed.js";

const run = promisify(execFile);
let project = "";
let packed: readonly Packed[] = [];

/** This process's environment without vitest's own variables, for a vitest run of its own. */
function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("VITEST") && k !== "NODE_OPTIONS"));
}

/** Copies the examples (not their workspace manifests) and what they read, as the repository lays them out. */
function copyExamples(to: string): void {
  const skip = (src: string) => !["node_modules", "package.json"].includes(basename(src));
  for (const example of ["agents", "custom-transport", "harness-gate", "run-a-plan", "vitest-plan-validity"]) {
    cpSync(join(REPO_ROOT, "examples", example), join(to, "examples", example), { recursive: true, filter: skip });
  }
  cpSync(join(REPO_ROOT, "fixtures", "run-a-plan"), join(to, "fixtures", "run-a-plan"), { recursive: true });
  mkdirSync(join(to, "test-utils"));
  cpSync(join(REPO_ROOT, "test-utils", "tmp.ts"), join(to, "test-utils", "tmp.ts"));
}

beforeAll(async () => {
  const base = await tempDir("decay-install-");
  packed = await packAll(join(base));
  project = join(base, "project");
  mkdirSync(project);
  const versionOf = (name: string) => (JSON.parse(readFileSync(join(REPO_ROOT, "node_modules", name, "package.json"), "utf8")) as { version: string }).version;
  const dependencies = Object.fromEntries(packed.map((p) => [p.manifest.name, `file:${p.tarball}`]));
  // zod is not named: npm installs a package's peers itself. vitest is the examples' test runner;
  // typescript and Node's types check the examples against the published declarations.
  const devDependencies = { vitest: `^${versionOf("vitest")}`, typescript: versionOf("typescript"), "@types/node": `^${versionOf("@types/node")}` };
  const manifest = { name: "stranger", private: true, type: "module", dependencies, devDependencies };
  writeFileSync(join(project, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  // Offline when npm's cache holds everything, else from the registry.
  await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: project, env: cleanEnv() });
  copyExamples(project);
}, 300_000);

describe("the tarballs installed with plain npm", () => {
  test("each bin prints `<name> <version>`", async () => {
    for (const { manifest } of packed) {
      for (const bin of Object.keys(manifest.bin ?? {})) {
        const { stdout } = await run(join(project, "node_modules", ".bin", bin), ["--version"], { cwd: project });
        expect(stdout).toBe(`${bin} ${manifest.version}\n`);
      }
    }
  });

  test("each package's JSON Schemas resolve by name through its ./schemas/*.json subpath, each naming itself in $id", () => {
    const resolve = createRequire(join(project, "package.json")).resolve;
    for (const { manifest, root } of packed) {
      const names = readdirSync(join(root, "schemas"));
      expect(names.length, manifest.name).toBeGreaterThan(0);
      for (const name of names) {
        const schema = JSON.parse(readFileSync(resolve(`${manifest.name}/schemas/${name}`), "utf8")) as { $id: string };
        expect(schema.$id).toBe(`https://unpkg.com/${manifest.name}/schemas/${name}`);
      }
    }
  });

  test("the examples' own tests pass against the installed packages", async () => {
    const report = join(project, "vitest-report.json");
    const vitest = join(project, "node_modules", "vitest", "vitest.mjs");
    const ran = await run(process.execPath, [vitest, "run", "examples", "--testTimeout=60000", "--reporter=json", `--outputFile=${report}`], {
      cwd: project,
      env: cleanEnv(),
    }).then(
      () => "",
      (e: { stdout?: string; stderr?: string }) => `${e.stdout ?? ""}${e.stderr ?? ""}`,
    );
    type Assertion = { fullName: string; status: string; failureMessages: string[] };
    const result = JSON.parse(readFileSync(report, "utf8")) as {
      testResults: Array<{ name: string; status: string; message: string; assertionResults: Assertion[] }>;
    };
    const failures = result.testResults.flatMap((r) => [
      ...(r.status === "passed" ? [] : [`${r.name}: ${r.message}`]),
      ...r.assertionResults.filter((a) => a.status !== "passed").map((a) => `${a.fullName}: ${a.failureMessages.join("\n")}`),
    ]);
    expect(failures, ran).toEqual([]);
    expect(result.testResults.map((r) => [r.name.slice(project.length + 1), r.status]).sort()).toEqual([
      ["examples/agents/shell-agent.test.ts", "passed"],
      ["examples/custom-transport/orchestrator.test.ts", "passed"],
      ["examples/harness-gate/fleet.test.ts", "passed"],
      ["examples/run-a-plan/run-a-plan.test.ts", "passed"],
      ["examples/vitest-plan-validity/plan.test.ts", "passed"],
    ]);
  }, 180_000);

  test("the examples type-check against the installed packages' published declarations", async () => {
    // As a stranger's strict project would: no paths into this repository's sources.
    const compilerOptions = {
      target: "ES2022",
      module: "NodeNext",
      moduleResolution: "NodeNext",
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      types: ["node"],
    };
    writeFileSync(join(project, "tsconfig.json"), `${JSON.stringify({ compilerOptions, include: ["examples/**/*.ts", "test-utils/*.ts"] }, null, 2)}\n`);
    const checked = await run(process.execPath, [join(project, "node_modules", "typescript", "bin", "tsc"), "-p", "."], { cwd: project }).then(
      () => "",
      (e: { stdout?: string; stderr?: string }) => `${e.stdout ?? ""}${e.stderr ?? ""}`,
    );
    expect(checked).toBe("");
  }, 120_000);

  test("the installed decay bin runs the fixture plan with examples/agents/edit-agent.mjs standing in for a coding agent", async () => {
    const repo = join(await tempDir("decay-stranger-repo-"), "repo");
    cpSync(join(project, "fixtures", "run-a-plan", "repo"), repo, { recursive: true });
    const git = (...args: string[]) => run("git", ["-c", "user.email=stranger@example.invalid", "-c", "user.name=stranger", ...args], { cwd: repo });
    await git("init", "-q", "-b", "main");
    await git("add", "-A");
    await git("commit", "-q", "-m", "stats: count only");
    const agent = `${process.execPath} ${join(project, "examples", "agents", "edit-agent.mjs")} ${join(project, "fixtures", "run-a-plan", "script.json")}`;
    const decay = join(project, "node_modules", ".bin", "decay");
    const failed = await run(decay, ["run", "docs/stats.plan.md", "--repo", ".", "--agent", agent], { cwd: repo, env: cleanEnv() }).then(
      () => null,
      (e: { code?: number; stdout?: string; stderr?: string }) => e,
    );
    // Exit 1 is the verdict "not every stage green": S3's test-editing fix is refused.
    expect(failed?.code).toBe(1);
    expect(`${failed?.stdout}${failed?.stderr}`).toMatch(/incomplete: S3 not green/);
    expect(readFileSync(join(repo, ".plan-runs", "stats", "REPORT.md"), "utf8")).toContain(
      "diverged: test/median.test.mjs: changed by the fix before it was committed",
    );
  }, 180_000);
});
