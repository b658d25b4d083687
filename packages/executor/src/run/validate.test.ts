import type { Contract } from "@decay/contract";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { stageOrder, validContract } from "./validate.js";

const stage = (id: string, depends_on: string[], optional = false) => ({
  id,
  label: `Stage ${id.slice(1)}`,
  title: id,
  instructions: "",
  exit_criterion: null,
  acceptance: [{ id: `${id}.1`, run: "true", expect: { exit: 0, stdout_contains: [], stdout_matches: [], count: [] } }],
  depends_on,
  optional,
});
const contract = (stages: ReturnType<typeof stage>[]): Contract => ({
  plan: "p.md",
  plan_sha256: "0".repeat(64),
  fresh_state: "head",
  commit_per_stage: true,
  guardrails: [],
  falsifiers: [],
  stages,
});

describe("validContract", () => {
  it("refuses a depends_on naming no stage", () => {
    expect(validContract(contract([stage("S1", ["S9"])]))._unsafeUnwrapErr()).toEqual({ code: "depends-unknown", stage: "S1", ref: "S9" });
  });
  it("refuses a cycle, naming the stages on it", () => {
    const c = contract([stage("S1", ["S3"]), stage("S2", ["S1"]), stage("S3", ["S2"])]);
    expect(validContract(c)._unsafeUnwrapErr()).toEqual({ code: "depends-cycle", stages: ["S1", "S3", "S2", "S1"] });
  });
  it("refuses what the schema refuses, naming the field", () => {
    const bad = { ...contract([stage("S1", [])]), plan_sha256: "xyz" };
    expect(validContract(bad)._unsafeUnwrapErr()).toMatchObject({ code: "contract-invalid", issue: expect.stringContaining("plan_sha256") });
  });
  it("orders any acyclic contract so every stage comes after its dependencies", () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.nat(), { maxLength: 3 }), { minLength: 1, maxLength: 8 }), (raw) => {
        // Dependencies only on lower numbers: acyclic by construction, listed in a shuffled order.
        const stages = raw.map((deps, k) => stage(`S${k + 1}`, [...new Set(deps.filter((d) => d < k).map((d) => `S${d + 1}`))]));
        const shuffled = [...stages].reverse();
        const ordered = stageOrder(validContract(contract(shuffled))._unsafeUnwrap());
        expect(ordered).toHaveLength(stages.length);
        const at = new Map(ordered.map((s, i) => [s.id, i]));
        for (const s of ordered) for (const d of s.depends_on) expect(at.get(d)).toBeLessThan(at.get(s.id) as number);
      }),
    );
  });
});
