// A heading or a bold label that negates (`#### Do not`) is the first words of every item under it:
// `- deploy on Fridays` under `#### Do not` is a prohibition, and read alone it says the opposite.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { describeFault } from "../fault.js";
import { readPlan } from "./read-plan.js";

const read = (...lines: string[]) => readPlan(lines.join("\n"))._unsafeUnwrap();
const stage = ["# Plan", "", "## Recommendation", "", "### Stage 1: Ship", "", "Ship the release."];
const row = ["", "Acceptance: `true` exits 0"];

describe("a negating heading over guardrails", () => {
  test("`#### Do not` in a stage: the guardrail says not to deploy on Fridays", () => {
    const p = read(...stage, "", "#### Do not", "", "- deploy on Fridays", ...row);
    expect(p.prohibitions).toEqual(["Do not\ndeploy on Fridays"]);
    expect(p.stages[0]?.acceptance.map((r) => r.run)).toEqual(["true"]);
  });
  test("every item of the list, numbered or bulleted, and a paragraph, keeps the words", () => {
    expect(read(...stage, "", "#### Do not:", "1. deploy on Fridays", "2. skip the dry run", ...row).prohibitions).toEqual([
      "Do not:\ndeploy on Fridays",
      "Do not:\nskip the dry run",
    ]);
    expect(read("## Don't", "", "deploy on Fridays.", "", ...stage, ...row).prohibitions).toEqual(["Don't\ndeploy on Fridays."]);
    expect(read(...stage, "", "#### Things we do not do", "- deploy on Fridays", ...row).prohibitions).toEqual(["Things we do not do\ndeploy on Fridays"]);
  });
  test("a nested condition stays inside its item, under the words", () => {
    const p = read(...stage, "", "#### Do not", "- drop the old column", "  - until the backfill has run", ...row);
    expect(p.prohibitions).toEqual(["Do not\ndrop the old column\n  - until the backfill has run"]);
  });
  test("code with no item before it is never a bare command to run", () => {
    const p = read(...stage, "", "#### Do not", "", "```sh", "kubectl delete ns prod", "```", ...row);
    expect(p.prohibitions).toEqual(["Do not\n```sh\nkubectl delete ns prod\n```"]);
  });
  test("a bold label alone: `**Do not**` over a list", () => {
    expect(read(...stage, "", "**Do not**", "", "- deploy on Fridays", ...row).prohibitions).toEqual(["**Do not**\ndeploy on Fridays"]);
    expect(read("**Don't**", "- deploy on Fridays", "", ...stage, ...row).prohibitions).toEqual(["**Don't**\ndeploy on Fridays"]);
  });
  test("a negating sub-heading inside a guardrails section leads the items under it, and only those", () => {
    const p = read("## Guardrails", "", "- Keep the old column.", "", "### Do not", "", "- deploy on Fridays", "", ...stage, ...row);
    expect(p.prohibitions).toEqual(["Keep the old column.", "Do not\ndeploy on Fridays"]);
    const q = read("## Do not", "", "### Deploys", "", "- on Fridays", "", "## Notes", "", "- fine", "", ...stage, ...row);
    expect(q.prohibitions).toEqual(["Do not\non Fridays"]);
  });
  test("a negating label inside a prohibitions section leads its block, and is no item of its own", () => {
    const p = read("## What not to do", "", "- Rewrite the parser.", "", "**Do not**", "", "- deploy on Fridays", "", ...stage, ...row);
    expect(p.prohibitions).toEqual(["Rewrite the parser.", "**Do not**\ndeploy on Fridays"]);
  });
  test("an item that says not to on its own is read as written; the others under the words", () => {
    const own = [
      "Do not delete the memory store.",
      "Never run this against prod.",
      "No deploys on Fridays.",
      "[ ] Do not skip review.",
      "[x] Never force-push.",
    ];
    const others = ["skip review", "No-op the migration"];
    const p = read("## Do not", "", ...[...own, ...others].map((t) => `- ${t}`), "", ...stage, ...row);
    expect(p.prohibitions).toEqual([...own, ...others.map((t) => `Do not\n${t}`)]);
  });
  test("a section's name is no words of its items; an inline negating label is its item as written", () => {
    expect(read("## What not to do", "- Deploy on Fridays.", "## Non-goals", "- SSO.", ...stage, ...row).prohibitions).toEqual(["Deploy on Fridays.", "SSO."]);
    expect(read("**Do not:** skip the dry run.", "", ...stage, ...row).prohibitions).toEqual(["**Do not:** skip the dry run."]);
  });

  test("`Never`, `Must not`, `Avoid` open a prohibitions section, as a heading, a label or an inline label", () => {
    expect(read("## Never", "", "- deploy on Fridays", "", ...stage, ...row).prohibitions).toEqual(["Never\ndeploy on Fridays"]);
    expect(read(...stage, "", "#### Must not", "- skip the dry run", ...row).prohibitions).toEqual(["Must not\nskip the dry run"]);
    expect(read(...stage, "", "#### Things to avoid", "- deploying on Fridays", ...row).prohibitions).toEqual(["Things to avoid\ndeploying on Fridays"]);
    expect(read("**Avoid**", "- deploying on Fridays", "", ...stage, ...row).prohibitions).toEqual(["**Avoid**\ndeploying on Fridays"]);
    expect(read("**Never:** deploy on Fridays.", "", ...stage, ...row).prohibitions).toEqual(["**Never:** deploy on Fridays."]);
  });
  test("a heading that only mentions never is no prohibitions section", () => {
    expect(read("## Things that never change", "", "- The public API.", "", ...stage, ...row).prohibitions).toEqual([]);
  });

  test("a guardrails or falsifiers heading inside a block quote or a list item is refused at its line: it opens no section", () => {
    const fault = (...lines: string[]) => readPlan(lines.join("\n"))._unsafeUnwrapErr();
    const quoted = fault("# Plan", "", "> ## Do not", "> - deploy on Fridays", "", ...stage.slice(2), ...row);
    expect(quoted).toEqual({ code: "structure-unread", line: 3, kind: "nested-section", text: "> ## Do not" });
    expect(describeFault(quoted)).toContain("write the heading at the margin");
    expect(fault("# Plan", "", "- ## Non-goals", "  - SSO", "", ...stage.slice(2), ...row)).toMatchObject({ line: 3, kind: "nested-section" });
    expect(fault(...stage, "", "> #### Falsifiers", "> - traffic doubles", ...row)).toMatchObject({ line: 9, kind: "nested-section" });
    // Kept as text when marked so; a quoted heading of another name is text as before.
    expect(read("# Plan", "", "<!-- decay: prose -->", "> ## Do not", "> - deploy on Fridays", "", ...stage.slice(2), ...row).prohibitions).toEqual([]);
    expect(read("# Plan", "", "> ## Context", "> - old notes", "", ...stage.slice(2), ...row).prohibitions).toEqual([]);
  });

  const heading = fc.constantFrom("#### Do not", "#### Don't", "**Do not**", "#### Do NOT:", "Do not\n------", "#### Never", "**Must not**", "#### Avoid");
  const item = fc.constantFrom("- deploy on Fridays", "1. skip review", "drop the table.", "```\nrm -rf /\n```", "    rm -rf /", "#### Deploys", "<!-- x -->");
  test("under a negating heading every guardrail holds its words", () => {
    fc.assert(
      fc.property(heading, fc.array(item, { minLength: 1, maxLength: 5 }), (h, items) => {
        const words = h.split("\n")[0]?.replace(/^#+ /, "") ?? "";
        const lines = items.flatMap((i) => [i, ""]);
        const plan = readPlan(["# Plan", "", "## Recommendation", "", "### Stage 1: Ship", "", h, "", ...lines, ...row].join("\n"));
        // A setext `Do not` heading is level 2: it ends the stage, and the row under it is refused.
        if (plan.isErr()) expect(h).toContain("---");
        else {
          // Text right under the heading is read: never lost in silence.
          if (!/^(?:####|<!--)/.test(items[0] ?? "")) expect(plan.value.prohibitions.length).toBeGreaterThan(0);
          for (const g of plan.value.prohibitions) expect(g.startsWith(`${words}\n`)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("words that only start like a negation", () => {
  test("an item beginning `NOT NULL`, `Not-null`, `No. 2` or `Nothing` under a negating heading keeps the heading's words", () => {
    const p = read(...stage, "", "#### Do not", "", "- NOT NULL on `users.email` before the backfill has run", "- Not-null columns without a default", ...row);
    expect(p.prohibitions).toEqual(["Do not\nNOT NULL on `users.email` before the backfill has run", "Do not\nNot-null columns without a default"]);
    expect(read("## Do not", "", "- No. 2 replica: promote it during the window", "", ...stage, ...row).prohibitions).toEqual([
      "Do not\nNo. 2 replica: promote it during the window",
    ]);
    expect(read("## Never", "", "- Nothing but the canary first", "", ...stage, ...row).prohibitions).toEqual(["Never\nNothing but the canary first"]);
  });

  test("a heading that starts with Never or Avoid but names no guardrails opens no section", () => {
    expect(read(...stage, "", "#### Avoid the cache stampede", "", "Warm the cache before the switch.", ...row).prohibitions).toEqual([]);
    expect(read(...stage, ...row, "", "## Never-ending retries (background)", "", "The worker retries forever today; stage 1 bounds it.").prohibitions).toEqual(
      [],
    );
    expect(read("## Never (for v1):", "", "- deploy on Fridays", "", ...stage, ...row).prohibitions).toEqual(["Never (for v1):\ndeploy on Fridays"]);
  });
});
