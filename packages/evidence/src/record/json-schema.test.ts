import { readFileSync } from "node:fs";
import { expect, test } from "vitest";
import { evidenceRecordJsonSchema } from "./json-schema.js";

test("schemas/evidence-record.schema.json is exactly the schema's JSON Schema export", () => {
  const file = readFileSync(new URL("../../schemas/evidence-record.schema.json", import.meta.url), "utf8");
  expect(file).toBe(`${JSON.stringify(evidenceRecordJsonSchema(), null, 2)}\n`);
});

test("the export names every content field as required and allows no other", () => {
  const schema = evidenceRecordJsonSchema() as { required: string[]; additionalProperties: boolean; properties: Record<string, { type?: string }> };
  expect([...schema.required].sort()).toEqual([
    "attempt",
    "author",
    "checks",
    "deployment",
    "merge_sha",
    "pr",
    "previous_attempt",
    "production_status",
    "repo",
    "schema",
    "task",
    "timestamp",
  ]);
  expect(schema.additionalProperties).toBe(false);
  expect(schema.properties["pr"]?.type).toBe("integer");
});
