import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { compileContract } from "./compile.js";
import { parseContract } from "./parse-contract.js";
import { readPlan } from "./plan/read-plan.js";
import { renderContract } from "./render.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const dir = join(root, "fixtures/plans");
const json = (path: string): unknown => JSON.parse(readFileSync(path, "utf8"));

function plansIn(sub: string): string[] {
  return readdirSync(join(dir, sub))
    .filter((f) => f.endsWith(".plan.md"))
    .map((f) => join(sub, f.slice(0, -".plan.md".length)));
}

const all = [...plansIn("."), ...plansIn("malformed")];
const withContract = all.filter((p) => readdirSync(join(dir, p, "..")).includes(`${p.split("/").pop()}.contract.json`));
const withFault = all.filter((p) => readdirSync(join(dir, p, "..")).includes(`${p.split("/").pop()}.fault.json`));

describe("fixture plans", () => {
  test("every fixture plan has exactly one expectation: a contract or a fault", () => {
    expect(withContract.length).toBeGreaterThanOrEqual(6);
    expect(withFault.length).toBeGreaterThanOrEqual(6);
    expect([...withContract, ...withFault].sort()).toEqual([...all].sort());
  });

  test.each(withContract)("%s compiles to the hand-written contract, which round-trips through contract.md", async (name) => {
    const planPath = `fixtures/plans/${name.replace(/^\.\//, "")}.plan.md`;
    const planText = readFileSync(join(root, planPath));
    const plan = readPlan(planText.toString("utf8"))._unsafeUnwrap();
    const contract = (await compileContract(plan, { planPath, planText }))._unsafeUnwrap();
    expect(contract).toEqual(json(join(dir, `${name}.contract.json`)));
    const md = renderContract(contract);
    expect(parseContract(md)._unsafeUnwrap()).toEqual(contract);
  });

  test.each(withFault)("%s is refused with the expected fault", (name) => {
    const result = readPlan(readFileSync(join(dir, `${name}.plan.md`), "utf8"));
    expect(result.isErr() ? result.error : result.value).toEqual(json(join(dir, `${name}.fault.json`)));
  });
});
