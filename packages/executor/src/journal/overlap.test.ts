// The overlap index answers as the plain reading it replaces: every pair of tasks compared, two
// paths meeting when equal or when one starts with the other's folder (one trailing `/` dropped) and `/`.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { overlapIndex, touchIndex } from "./overlap.js";
import { readTaskPlan } from "./plan.js";
import type { PlanTask } from "./schema.js";

const touches = (paths: readonly string[], files: readonly string[]): boolean =>
  paths.some((p) => files.some((f) => p === f || p.startsWith(`${f.replace(/\/$/, "")}/`)));
const overlap = (a: PlanTask, b: PlanTask): boolean => touches(a.files, b.files) || touches(b.files, a.files);

/** A task as the plan reader makes it, with the number and Files given. */
const blank = readTaskPlan("## Task 1: t\n")._unsafeUnwrap().tasks[0] as PlanTask;
const task = (n: number, files: string[]): PlanTask => ({ ...blank, n, files });

// Paths built from a few components, empty ones and trailing slashes included, so folders nest and collide.
const path = fc.array(fc.constantFrom("a", "b", "ab", "", "a.ts"), { minLength: 1, maxLength: 4 }).map((parts) => parts.join("/"));
const tasks = fc
  .array(fc.array(path, { maxLength: 3 }), { minLength: 1, maxLength: 12 })
  .chain((lists) =>
    fc
      .shuffledSubarray([...Array(lists.length * 2).keys()], { minLength: lists.length, maxLength: lists.length })
      .map((ns) => lists.map((files, i) => task(ns[i] as number, files))),
  );

describe("overlapIndex", () => {
  it("finds the later overlapping tasks the pairwise comparison finds, in the same order", () => {
    fc.assert(
      fc.property(tasks, (all) => {
        const index = overlapIndex(all);
        for (const t of all) {
          const model = all.filter((u) => u.n > t.n && overlap(t, u));
          expect(index.later(t).map((u) => u.n)).toEqual(model.map((u) => u.n));
          expect(index.hasLater(t)).toBe(model.length > 0);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it("asks about a task it does not hold: the indexed tasks above it that share a file", () => {
    const index = overlapIndex([task(2, ["src/a.ts"]), task(3, ["docs/"]), task(4, ["src"])]);
    const outside = task(1, ["src/"]);
    expect(index.later(outside).map((u) => u.n)).toEqual([2, 4]);
    expect(index.hasLater(task(5, ["src"]))).toBe(false);
    expect(index.later(task(1, []))).toEqual([]);
  });

  it("a path of 200,000 components and 100,000 tasks under one folder are indexed without a stack overflow", () => {
    const deep = "d/".repeat(200_000);
    const many = Array.from({ length: 100_000 }, (_, i) => task(i + 2, [`w/f${i}.ts`]));
    const index = overlapIndex([task(1, [deep, "w"]), ...many]);
    expect(index.hasLater(task(0, [deep]))).toBe(true);
    expect(index.later(task(1, ["w"]))).toHaveLength(100_000);
  });
});

describe("touchIndex", () => {
  it("answers as the pairwise reading: a changed path equal to a file, or inside a folder one names", () => {
    fc.assert(
      fc.property(fc.array(path, { maxLength: 8 }), fc.array(fc.array(path, { maxLength: 3 }), { maxLength: 6 }), (changed, asked) => {
        const index = touchIndex(changed);
        for (const files of asked) expect(index.touches(files)).toBe(touches(changed, files));
      }),
      { numRuns: 1000 },
    );
  });

  it("a changed path is never a folder: a file inside it is not touched", () => {
    expect(touchIndex(["sub"]).touches(["sub/x.ts"])).toBe(false);
    expect(touchIndex(["sub/x.ts"]).touches(["sub"])).toBe(true);
    expect(touchIndex(["sub/x.ts"]).touches(["sub/x.ts/"])).toBe(false);
  });
});
