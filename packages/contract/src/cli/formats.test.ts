import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";
import { junitCases, sarifProblems } from "../../../../test-utils/formats.js";
import type { CliIo } from "./io.js";
import { main } from "./main.js";

const root = fileURLToPath(new URL("../../../../", import.meta.url));
const contracts = readdirSync(`${root}fixtures/plans/self-check`).filter((f) => f.endsWith(".contract.md"));

async function run(argv: string[]) {
  let stdout = "";
  const io: CliIo = { stdout: async (t) => void (stdout += t), stderr: async () => {}, cwd: root, env: {} };
  return { code: await main(argv, io), stdout };
}

test.each(contracts)("%s: valid SARIF with a located result per finding, and JUnit whose failures are the refusals", async (name) => {
  const file = `fixtures/plans/self-check/${name}`;
  const json = (JSON.parse((await run(["check", file, "--json"])).stdout) as { findings: { severity: string }[] }).findings;
  const sarif = await run(["check", file, "--format", "sarif"]);
  expect(sarifProblems(sarif.stdout)).toEqual([]);
  const results = JSON.parse(sarif.stdout).runs[0].results as { level: string; locations: { physicalLocation: { region: { startLine: number } } }[] }[];
  expect(results.map((r) => r.level)).toEqual(json.map((f) => (f.severity === "refuse" ? "error" : "warning")));
  for (const r of results) expect(r.locations[0]?.physicalLocation.region.startLine).toBeGreaterThanOrEqual(1);
  const junit = await run(["check", file, "--format", "junit"]);
  expect(junit.code).toBe(sarif.code);
  const failures = junitCases(junit.stdout).filter((c) => c.children.some((f) => f.name === "failure"));
  expect(failures).toHaveLength(json.filter((f) => f.severity === "refuse").length);
});
