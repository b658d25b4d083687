import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { parseContract } from "../parse-contract.js";
import { compileContract } from "../compile.js";
import { readPlan } from "../plan/read-plan.js";
import { findingLocator } from "./locate.js";

const root = fileURLToPath(new URL("../../../../", import.meta.url));
const read = (path: string) => readFileSync(`${root}${path}`, "utf8");

describe("findingLocator", () => {
  test("in a contract.md: a row's table line, a stage's heading, a setting's front-matter line, else 1", () => {
    const text = read("fixtures/plans/self-check/writes-outward.contract.md");
    const at = findingLocator(text, parseContract(text)._unsafeUnwrap(), true);
    expect(at({ stage: "S1", row: "S1.2" })).toBe(41);
    expect(at({ stage: "S1", row: null })).toBe(24);
    expect(at({ code: "commit-per-stage-off", stage: null, row: null })).toBe(6);
    expect(at({ code: "nothing-verified", stage: null, row: null })).toBe(1);
  });

  test("in a plan: a stage's heading, and each row's own Acceptance line even when one command holds another", async () => {
    const text = read("fixtures/plans/refunds-report.plan.md");
    const contract = (
      await readPlan(text).asyncAndThen((p) => compileContract(p, { planPath: "p.md", planText: new TextEncoder().encode(text) }))
    )._unsafeUnwrap();
    const at = findingLocator(text, contract, false);
    expect(at({ stage: "S1", row: null })).toBe(37);
    expect(at({ stage: "S1", row: "S1.1" })).toBe(44);
    expect(at({ stage: "S1", row: "S1.2" })).toBe(45);
    expect(at({ stage: "S2", row: "S2.2" })).toBe(55);
  });

  test("in a plan: a row's own Acceptance line or list item, not an earlier line that merely mentions its command", async () => {
    const text = [
      "# Plan",
      "",
      "## Recommendation",
      "",
      "### Stage 1: Release",
      "",
      "Run `pnpm vitest run` locally until it is green, then tag.",
      "",
      "Acceptance: `pnpm vitest run` exits 0",
      "",
      "Acceptance:",
      "",
      "- `pnpm vitest run` prints `ok`",
    ].join("\n");
    const contract = (
      await readPlan(text).asyncAndThen((p) => compileContract(p, { planPath: "p.md", planText: new TextEncoder().encode(text) }))
    )._unsafeUnwrap();
    const at = findingLocator(text, contract, false);
    expect(at({ stage: "S1", row: "S1.1" })).toBe(9);
    expect(at({ stage: "S1", row: "S1.2" })).toBe(13);
  });
});
