import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { parseArgs } from "./args.js";

describe("parseArgs", () => {
  test("reads both commands with their options, in any order", () => {
    expect(parseArgs(["compile", "--json", "p.md", "--output=c.md"])._unsafeUnwrap()).toEqual({
      kind: "compile",
      plan: "p.md",
      json: true,
      quiet: false,
      output: "c.md",
    });
    expect(parseArgs(["compile", "-q", "p.md"])._unsafeUnwrap()).toMatchObject({ kind: "compile", quiet: true });
    expect(parseArgs(["import", "t.md", "-o", "s.md"])._unsafeUnwrap()).toEqual({ kind: "import", plan: "t.md", output: "s.md" });
    expect(parseArgs(["check", "--plan", "p.md", "c.md"])._unsafeUnwrap()).toEqual({
      kind: "check",
      file: "c.md",
      json: false,
      format: "text",
      includeOptional: false,
      plan: "p.md",
    });
    expect(parseArgs(["check", "c.md", "--include-optional"])._unsafeUnwrap()).toMatchObject({ kind: "check", includeOptional: true });
    expect(parseArgs(["check", "c.md", "--format=sarif"])._unsafeUnwrap()).toMatchObject({ kind: "check", format: "sarif", json: false });
    expect(parseArgs(["check", "--json", "c.md"])._unsafeUnwrap()).toMatchObject({ format: "json", json: true });
  });
  test("check refuses standard input as both FILE and --plan, naming both", () => {
    expect(parseArgs(["check", "-", "--plan", "-"])._unsafeUnwrapErr().message).toBe(
      "standard input (-) is named twice: as FILE and as --plan; give one of them as a file",
    );
    expect(parseArgs(["check", "-", "--plan", "p.md"])._unsafeUnwrap()).toMatchObject({ file: "-", plan: "p.md" });
  });
  test.each([
    [["compile", "p.md", "-o"]],
    [["check", "c.md", "--plan"]],
    [["compile", "a.md", "b.md"]],
    [["check", "c.md", "-o", "x"]],
    [["check", "c.md", "--quiet"]],
    [["import", "t.md", "--json"]],
  ])("%j is a usage fault", (argv) => {
    expect(parseArgs(argv)._unsafeUnwrapErr().code).toBe("usage");
  });
  test.each([
    [["compile", "p.md", "--nope"], "unknown option --nope"],
    [["compile", "p.md", "-o"], "-o needs a value"],
    [["compile", "p.md", "-o", "a", "--output", "b"], "--output was given more than once"],
    [["compile", "p.md", "--json=1"], '--json takes no value, but was given "1"'],
    [["check", "a.md", "b.md"], 'unexpected argument "b.md"'],
    [["check", "a.md", "--format", "xml"], '--format "xml" is not accepted: expected github, sarif, junit'],
    [["check", "a.md", "--format", "sarif", "--json"], "--json cannot be combined with --format sarif"],
  ])("%j: the shared message", (argv, message) => {
    expect(parseArgs(argv)._unsafeUnwrapErr()).toEqual({ code: "usage", message });
  });
  test("no command is a usage fault, as in the other decay CLIs; `help` asks for the usage", () => {
    expect(parseArgs([])._unsafeUnwrapErr()).toMatchObject({ message: "a command is required: compile, check or import" });
    expect(parseArgs(["help"])._unsafeUnwrap()).toEqual({ kind: "help", topic: "top" });
  });

  test("never throws on any argument list", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string(), fc.constantFrom("compile", "check", "-o", "--plan", "--json", "--help"))), (argv) => void parseArgs(argv)),
    );
  });
});
