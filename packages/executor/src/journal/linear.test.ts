// The task reader and the checks index the tasks once (review finding 9: they walked the task list
// once per task). These properties hold them to the plain readings they replace: each model below
// is the obvious quadratic one, small and clearly right. The last test holds the work itself to the
// plan's size: it counts, never times.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checklist, checkOrder, nextStep } from "./next-step.js";
import { checkInterfaces, interfaceEdges, readTaskPlan } from "./plan.js";
import { parseRecord } from "./record.js";
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

/** The Array.prototype methods that call a function per element they walk. */
const CALLING = ["every", "filter", "find", "findIndex", "findLast", "findLastIndex", "flatMap", "forEach", "map", "reduce", "some"];

/** The others that walk an array, with the number of elements each call walks. */
const WALKING: Record<string, (a: unknown[], args: unknown[], result: unknown) => number> = {
  includes: (a) => a.length,
  indexOf: (a) => a.length,
  slice: (_a, _args, result) => (result as unknown[]).length,
  splice: (a, args) => a.length - Math.min(Number(args[0] ?? 0), a.length),
};

type Method = (this: unknown[], ...args: unknown[]) => unknown;

/**
 * How many array elements `run` walks: each call of a CALLING method's function (wrapped to count
 * it), and what each WALKING call walks. Array.prototype is wrapped only while `run` runs
 * (synchronously) and put back after: a plain count of the work, never a time.
 */
function arrayWork(run: () => void): number {
  const proto = Array.prototype as unknown as Record<string, Method>;
  const originals = [...CALLING, ...Object.keys(WALKING)].map((name) => [name, proto[name] as Method] as const);
  let work = 0;
  for (const [name, original] of originals) {
    const walked = WALKING[name];
    proto[name] = walked
      ? function (this: unknown[], ...args: unknown[]) {
          const before = [...this];
          const result = original.apply(this, args);
          work += walked(before, args, result);
          return result;
        }
      : function (this: unknown[], f: unknown, ...rest: unknown[]) {
          const counted = (...a: unknown[]) => {
            work++;
            return (f as (...a: unknown[]) => unknown)(...a);
          };
          return original.call(this, counted, ...rest);
        };
  }
  try {
    run();
  } finally {
    for (const [name, original] of originals) proto[name] = original;
  }
  return work;
}

/**
 * A plan of `n` chained tasks (each consumes what the one before produces, every other one naming
 * it) whose record is half done, with a failing Verify whose Round names a claim of every task.
 */
function chainedPlan(n: number): string {
  const tasks = Array.from({ length: n }, (_, i) => {
    const k = i + 1;
    const consumes = k === 1 ? "" : `Consumes: \`item-${k - 1}\`${k % 2 === 0 ? ` from Task ${k - 1}` : ""}\n`;
    return `## Task ${k}: step ${k}\n\nProduces: \`item-${k}\`\n${consumes}Check: \`true\` -> AC${k} ok\n\n`;
  });
  const states = Array.from({ length: n }, (_, i) => `Task ${i + 1}: ${i < n / 2 ? "done - true -> ok" : "pending"}`);
  const claims = Array.from({ length: n }, (_, i) => `AC${i + 1}`).join(" ");
  const record = ["Base: unset", ...states, "Verify: FAIL full tree 4b825dc6 2026-11-30 14:05", `Round verify 1: ${claims}`];
  return `# Plan: chain\n\nSpec: none\n\n${tasks.join("")}## Execution record\n\n\`\`\`text\n${record.join("\n")}\n\`\`\`\n`;
}

/** What `decay journal show` and `next` compute: the plan and record read, states, checklist, findings, next step. */
function showAndNext(markdown: string): void {
  const plan = readTaskPlan(markdown)._unsafeUnwrap();
  const record = parseRecord(markdown)._unsafeUnwrap();
  checklist(plan, record);
  checkInterfaces(plan);
  nextStep({ plan, record, limit: 3 });
}

describe("the work grows with the plan, not with the square of its task count", () => {
  it("four times the tasks walk at most five times the array elements (a walk per task would be sixteen)", () => {
    const small = chainedPlan(250);
    const large = chainedPlan(1000);
    const atSmall = arrayWork(() => showAndNext(small));
    const atLarge = arrayWork(() => showAndNext(large));
    expect(atSmall).toBeGreaterThan(250);
    expect(atLarge / atSmall).toBeLessThan(5);
  });
});
