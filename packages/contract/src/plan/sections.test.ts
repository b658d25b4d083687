// Guardrails and falsifiers keep every item verbatim; code in their sections is kept too, with the
// item it belongs to, never dropped.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { readPlan } from "./read-plan.js";

const stages = ["## Recommendation", "", "### Stage 1: A", "", "Acceptance: `echo a` exits 0", ""];
const guardrails = (...lines: string[]) => readPlan(["# Plan", "", "## What not to do", "", ...lines, "", ...stages].join("\n"))._unsafeUnwrap().prohibitions;

describe("code in a guardrails or falsifiers section", () => {
  test("a fenced block after a blank line belongs to the item before it, fences kept", () => {
    expect(guardrails("- Never run this against prod:", "", "```sh", 'psql prod -c "DROP TABLE ledger"', "```")).toEqual([
      'Never run this against prod:\n\n```sh\npsql prod -c "DROP TABLE ledger"\n```',
    ]);
  });
  test("an indented block after a paragraph belongs to it; the next bullet is an item of its own", () => {
    expect(guardrails("Never run:", "", "    rm -rf /srv/data", "", "- Do not skip review.")).toEqual([
      "Never run:\n\n    rm -rf /srv/data",
      "Do not skip review.",
    ]);
  });
  test("code with no item before it (under the heading, a sub-heading or a comment) is an item of its own, verbatim", () => {
    expect(guardrails("```sh", "make deploy-prod", "```")).toEqual(["```sh\nmake deploy-prod\n```"]);
    expect(guardrails("- a", "", "#### Commands", "", "    kubectl delete ns prod")).toEqual(["a", "    kubectl delete ns prod"]);
    expect(guardrails("- a", "", "<!-- examples -->", "", "~~~", "drop", "~~~")).toEqual(["a", "~~~\ndrop\n~~~"]);
  });
  test("a fence holding blank lines stays one block in its item", () => {
    expect(guardrails("- Not this:", "", "```", "one", "", "", "two", "```", "", "- b")).toEqual(["Not this:\n\n```\none\n\n\ntwo\n```", "b"]);
  });
  test("falsifiers keep code the same way", () => {
    const text = ["# Plan", "", ...stages, "## What would change the answer", "", "- If this prints rows:", "", "```sql", "select 1;", "```"].join("\n");
    expect(readPlan(text)._unsafeUnwrap().falsifiers).toEqual(["If this prints rows:\n\n```sql\nselect 1;\n```"]);
  });

  // A section built of blocks separated by blank lines: every line of code and text is in an item.
  const block = fc.oneof(
    fc
      .constantFrom("- bullet one", "1. numbered", "A paragraph.", "<!-- note -->", "#### Sub", "---")
      .map((t) => ({ lines: [t], kept: !/^(<!--|####|---)/.test(t) })),
    fc
      .array(fc.constantFrom("cmd --flag", "", "DROP TABLE x;"), { minLength: 1, maxLength: 3 })
      .map((body) => ({ lines: ["```", ...body, "```"], kept: true })),
    fc.constantFrom("    indented code", "    rm -rf /").map((t) => ({ lines: [t], kept: true })),
  );
  test("no line of code or text in a guardrails section is dropped", () => {
    fc.assert(
      fc.property(fc.array(block, { minLength: 1, maxLength: 6 }), (blocks) => {
        const lines = blocks.flatMap((b) => [...b.lines, ""]);
        const items = guardrails(...lines).join("\n");
        for (const b of blocks) {
          if (!b.kept) continue;
          for (const l of b.lines) if (l.trim() !== "") expect(items).toContain(l.trim().replace(/^(?:- |1\. )/, ""));
        }
      }),
      { numRuns: 500 },
    );
  });
});
