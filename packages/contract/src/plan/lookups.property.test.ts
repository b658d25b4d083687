// What the reader now looks up or skips ahead to (prose marks, `Depends on:` references) agrees
// with the plain search it replaced, kept here as the model: the same lines are prose, and every
// reference resolves to the same stage or is refused the same way.
import fc from "fast-check";
import { describe, test } from "vitest";
import { type LineModel, lineModel } from "./lines.js";
import { readPlan } from "./read-plan.js";
import { proseLines } from "./unread.js";

/** The lines each prose mark covers, searched for mark by mark (quadratic on many marks). */
function proseModel(model: LineModel): number[] {
  const out = new Set<number>();
  for (const mark of model.proseMarks) {
    let k = mark + 1;
    while (k < model.lines.length && (model.lines[k]?.hidden || model.lines[k]?.text.trim() === "")) k++;
    const heading = model.headings.find((h) => h.index === k);
    let end = k;
    if (heading) {
      const next = model.headings.find((h) => h.index > k && h.level <= heading.level);
      end = next ? next.index : model.lines.length;
    } else {
      while (end < model.lines.length && model.lines[end]?.text.trim() !== "") end++;
    }
    for (let i = k; i < end; i++) out.add(i);
  }
  return [...out].sort((a, b) => a - b);
}

const norm = (s: string) => s.toLowerCase().replace(/\s+/g, " ").trim();
const NUMBER = /^(?:(?:stage|phase|step|milestone|item)\s+|s)?(\d+(?:\.\d+)*[a-z]?|[ivx]{1,5}|[a-z])$/i;

/** A reference resolved by searching the earlier stages: the first whose label or id it is, else exactly one by number. */
function resolveModel(ref: string, earlier: { id: string; label: string }[]): string | null {
  const exact = earlier.find((s) => norm(s.label) === norm(ref) || s.id === ref.trim());
  if (exact) return exact.id;
  const n = NUMBER.exec(norm(ref))?.[1];
  const byNumber = earlier.filter((s) => n !== undefined && NUMBER.exec(norm(s.label))?.[1] === n);
  return byNumber.length === 1 && byNumber[0] ? byNumber[0].id : null;
}

describe("property: lookups agree with the searches they replaced", () => {
  test("the lines prose marks cover", () => {
    const piece = fc.constantFrom(
      "<!-- decay: prose -->",
      "## H",
      "### H",
      "# H",
      "text",
      "",
      "",
      "===",
      "---",
      "<!--",
      "-->",
      "- item",
      "> q",
      "```",
      "    code",
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (lines) => {
        const model = lineModel(lines.join("\n"));
        return JSON.stringify([...proseLines(model)].sort((a, b) => a - b)) === JSON.stringify(proseModel(model));
      }),
      { numRuns: 3_000 },
    );
  });
  test("the stage each Depends on: reference names, or the refusal", () => {
    const label = fc.constantFrom("Stage 1", "Stage 2", "Stage 2.1", "Phase 1", "Phase 2", "Step B", "S3", "S1", "Milestone 4", "Stage II", "STAGE 3");
    const ref = fc.constantFrom("Stage 1", "stage  2", "1", "2", "3", "S1", "S2", "s3", "S4", "Phase 1", "B", "ii", "2.1", "Step 9", "Milestone 4");
    const stage = fc.record({ label, refs: fc.option(fc.array(ref, { minLength: 1, maxLength: 3 }), { nil: undefined }) });
    fc.assert(
      fc.property(fc.array(stage, { minLength: 1, maxLength: 8 }), (stages) => {
        const lines = ["# P", "", "## Recommendation", ""];
        const earlier: { id: string; label: string }[] = [];
        let expected: string[][] | { line: number } = [];
        for (const [i, s] of stages.entries()) {
          lines.push(`### ${s.label}: t`, "");
          const deps = s.refs?.map((r) => resolveModel(r, earlier)) ?? (i ? [`S${i}`] : []);
          if (s.refs) lines.push(`Depends on: ${s.refs.join(", ")}`, "");
          if (Array.isArray(expected) && deps.includes(null)) expected = { line: lines.length - 1 };
          if (Array.isArray(expected)) expected.push([...new Set(deps as string[])]);
          earlier.push({ id: `S${i + 1}`, label: s.label });
        }
        const result = readPlan(lines.join("\n"));
        if (!Array.isArray(expected)) return result.isErr() && result.error.code === "depends-unknown" && result.error.line === expected.line;
        if (result.isErr()) return result.error.code === "duplicate-label";
        return JSON.stringify(result.value.stages.map((s) => s.depends_on)) === JSON.stringify(expected);
      }),
      { numRuns: 3_000 },
    );
  });
});
