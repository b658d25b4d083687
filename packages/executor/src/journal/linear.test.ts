// The task reader and the checks index the tasks once (review finding 9: they walked the task list
// once per task). These properties hold them to the plain readings they replace: each model below
// is the obvious quadratic one, small and clearly right.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkOrder } from "./next-step.js";
import { interfaceEdges, readTaskPlan } from "./plan.js";
import type { TaskPlan } from "./schema.js";

const norm = (s: string): string => s.replace(/\s+/g, " ").trim();

/** The plain reading of interfaceEdges' producers: the first earlier task (the named ones, when any are) whose Produces holds the item. */
function modelProducer(plan: TaskPlan, at: number, item: string, named: number[]): number | undefined {
  const earlier = plan.tasks.slice(0, at).filter((t) => named.length === 0 || named.includes(t.n));
  return earlier.find((t) => t.produces !== null && norm(t.produces).includes(item))?.n;
}

/** The plain reading of checkOrder: the first task left whose dependencies are all placed, else the first left. */
function modelOrder(numbers: number[], edges: Map<number, number[]>): number[] {
  const order: number[] = [];
  const left = [...numbers];
  while (left.length > 0) {
    const k = left.findIndex((n) => (edges.get(n) ?? []).every((d) => order.includes(d)));
    order.push(...left.splice(Math.max(k, 0), 1));
  }
  return order;
}

const item = fc.constantFrom("a", "ab", "b", "a b", "ba", "x");
const task = fc.record({
  produces: fc.option(fc.array(item, { minLength: 1, maxLength: 3 }), { nil: undefined }),
  consumes: fc.option(fc.array(item, { minLength: 1, maxLength: 2 }), { nil: undefined }),
  from: fc.array(fc.integer({ min: 1, max: 9 }), { maxLength: 2 }),
});

/** A plan of tasks 1..n (or shuffled numbers) from generated fields. */
const plan = fc.tuple(fc.array(task, { minLength: 1, maxLength: 9 }), fc.boolean()).map(([tasks, shuffled]) =>
  tasks
    .map((t, k) => {
      const n = shuffled ? (k * 7) % 11 : k + 1;
      const produces = t.produces ? `Produces: ${t.produces.map((p) => `\`${p}\``).join(", ")}\n` : "";
      const from = t.from.length > 0 ? ` from ${t.from.map((f) => `Task ${f}`).join(" and ")}` : "";
      const consumes = t.consumes ? `Consumes: ${t.consumes.map((c) => `\`${c}\``).join(", ")}${from}\n` : "";
      return `## Task ${n}: t\n\n${produces}${consumes}\n`;
    })
    .join(""),
);

describe("indexed once, read as before", () => {
  it("each Consumes item is credited to the task the plain reading finds, and findings agree", () => {
    fc.assert(
      fc.property(plan, (md) => {
        const p = readTaskPlan(md)._unsafeUnwrap();
        const { edges, findings } = interfaceEdges(p);
        p.tasks.forEach((t, at) => {
          const named = [...(t.consumes ?? "").matchAll(/\bTask\s+(\d+)/gi)].map((m) => Number(m[1]));
          const items = [...(t.consumes ?? "").matchAll(/`([^`]+)`/g)].map((m) => norm(m[1] ?? ""));
          for (const i of items) {
            const producer = modelProducer(p, at, i, named);
            if (producer === undefined) expect(findings).toContainEqual({ task: t.n, consumes: i, issue: "not-produced", from: named[0] ?? null });
            else expect(edges.get(t.n)).toContain(producer);
          }
        });
      }),
      { numRuns: 300 },
    );
  });

  it("checkOrder places the tasks as the plain reading does", () => {
    fc.assert(
      fc.property(plan, (md) => {
        const p = readTaskPlan(md)._unsafeUnwrap();
        expect(checkOrder(p)).toEqual(
          modelOrder(
            p.tasks.map((t) => t.n),
            interfaceEdges(p).edges,
          ),
        );
      }),
      { numRuns: 300 },
    );
  });

  it("a task's section ends at the next heading of its level or higher, deeper headings inside it", () => {
    const p = readTaskPlan("## Task 1: a\n### Notes\nCheck: `x`\n### Task 2: b\nCommit: `y`\n# Part\n## Task 3: c\n")._unsafeUnwrap();
    expect(p.tasks.map((t) => [t.n, t.check, t.commit, t.body.split("\n").length])).toEqual([
      [1, "`x`", "`y`", 5],
      [2, null, "`y`", 2],
      [3, null, null, 1],
    ]);
  });
});
