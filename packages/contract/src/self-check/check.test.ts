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
  test("a plan whose every stage is optional verifies nothing unless the run includes them: refused, however many rows they hold", async () => {
    const text =
      "# Plan: x\n\n## 6. Recommendation (staged)\n\n### Stage 1 (optional): sum\n\nAcceptance: `node t.mjs` exits 0\n\n### Stage 2 (optional): cache\n\nAcceptance: `true` exits 0\n";
    const contract = (await compileContract(readPlan(text)._unsafeUnwrap(), { planPath: "docs/op.plan.md", planText: text }))._unsafeUnwrap();
    const refused = selfCheck(contract, { planText: text }).filter((f) => f.severity === "refuse");
    expect(refused.map((f) => [f.code, f.stage, f.row])).toEqual([["nothing-verified", null, null]]);
    expect(refused[0]?.message).toContain("every stage is optional and the run leaves optional stages out");
    expect(refused[0]?.message).toContain("2 optional stage(s) hold acceptance rows");
    expect(selfCheck(contract, { planText: text, includeOptional: true }).filter((f) => f.severity === "refuse")).toEqual([]);
  });
});

describe("rule 8: a stage heading Markdown reads as code or a comment is named", () => {
  const compiled = async (text: string) => (await compileContract(readPlan(text)._unsafeUnwrap(), { planPath: "p.plan.md", planText: text }))._unsafeUnwrap();
  const stage1 = ["# Plan: x", "", "## Stages", "", "### Stage 1: a", "", "Acceptance: `true` exits 0", ""];
  test("fences that pair up wrongly hide a stage with every block closed: warned, with its line", async () => {
    // The sh fence was left open: the js block's opener is code inside it, and the js block's closer
    // closes it, so the stage between is code and every block is closed.
    const text = [...stage1, "```sh", "npm test", "", "### Stage 2: b", "", "Acceptance: `npm run b` exits 0", "", "```js", "x()", "```", ""].join("\n");
    const contract = await compiled(text);
    expect(contract.stages.map((s) => s.label)).toEqual(["Stage 1"]);
    const found = selfCheck(contract, { planText: text }).filter((f) => f.code === "hidden-stage");
    expect(found.map((f) => [f.severity, f.stage, f.row])).toEqual([["warn", null, null]]);
    expect(found[0]?.message).toBe(
      'line 12 of the plan, "### Stage 2: b", is a stage heading inside a code block, which Markdown reads as code: no stage is made of it; if it is one, close the block above it, and if it is an example, mark it <!-- decay: prose -->',
    );
  });
  test("in an HTML comment: warned; without the plan's text nothing is checked", async () => {
    const text = [...stage1, "<!--", "### Stage 2: b", "-->", ""].join("\n");
    const contract = await compiled(text);
    const found = selfCheck(contract, { planText: text }).filter((f) => f.code === "hidden-stage");
    expect(found.map((f) => f.message.split(": no stage")[0])).toEqual(['line 10 of the plan, "### Stage 2: b", is a stage heading inside an HTML comment']);
    expect(selfCheck(contract).some((f) => f.code === "hidden-stage")).toBe(false);
  });
  test("a marker covers the one block right under it: a block after it, past blank lines, is still checked", async () => {
    const example = ["<!-- decay: prose -->", "```md", "### Stage 9: an example", "```", ""];
    const wrong = ["```sh", "npm test", "", "### Stage 2: b", "", "Acceptance: `npm run b` exits 0", "", "```js", "x()", "```", ""];
    const text = [...stage1, ...example, ...wrong].join("\n");
    const found = selfCheck(await compiled(text), { planText: text }).filter((f) => f.code === "hidden-stage");
    expect(found.map((f) => f.plan_line)).toEqual([17]);
  });
  test("a comment of the code's own language at another level (`# Stage 1: build` in a Dockerfile) is no stage heading", async () => {
    const text = [...stage1, "```dockerfile", "# Stage 1: build", "FROM node:20 AS build", "# Step 2: run", "FROM node:20-slim", "```", ""].join("\n");
    expect(selfCheck(await compiled(text), { planText: text }).filter((f) => f.code === "hidden-stage")).toEqual([]);
  });
  test("an example marked prose, other code and a stage heading outside any block: no warning", async () => {
    const text = [
      ...stage1,
      "<!-- decay: prose -->",
      "```md",
      "### Stage 9: an example",
      "```",
      "",
      "Then:",
      "",
      "```sh",
      "# install the deps",
      "npm ci",
      "```",
      "",
    ].join("\n");
    expect(selfCheck(await compiled(text), { planText: text }).filter((f) => f.code === "hidden-stage")).toEqual([]);
  });
});
