import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { compileContract } from "../compile.js";
import { planDrift } from "../drift.js";
import type { Contract } from "../model.js";
import { parseContract } from "../parse-contract.js";
import { readPlan } from "../plan/read-plan.js";
import { selfCheck } from "./check.js";

const dir = fileURLToPath(new URL("../../../../fixtures/plans/", import.meta.url));
const refunds = readFileSync(join(dir, "refunds-report.plan.md"));
const trips = readdirSync(join(dir, "self-check"))
  .filter((f) => f.endsWith(".contract.md"))
  .map((f) => f.slice(0, -".contract.md".length));

const load = (name: string): Contract => parseContract(readFileSync(join(dir, "self-check", `${name}.contract.md`), "utf8"))._unsafeUnwrap();

describe("self-check fixtures: one contract per rule", () => {
  test("there is a tripping contract for every refusing rule", () => {
    expect(trips.sort()).toEqual([
      "commit-per-stage-off",
      "no-acceptance",
      "nothing-verified",
      "ordering-missing",
      "plan-drift",
      "review-note",
      "weak-row",
      "worktree",
      "writes-outward",
    ]);
  });
  test.each(trips)("%s reports exactly its expected findings", (name) => {
    const contract = load(name);
    const findings = [...selfCheck(contract, { planText: refunds }), ...planDrift(contract, refunds)];
    const expected: unknown = JSON.parse(readFileSync(join(dir, "self-check", `${name}.findings.json`), "utf8"));
    expect(findings.map(({ message: _m, ...rest }) => rest)).toEqual(expected);
    for (const f of findings) expect(f.message.length).toBeGreaterThan(20);
  });
});

describe("self-check rules", () => {
  test("without the plan text the ordering rule is a warning that says it was not checked", () => {
    const findings = selfCheck(load("weak-row"));
    expect(findings.map((f) => [f.code, f.severity])).toContainEqual(["ordering-unchecked", "warn"]);
    expect(findings.find((f) => f.code === "ordering-unchecked")?.message).toMatch(/not checked/);
  });
  test("a contract with asserted output, a commit per stage and the plan's ordering guardrails has no finding", () => {
    const contract = load("weak-row");
    const clean: Contract = {
      ...contract,
      stages: contract.stages.map((s) => ({
        ...s,
        acceptance: s.acceptance.map((r) => ({ ...r, expect: { ...r.expect, stdout_contains: ["Tests  50 passed"] } })),
      })),
    };
    expect(selfCheck(clean, { planText: refunds })).toEqual([]);
  });
  test("an outward write names what it found", () => {
    const [f] = selfCheck(load("writes-outward"), { planText: refunds });
    expect(f?.message).toContain("git push");
  });
  test("a plan whose bytes changed drifts; the same bytes as a string do not", () => {
    const contract = load("weak-row");
    expect(planDrift(contract, refunds.toString("utf8"))).toEqual([]);
    expect(planDrift(contract, `${refunds.toString("utf8")} `)[0]?.code).toBe("plan-drift");
  });
  test("a test runner asserted by exit code alone is weak; with a count it is not", () => {
    const codes = selfCheck(load("weak-row"), { planText: refunds }).map((f) => f.row);
    expect(codes).toEqual(["S1.1"]);
  });
  test("an optional stage with no row passes unless the run includes optional stages; then it is refused by name", async () => {
    const text =
      "# Plan: x\n\n## 6. Recommendation (staged)\n\n### Stage 1: thing\n\nAcceptance: `true` exits 0\n\n### Stage 2 (optional): cache\n\nDo a thing.\n";
    const contract = (await compileContract(readPlan(text)._unsafeUnwrap(), { planPath: "docs/op.plan.md", planText: text }))._unsafeUnwrap();
    expect(contract.stages.map((s) => [s.id, s.optional, s.acceptance.length])).toEqual([
      ["S1", false, 1],
      ["S2", true, 0],
    ]);
    expect(selfCheck(contract, { planText: text }).filter((f) => f.severity === "refuse")).toEqual([]);
    const refused = selfCheck(contract, { planText: text, includeOptional: true }).filter((f) => f.severity === "refuse");
    expect(refused.map((f) => [f.code, f.stage, f.row])).toEqual([["no-acceptance", "S2", null]]);
    expect(refused[0]?.message).toBe(
      "stage Stage 2 (line 9, S2) is optional, the run includes optional stages (includeOptional, --include-optional), and has no acceptance row: it would be green by default (give it an acceptance row, or run without optional stages)",
    );
  });
});
