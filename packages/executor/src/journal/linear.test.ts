// The task reader and the checks index the tasks once (review finding 9: they walked the task list
// once per task). These properties hold them to the plain readings they replace: each model below
// is the obvious quadratic one, small and clearly right. The last tests hold the work itself to the
// plan's size: they count, never time.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../../test-utils/tmp.js";
import { show } from "../cli/journal.js";
import { systemGit } from "../node/git.js";
import { nodeShell } from "../node/shell.js";
import type { Git } from "../ports.js";
import { checklist, checkOrder, nextStep } from "./next-step.js";
import { checkInterfaces, interfaceEdges, readTaskPlan } from "./plan.js";
import { parseRecord } from "./record.js";
import { deriveResume } from "./resume.js";
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
 * it), and what each WALKING call walks. Array.prototype is wrapped only while `run` runs (until
 * its promise settles, when it returns one) and put back after: a plain count of the work, never a time.
 */
async function arrayWork(run: () => void | Promise<void>): Promise<number> {
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
    await run();
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
  it("four times the tasks walk at most five times the array elements (a walk per task would be sixteen)", async () => {
    const small = chainedPlan(250);
    const large = chainedPlan(1000);
    const atSmall = await arrayWork(() => showAndNext(small));
    const atLarge = await arrayWork(() => showAndNext(large));
    expect(atSmall).toBeGreaterThan(250);
    expect(atLarge / atSmall).toBeLessThan(5);
  });
});

const GIT_ENV = { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" };
const AS_TEST = { ...GIT_ENV, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@x.invalid", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@x.invalid" };
const gitIn = (dir: string, ...args: string[]) => execFileSync("git", ["-C", dir, ...args], { env: AS_TEST, encoding: "utf8" }).trim();

/**
 * A repository and plan of `n` done tasks: one in three traced by a commit in Base..HEAD, one in
 * three by an uncommitted file (the working tree holds `n` changed files), one in three by nothing.
 */
async function resumeCase(n: number): Promise<{ dir: string; markdown: string }> {
  const dir = await tempDir("decay-linear-");
  const put = (path: string) => {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), `${path}\n`);
  };
  gitIn(dir, "init", "-q", "-b", "main");
  put("README.md");
  gitIn(dir, "add", "-A");
  gitIn(dir, "commit", "-q", "-m", "base");
  const base = gitIn(dir, "rev-parse", "HEAD");
  for (let i = 0; i < n; i++) if (i % 3 === 0) put(`src/t${i}/c.ts`);
  gitIn(dir, "add", "-A");
  gitIn(dir, "commit", "-q", "-m", "work");
  for (let i = 0; i < n; i++) put(`w/${i % 3 === 1 ? `t${i}` : `other${i}`}.txt`);
  const files = (i: number) => (i % 3 === 0 ? `src/t${i}/, docs/t${i}.md` : i % 3 === 1 ? `w/t${i}.txt, lib/t${i}.ts` : `gone/t${i}.ts, w/t${i}`);
  const tasks = Array.from({ length: n }, (_, i) => `## Task ${i + 1}: t\n\nFiles: ${files(i)}\n\n`);
  const states = Array.from({ length: n }, (_, i) => `Task ${i + 1}: done - sh check -> exit 0`);
  const record = [`Base: ${base} Root: ${dir} Branch: main`, ...states];
  return { dir, markdown: `# Plan: p\n\nSpec: none\n\n${tasks.join("")}## Execution record\n\n\`\`\`text\n${record.join("\n")}\n\`\`\`\n` };
}

/** Resume's rule 1 on the case, through the system git with every call counted: the array work, the git calls, the tasks sent back. */
async function resumeWork(c: { dir: string; markdown: string }): Promise<{ work: number; calls: number; back: number }> {
  const real = systemGit({ dir: c.dir, env: GIT_ENV });
  let calls = 0;
  const git = Object.fromEntries(
    Object.entries(real).map(([name, f]) => [name, typeof f === "function" ? (...a: unknown[]) => (calls++, (f as (...a: unknown[]) => unknown)(...a)) : f]),
  ) as unknown as Git;
  const plan = readTaskPlan(c.markdown)._unsafeUnwrap();
  const record = parseRecord(c.markdown)._unsafeUnwrap();
  let back = -1;
  const work = await arrayWork(async () => {
    back = (await deriveResume({ plan, record, git, shell: nodeShell(), cwd: c.dir }))._unsafeUnwrap().changes.length;
  });
  return { work, calls, back };
}

describe("resume's trace rule grows with the plan and the changed paths, not with their product", () => {
  it("four times the done tasks and dirty files: the same git calls, at most five times the array work (dirty x files would be sixteen)", async () => {
    const small = await resumeWork(await resumeCase(300));
    const large = await resumeWork(await resumeCase(1200));
    expect([small.back, large.back]).toEqual([100, 400]);
    expect(large.calls).toBe(small.calls);
    expect(small.work).toBeGreaterThan(300);
    expect(large.work / small.work).toBeLessThan(5);
  }, 120_000);
});

/** How many characters `run` reads by `charCodeAt` (the Produces index reads each Produces through it): a count, never a time. */
function charReads(run: () => void): number {
  const proto = String.prototype;
  const original = proto.charCodeAt;
  let reads = 0;
  proto.charCodeAt = function (this: string, at: number) {
    reads++;
    return original.call(this, at);
  };
  try {
    run();
  } finally {
    proto.charCodeAt = original;
  }
  return reads;
}

describe("decay journal show reads the plan's interfaces once", () => {
  it("its checklist order and its findings share one index of every Produces", () => {
    const markdown = chainedPlan(500).replace(/Produces: `item-(\d+)`/g, (_, k) => `Produces: \`${"long interface text ".repeat(10)}item-${k}\``);
    const plan = readTaskPlan(markdown)._unsafeUnwrap();
    const record = parseRecord(markdown)._unsafeUnwrap();
    const once = charReads(() => void interfaceEdges(plan));
    const shown = charReads(() => void show({ plan, record }));
    expect(once).toBeGreaterThan(500 * 200);
    expect(shown).toBeLessThan(once * 1.2);
    expect(show({ plan, record })).toContain(checklist(plan, record).join("\n"));
  });
});
