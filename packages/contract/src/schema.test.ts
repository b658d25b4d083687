import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { Contract, Findings } from "./model.js";

const doc = (name: string): unknown =>
  JSON.parse(readFileSync(fileURLToPath(new URL(`../../../docs/${name}`, import.meta.url)), "utf8"));

describe("JSON Schemas in docs/ cannot drift from the zod schemas", () => {
  test("docs/contract.schema.json is z.toJSONSchema(Contract)", () => {
    expect(doc("contract.schema.json")).toEqual(z.toJSONSchema(Contract));
  });
  test("docs/findings.schema.json is z.toJSONSchema(Findings)", () => {
    expect(doc("findings.schema.json")).toEqual(z.toJSONSchema(Findings));
  });
});
