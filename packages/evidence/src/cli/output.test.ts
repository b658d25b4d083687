import { readFileSync } from "node:fs";
import { expect, test } from "vitest";
import { CLI_OUTPUT_SCHEMA_ID, CliOutput, cliOutputJsonSchema, jsonLine } from "./output.js";

// schemas/cli-output.schema.json is generated from the zod schema; this test keeps it from drifting.
test("schemas/cli-output.schema.json is exactly the JSON Schema export of CliOutput, with its $id", () => {
  const file = readFileSync(new URL("../../schemas/cli-output.schema.json", import.meta.url), "utf8");
  expect(file).toBe(`${JSON.stringify(cliOutputJsonSchema(), null, 2)}\n`);
});

test("a --json line is canonical JSON that starts with $schema and carries version 1", () => {
  const line = jsonLine({ slug: "x" });
  expect(line).toBe(`{"$schema":"${CLI_OUTPUT_SCHEMA_ID}","slug":"x","version":1}\n`);
  expect(CliOutput.parse(JSON.parse(line))).toEqual({ $schema: CLI_OUTPUT_SCHEMA_ID, version: 1, slug: "x" });
});
