import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { FleetOutput } from "./fleet-output.js";
import { RunJob } from "./job.js";
import { RunSummary } from "./status.js";

const doc = (name: string): unknown => JSON.parse(readFileSync(fileURLToPath(new URL(`../../../schemas/${name}`, import.meta.url)), "utf8"));

describe("the fleet's JSON Schemas in schemas/ cannot drift from the zod schemas", () => {
  test.each([
    ["run-job.schema.json", RunJob],
    ["run-summary.schema.json", RunSummary],
    ["fleet-output.schema.json", FleetOutput],
  ] as const)("schemas/%s", (name, schema) => {
    expect(doc(name)).toEqual({ $id: `https://unpkg.com/@decay/executor/schemas/${name}`, ...z.toJSONSchema(schema) });
  });
});
