// A run report as a run writes it, for the tests of `decay report`.
import { RUN_REPORT_SCHEMA_ID } from "../src/schema.js";

/** A report as a run writes it (`$schema` first). */
export const REPORT = {
  $schema: RUN_REPORT_SCHEMA_ID,
  version: 1,
  plan: "docs/p.plan.md",
  plan_sha256: "0".repeat(64),
  slug: "p",
  branch: "plan/p",
  status: "green",
  reason: null,
  workspace: ".plan-runs/p",
  start: { commit: "a".repeat(40), green: [] },
  end: { commit: "b".repeat(40), green: ["S1"] },
  commits: [],
  set_aside: null,
  stages: [
    {
      ...{ id: "S1", label: "Stage 1", title: "one", optional: false, state: "green", final: "green", reason: null, attempts: 1 },
      ...{ verified: null, ledger: [], freeze: [], diff: null, refused_fixes: [] },
    },
  ],
  falsifiers: [],
  stale: null,
  cost: {
    tokens: { execute: 0, diagnose: 0, adjudicate: 0, fix: 0, verify: 0 },
    ...{ total_tokens: 0, attempts: 1, agent_calls: 1, nothing_returned: 0, returned_nothing: [], wall_ms: 1 },
  },
};
