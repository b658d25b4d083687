import { describe, expect, test } from "vitest";
import { isOrderingConstraint, orderingFindings } from "./ordering.js";

const plan = (...bullets: string[]) => ["# P", "", "## What not to do", "", ...bullets.map((b) => `- ${b}`), ""].join("\n");

describe("rule 5: the plan's ordering constraints", () => {
  test.each([
    "Do not add the route before Stage 2 is green.",
    "Do not wire the cache after the flag is removed.",
    "Do not wire §48 first.",
    "Do not delete the old table until reads are cut.",
    "Do not change the order of the migrations.",
    "Do not change the ordering of the migrations.",
    "Migrations must run in the order they were ordered.",
    "Run the backfill only once.",
    "Do not reorder the migrations.",
  ])("%s states an order", (text) => {
    expect(isOrderingConstraint(text)).toBe(true);
  });
  test.each(["Do not introduce a second ledger table.", "Do not publish the package."])("%s states no order", (text) => {
    expect(isOrderingConstraint(text)).toBe(false);
  });
  test("an ordering bullet missing from the guardrails is refused verbatim; one kept verbatim is not", () => {
    const text = plan("Do not change the ordering of the migrations.", "Do not add the route before Stage 2.");
    expect(orderingFindings(["Do not add the route before Stage 2."], text)).toEqual([
      { code: "ordering-missing", constraint: "Do not change the ordering of the migrations." },
    ]);
    expect(orderingFindings(["Do not change the ordering of the migrations.", "Do not add the route before Stage 2."], text)).toEqual([]);
  });
  test("without the plan text the rule says it was not checked", () => {
    expect(orderingFindings([], undefined)).toEqual([{ code: "ordering-unchecked" }]);
  });
});
