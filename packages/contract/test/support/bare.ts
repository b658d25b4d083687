// A contract with the given stages and nothing else: the smallest one a test can render and parse.
import type { Contract, Stage } from "../../src/model.js";

/** A contract holding only `stages` (plan `p.md`, fresh state `head`, no guardrails or falsifiers). */
export const bareContract = (stages: Stage[]): Contract => ({
  plan: "p.md",
  plan_sha256: "a".repeat(64),
  fresh_state: "head",
  commit_per_stage: true,
  guardrails: [],
  falsifiers: [],
  stages,
});
