// A test suite that keeps a plan honest: it fails the moment the plan stops describing the tree.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { checkTree, parseAssumptions, type Report } from "@decay/assumptions";
import { nodeTree } from "@decay/assumptions/node";
import { toHold } from "@decay/assumptions/vitest";
import { describe, expect, test } from "vitest";

expect.extend({ toHold });

const here = (name: string): string => fileURLToPath(new URL(name, import.meta.url));

/** Parses a plan beside this file and checks it against the fixture tree; a fault fails the test. */
async function check(plan: string): Promise<Report> {
  const assumptions = parseAssumptions(readFileSync(here(plan)))._unsafeUnwrap();
  return (await checkTree({ tree: nodeTree(here("fixture")), assumptions }))._unsafeUnwrap();
}

describe("the invoicing plan still describes the fixture tree", () => {
  test("every assumption holds", async () => {
    const report = await check("holds.assumptions.tsv");
    expect(report.checked).toBe(6);
    expect(report).toHold();
  });

  test("a plan the tree moved away from fails, and the message lists each diverged row", async () => {
    const report = await check("decayed.assumptions.tsv");
    expect(report).not.toHold();
    let message = "";
    try {
      expect(report).toHold();
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toContain("but 4 of 5 assumption(s) diverged:");
    for (const row of [
      "line 2: exists src/invoices.ts - ",
      "line 3: absent docs/billing.md - ",
      "line 4: contains src/billing.ts - ",
      "line 5: lacks src/billing.ts - ",
    ]) {
      expect(message).toContain(row);
    }
    expect(message).not.toContain("line 6:");
  });
});
