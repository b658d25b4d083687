import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { checklist, checkOrder, nextStep } from "./next-step.js";
import { readTaskPlan } from "./plan.js";
import { parseRecord } from "./record.js";

const sample = readFileSync(new URL("../../../../fixtures/plans/task-plan-with-record.plan.md", import.meta.url), "utf8");
const plan = readTaskPlan(sample)._unsafeUnwrap();
const base = "Base: 3f9c2a7e1b4d8f6a0c5e9b2d7f1a4c8e6b3d0f92 Root: /srv/service Branch: export-rate-limit";
const doneAll = [1, 2, 3].map((n) => `Task ${n}: done - pnpm test -> ok`);
const step = (lines: string[], spec = "Status: approved", invocation?: "/" | "$") => {
  const record = parseRecord(`## Execution record\n\n\`\`\`text\n${[base, ...lines].join("\n")}\n\`\`\`\n`)._unsafeUnwrap();
  return nextStep({ plan, record, spec, ...(invocation ? { invocation } : {}) });
};

describe("nextStep: the first matching row of the report table", () => {
  it("a task's conflicting intent with the spec back to draft: specify, naming the decision", () => {
    const lines = [
      "Task 1: done - t -> ok",
      "Ruling: Task 2 needs per-route limits - the spec fixes one global limit - high, a contract change",
      "Task 2: blocked - conflicting intent: spec docs/specs/export-rate-limit.md back to draft",
    ];
    expect(step(lines, "Status: draft")).toBe(
      "Next step: specify - the decision Task 2 would change: Task 2 needs per-route limits - the spec fixes one global limit - high, a contract change",
    );
  });

  it("a draft spec: specify, awaiting approval", () => {
    expect(step(["Task 1: pending"], "Status: draft")).toBe("Next step: specify - docs/specs/export-rate-limit.md is a draft, awaiting approval");
  });

  it("a blocked task, an open Ruling awaiting the user, or an Outward task after a full PASS: none - awaiting user", () => {
    expect(step(["Task 1: blocked - missing credentials: <API_TOKEN>"])).toBe("Next step: none - awaiting user");
    expect(step(["Ruling: awaiting user - backoff or fail fast - both fit - outages"])).toBe("Next step: none - awaiting user");
    expect(step([...doneAll, "Verify: PASS full tree 4b825dc6 2026-11-30 14:05"])).toBe("Next step: none - awaiting user");
  });

  it("a loop the Round rule stopped: none - the cause, awaiting user", () => {
    const lines = ["Task 2: in progress - started at 9b1e44c", "Round task-2 1: a", "Round task-2 2: b", "Round task-2 3: c"];
    expect(step(lines)).toBe("Next step: none - task-2: the limit of 3 automatic rounds is reached, awaiting user");
  });

  it("a round limit the user gave stops an unfinished task's loop at that count, with Round lines or none: 0 allows no automatic round", () => {
    const at = (limit: number, lines: string[]) => {
      const record = parseRecord(`## Execution record\n\n\`\`\`text\n${[base, ...lines].join("\n")}\n\`\`\`\n`)._unsafeUnwrap();
      return nextStep({ plan, record, spec: "Status: approved", limit });
    };
    expect(at(0, ["Task 1: pending"])).toBe("Next step: none - task-1: the limit of 0 automatic rounds is reached, awaiting user");
    expect(at(0, ["Task 1: done - t -> ok"])).toBe("Next step: none - task-2: the limit of 0 automatic rounds is reached, awaiting user");
    expect(at(1, ["Task 1: done - t -> ok", "Round task-2 1: a"])).toBe("Next step: none - task-2: the limit of 1 automatic rounds is reached, awaiting user");
    expect(at(1, ["Task 1: pending"])).toBe("Next step: implement - Task 1 is pending");
    expect(at(0, [...doneAll, "Task 4: done - t -> ok"])).toBe("Next step: verify - all tasks done, check the tree");
  });

  it("a failing claim no task covers: plan-craft with the claim", () => {
    expect(step([...doneAll, "Task 4: done - grep -> ok", "Verify: FAIL full tree 4b825dc6 2026-11-30 14:05", "Round verify 1: AC9 not met"])).toBe(
      "Next step: plan-craft - AC9",
    );
  });

  it("every task done but an Outward one still waiting for a full PASS: verify", () => {
    expect(step(doneAll)).toBe("Next step: verify - all tasks done, check the tree");
  });

  it("work left: implement, naming the next task in dependency order", () => {
    expect(step(["Task 1: done - t -> ok", "Task 2: in progress - started at 9b1e44c"])).toBe("Next step: implement - Task 2 is in progress");
  });

  it("names the skill in the host's invocation form; none stays plain", () => {
    expect(step(doneAll, "Status: approved", "/")).toBe("Next step: `/verify` - all tasks done, check the tree");
    expect(step(["Task 1: pending"], "Status: draft", "$")).toBe("Next step: `$specify` - docs/specs/export-rate-limit.md is a draft, awaiting approval");
    expect(step(["Task 1: blocked - product ambiguity: which limit"], "Status: approved", "/")).toBe("Next step: none - awaiting user");
  });
});

describe("checklist", () => {
  it("lists every task with its number and title, [x] when done, the state otherwise", () => {
    expect(checklist(plan, parseRecord(sample)._unsafeUnwrap())).toEqual([
      "- [x] Task 1: token bucket",
      "- [ ] Task 2: middleware (in progress)",
      "- [ ] Task 3: wire the export route (pending)",
      "- [ ] Task 4: announce the limit (pending)",
    ]);
  });

  it("orders tasks after the tasks they consume from, keeping their numbers", () => {
    const p = readTaskPlan("## Task 1: route\nConsumes: `mw()` from Task 2\n## Task 2: middleware\nProduces: `mw()`\n## Task 3: docs\n")._unsafeUnwrap();
    expect(checkOrder(p)).toEqual([2, 1, 3]);
    expect(checklist(p, parseRecord("")._unsafeUnwrap())).toEqual([
      "- [ ] Task 2: middleware (pending)",
      "- [ ] Task 1: route (pending)",
      "- [ ] Task 3: docs (pending)",
    ]);
  });
});
