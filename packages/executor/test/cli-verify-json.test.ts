// `decay preflight --json` and `decay verify --json` (the built bin): one object whose `$schema` is
// the `$id` of a schema the package ships, valid against that schema.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { outputProblems } from "../../../test-utils/json-schema.js";
import { VERIFICATION_SCHEMA_ID } from "../src/index.js";
import { decay, solvedRepo } from "./cli-process.js";
import { fixtureRepo } from "./harness.js";

const SCHEMAS = fileURLToPath(new URL("../schemas", import.meta.url));

describe("decay preflight|verify --json", () => {
  it.each([
    ["preflight", "an unsolved repository", fixtureRepo, 1],
    ["verify", "an unsolved repository", fixtureRepo, 1],
    ["preflight", "a green repository", solvedRepo, 0],
  ] as const)("%s on %s: $schema and version 1 first, valid against the shipped schema", async (command, _what, repoOf, code) => {
    const r = await decay([command, "docs/stats.plan.md", "--json"], await repoOf());
    expect(r.code).toBe(code);
    const output = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(Object.keys(output).slice(0, 3)).toEqual(["$schema", "version", "command"]);
    expect(output).toMatchObject({ $schema: VERIFICATION_SCHEMA_ID, version: 1, command });
    expect(outputProblems(output, SCHEMAS)).toEqual([]);
  });

  it("the schema file shipped in schemas/ has the $id the output names", () => {
    const file = JSON.parse(readFileSync(new URL("../schemas/verification.schema.json", import.meta.url), "utf8")) as { $id: string };
    expect(file.$id).toBe(VERIFICATION_SCHEMA_ID);
  });
});
