import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";
import { outputProblems } from "../../../../test-utils/json-schema.js";
import { Contract } from "../model.js";
import type { CliIo } from "./io.js";
import { main } from "./main.js";

const root = fileURLToPath(new URL("../../../../", import.meta.url));
const schemas = fileURLToPath(new URL("../../schemas", import.meta.url));
const contracts = readdirSync(`${root}fixtures/plans/self-check`).filter((f) => f.endsWith(".contract.md"));

async function run(argv: string[]) {
  let stdout = "";
  const io: CliIo = { stdout: async (t) => void (stdout += t), stderr: async () => {}, cwd: root, env: {} };
  return { code: await main(argv, io), output: JSON.parse(stdout) as Record<string, unknown> };
}

test("compile --json starts with $schema (a shipped schema's $id) and version 1, and validates against that schema", async () => {
  const { code, output } = await run(["compile", "fixtures/plans/refunds-report.plan.md", "--json"]);
  expect(code).toBe(0);
  expect(Object.keys(output).slice(0, 2)).toEqual(["$schema", "version"]);
  expect(output.version).toBe(1);
  expect(outputProblems(output, schemas)).toEqual([]);
});

test("the contract schema leaves version optional: the library's Contract value (no version) validates too", async () => {
  const { output } = await run(["compile", "fixtures/plans/refunds-report.plan.md", "--json"]);
  const bare = Contract.parse(output);
  expect(bare).not.toHaveProperty("$schema");
  expect(outputProblems({ ...bare, $schema: output.$schema }, schemas)).toEqual([]);
});

test.each(contracts)("check %s --json: an object with $schema, version 1 and findings, valid against the shipped schema", async (name) => {
  const { code, output } = await run(["check", `fixtures/plans/self-check/${name}`, "--json"]);
  expect([0, 1]).toContain(code);
  expect(Object.keys(output)).toEqual(["$schema", "version", "findings"]);
  expect(output.version).toBe(1);
  expect(outputProblems(output, schemas)).toEqual([]);
});

test("an output whose $schema names no shipped file, or that breaks its schema, is refused by the check", async () => {
  const { output } = await run(["check", `fixtures/plans/self-check/${contracts[0]}`, "--json"]);
  expect(outputProblems({ ...output, $schema: "https://example.com/nope.json" }, schemas)).toHaveLength(1);
  expect(outputProblems({ ...output, version: 2 }, schemas)).not.toEqual([]);
});
