// What `decay` prints as one line stays one line, whatever agent or command text it quotes: a
// progress event, the summary's reason, a fault, a refused fix in REPORT.md.
import { compileContract, readPlan } from "@decay/contract";
import { describe, expect, test } from "vitest";
import { renderReportMd } from "../run/report-md.js";
import type { RunReport } from "../schema.js";
import { describeCliFault } from "./fault.js";
import { plainProgress } from "./progress.js";
import { summaryOf } from "./run.js";

const MULTI = "first\nsecond\r\u001b[2Kthird";
const SHOWN = "first\\nsecond\\r\\u001b[2Kthird";

const report: RunReport = {
  version: 1,
  plan: "docs/p.plan.md",
  plan_sha256: "0".repeat(64),
  slug: "p",
  branch: "plan/p",
  status: "incomplete",
  reason: MULTI,
  workspace: ".plan-runs/p",
  start: { commit: "a".repeat(40), green: [] },
  end: { commit: "b".repeat(40), green: [] },
  commits: [],
  set_aside: null,
  stages: [
    {
      ...{ id: "S1", label: "Stage 1", title: "one", optional: false, state: "escalated", final: "red", reason: "refused", attempts: 2 },
      ...{ verified: null, ledger: [], freeze: [], diff: null },
      refused_fixes: [{ attempt: 1, lens: "what-changed", fix: MULTI, reason: "it alters acceptance", diverged: [], commit: null }],
    },
  ],
  falsifiers: [],
  stale: null,
  cost: {
    tokens: { execute: 0, diagnose: 0, adjudicate: 0, fix: 0, verify: 0 },
    total_tokens: 0,
    attempts: 2,
    agent_calls: 0,
    nothing_returned: 0,
    returned_nothing: [],
    wall_ms: 1,
  },
};

describe("one line each, agent and command text escaped", () => {
  test("plain progress: one line per event", async () => {
    let out = "";
    const progress = plainProgress({ write: async (t: string) => void (out += t) }, () => 0);
    progress.event({ type: "escalated", stage: "S1", reason: MULTI });
    progress.event({ type: "set-aside", stash: "c".repeat(40), paths: ["a\nb.txt"] });
    expect(await progress.close()).toBeNull();
    expect(out.split("\n")).toEqual([`[   0.0s] S1 escalated: ${SHOWN}`, expect.stringContaining("a\\nb.txt"), ""]);
  });

  test("the summary ends with the reason on one line", () => {
    expect(summaryOf(report, "/r").split("\n").at(-2)).toBe(`incomplete: ${SHOWN}`);
  });

  test("a fault quoting what git printed is one line", () => {
    const fault = { code: "git-failed", op: "commit", reason: `exit 1: ${MULTI}` } as const;
    expect(describeCliFault({ code: "exec", input: "docs/p.plan.md", fault })).toBe(`docs/p.plan.md: git commit failed: exit 1: ${SHOWN}`);
  });

  test("REPORT.md lists a refused fix on one line", async () => {
    const plan = "# P\n\n## 6. Recommendation (staged)\n\n### Stage 1: one\n\nDo one.\n\nAcceptance: `true` exits 0\n";
    const contract = (await compileContract(readPlan(plan)._unsafeUnwrap(), { planPath: "docs/p.plan.md", planText: plan }))._unsafeUnwrap();
    const md = renderReportMd(report, contract);
    expect(md).toContain(`- attempt 1, lens what-changed: ${SHOWN}\n  - refused: it alters acceptance\n`);
  });
});
