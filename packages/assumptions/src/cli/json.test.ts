import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { outputProblems } from "../../../../test-utils/json-schema.js";
import type { Report } from "./gate.js";
import { JsonOutput, REPORT_SCHEMA_ID, renderJsonFault, renderJsonReport } from "./json.js";
import { vetReport } from "./vet.js";

const row = { line: 3, kind: "exists" as const, path: "src/a.ts", status: "hold" as const, detail: "present" };
const good: Report = { verdict: "holds", root: "t", checked: 1, held: 1, diverged: 0, rows: [row] };

describe("vetReport: a report that contradicts itself is never printed", () => {
  test("a consistent report passes unchanged", () => {
    expect(vetReport(good)._unsafeUnwrap()).toBe(good);
  });

  test.each([
    ["no rows", { ...good, checked: 0, held: 0, rows: [] }],
    ["counts that do not match the rows", { ...good, held: 0, diverged: 1 }],
    ["holds while a row diverges", { ...good, held: 0, diverged: 1, rows: [{ ...row, status: "diverge" as const }] }],
    ["diverged while every row holds", { ...good, verdict: "diverged" as const }],
  ])("%s is report-invalid", (_name, report) => {
    expect(vetReport(report)._unsafeUnwrapErr().code).toBe("report-invalid");
  });
});

describe("JSON output", () => {
  const envelope = { $schema: REPORT_SCHEMA_ID, version: 1 };

  test("a report is printed as JSON that parses back to itself, after its $schema and format version", () => {
    const text = renderJsonReport(good)._unsafeUnwrap();
    expect(JsonOutput.parse(JSON.parse(text))).toEqual({ ...envelope, ...good });
    expect(Object.keys(JSON.parse(text)).slice(0, 2)).toEqual(["$schema", "version"]);
  });

  test("a report and a fault name a shipped schema by its $id and validate against it", () => {
    const schemas = fileURLToPath(new URL("../../schemas", import.meta.url));
    expect(outputProblems(JSON.parse(renderJsonReport(good)._unsafeUnwrap()), schemas)).toEqual([]);
    expect(outputProblems(JSON.parse(renderJsonFault("unknown-kind", "line 2: x", 2)), schemas)).toEqual([]);
  });

  test("a report outside the schema is refused, not printed", () => {
    const bad = { ...good, rows: [{ ...row, line: 0 }] };
    expect(renderJsonReport(bad)._unsafeUnwrapErr().code).toBe("report-invalid");
  });

  test("a fault carries code, message and its line only when it has one", () => {
    expect(JSON.parse(renderJsonFault("plan-empty", "no rows", undefined))).toEqual({ ...envelope, fault: { code: "plan-empty", message: "no rows" } });
    expect(JSON.parse(renderJsonFault("unknown-kind", "line 2: x", 2))).toEqual({
      ...envelope,
      fault: { code: "unknown-kind", message: "line 2: x", line: 2 },
    });
  });
});
