import { readFileSync, writeFileSync } from "node:fs";
import { expect, test } from "vitest";
import { jsonOutputSchema } from "./json.js";
import { REPO_ROOT } from "../../test/support/memory-io.js";

const DOC = `${REPO_ROOT}packages/assumptions/schemas/report.schema.json`;

// schemas/report.schema.json is generated from the zod schemas; this test keeps it from drifting.
// Regenerate after a deliberate schema change with: UPDATE_REPORT_SCHEMA=1 npx vitest run <this file>
test("schemas/report.schema.json equals the JSON Schema derived from the zod schemas", () => {
  const derived = jsonOutputSchema();
  if (process.env.UPDATE_REPORT_SCHEMA === "1") writeFileSync(DOC, `${JSON.stringify(derived, null, 2)}\n`);
  expect(JSON.parse(readFileSync(DOC, "utf8"))).toEqual(derived);
});

test("the schema names both shapes --json prints: a report and a fault", () => {
  const text = readFileSync(DOC, "utf8");
  for (const field of ["verdict", "checked", "held", "diverged", "rows", "spelled", "fault", "message"]) {
    expect(text).toContain(`"${field}"`);
  }
});
