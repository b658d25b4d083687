import { readFileSync } from "node:fs";
import { expect, test } from "vitest";
import { envelopeJsonSchema, envelopeJsonSchemaForDocs } from "./json-schema.js";

const DOC = new URL("../../../../docs/evidence-store.md", import.meta.url);

test("docs/evidence-store.md prints exactly the envelope schema's JSON Schema export", () => {
  const page = readFileSync(DOC, "utf8");
  const block = /## JSON Schema of an envelope\n[\s\S]*?```json\n([\s\S]*?)```\n/.exec(page)?.[1];
  expect(block).toBe(`${JSON.stringify(envelopeJsonSchemaForDocs(), null, 2)}\n`);
});

test("the export requires the four envelope keys and every record field, and allows no other", () => {
  const schema = envelopeJsonSchema() as {
    required: string[];
    additionalProperties: boolean;
    properties: { record: { required: string[]; additionalProperties: boolean }; comment_id: unknown };
  };
  expect([...schema.required].sort()).toEqual(["comment_id", "reason", "record", "write_state"]);
  expect(schema.additionalProperties).toBe(false);
  expect(schema.properties.record.required).toHaveLength(17);
  expect(schema.properties.record.additionalProperties).toBe(false);
});
