import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CLI_FAULT_CODES } from "../../src/cli/journal-fault.js";
import { JOURNAL_FAULT_CODES } from "../../src/journal/fault.js";
import { parseRecord } from "../../src/journal/record.js";
import { readTaskPlan } from "../../src/journal/plan.js";
import { checklist } from "../../src/journal/next-step.js";

const read = (path: string) => readFileSync(new URL(`../../../../${path}`, import.meta.url), "utf8");
const doc = read("docs/journal.md");
const textBlocks = [...doc.matchAll(/^```text\n([\s\S]*?)^```$/gm)].map((m) => m[1] ?? "");
const asRecord = (block: string) => parseRecord(`## Execution record\n\n\`\`\`text\n${block}\`\`\`\n`);

describe("docs/journal.md says what the code does", () => {
  it("every example block reads as record lines, and the grammar example shows every kind but blank", () => {
    const records = textBlocks.filter((b) => !b.startsWith("- [")).map((b) => asRecord(b)._unsafeUnwrap());
    expect(records.length).toBeGreaterThanOrEqual(6);
    const kinds = new Set(records[0]?.entries.map((e) => e.value.kind));
    expect([...kinds].sort()).toEqual(["base", "commits", "deferred", "dirty", "finding", "received", "review", "round", "ruling", "task", "verify"]);
  });

  it("the checklist example is the sample plan's checklist", () => {
    const sample = read("fixtures/plans/task-plan-with-record.plan.md");
    const example = textBlocks.find((b) => b.startsWith("- ["));
    const list = checklist(readTaskPlan(sample)._unsafeUnwrap(), parseRecord(sample)._unsafeUnwrap());
    expect(example).toBe(`${list.slice(0, 3).join("\n")}\n`);
  });

  it("names every journal fault and every CLI fault", () => {
    for (const code of [...JOURNAL_FAULT_CODES, ...CLI_FAULT_CODES]) {
      expect(doc).toContain(`\`${code}\``);
    }
  });
});
