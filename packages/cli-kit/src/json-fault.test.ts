import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { jsonAsked, jsonFaultLine } from "./json-fault.js";

describe("jsonAsked: --json before --, read from the raw words", () => {
  test.each([
    [["preflight", "--json", "--nope", "p.md"], true],
    [["--json", "journal"], true],
    [["preflight", "p.md"], false],
    [["preflight", "--", "--json"], false],
    [["preflight", "--json=yes"], false],
  ])("%j: %s", (argv, asked) => {
    expect(jsonAsked(argv)).toBe(asked);
  });
});

describe("jsonFaultLine", () => {
  test("one line of JSON: $schema, version 1, then the fault's code and message", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.string({ minLength: 1 }), (code, message) => {
        const line = jsonFaultLine("https://example.invalid/s.json", { code, message });
        expect(line.endsWith("\n")).toBe(true);
        expect(line.slice(0, -1)).not.toContain("\n");
        const value = JSON.parse(line) as Record<string, unknown>;
        expect(Object.keys(value)).toEqual(["$schema", "version", "fault"]);
        expect(value).toEqual({ $schema: "https://example.invalid/s.json", version: 1, fault: { code, message } });
      }),
    );
  });
  test("a cause, when given, follows the message; none is written when none is given", () => {
    const fault = (cause?: string) => JSON.parse(jsonFaultLine("s", { code: "exec", message: "m", ...(cause === undefined ? {} : { cause }) })).fault;
    expect(Object.keys(fault("dirty-tree"))).toEqual(["code", "message", "cause"]);
    expect(fault("dirty-tree")).toEqual({ code: "exec", message: "m", cause: "dirty-tree" });
    expect(Object.keys(fault())).toEqual(["code", "message"]);
  });
});
