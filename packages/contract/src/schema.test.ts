import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { ContractJson, FindingsJson } from "./json-output.js";

const doc = (name: string): unknown => JSON.parse(readFileSync(fileURLToPath(new URL(`../schemas/${name}`, import.meta.url)), "utf8"));

/** Where the published file says it lives (its `$id`): the package's `./schemas/*` subpath. */
const idOf = (name: string): string => `https://unpkg.com/@decay/contract/schemas/${name}`;

describe("the JSON Schemas in schemas/ cannot drift from the zod schemas", () => {
  test("schemas/contract.schema.json is z.toJSONSchema(ContractJson), with its $id", () => {
    expect(doc("contract.schema.json")).toEqual({ $id: idOf("contract.schema.json"), ...z.toJSONSchema(ContractJson) });
  });
  test("schemas/findings.schema.json is z.toJSONSchema(FindingsJson), with its $id", () => {
    expect(doc("findings.schema.json")).toEqual({ $id: idOf("findings.schema.json"), ...z.toJSONSchema(FindingsJson) });
  });
});
