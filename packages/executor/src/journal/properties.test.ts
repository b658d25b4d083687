import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { appendRecord, setTaskState } from "./append.js";
import { parseLine, renderLine } from "./line.js";
import { readTaskPlan } from "./plan.js";
import { parseRecord, renderRecord } from "./record.js";
import { BLOCKER_LABELS, type RecordLine } from "./schema.js";

// Free text on one line: words, separators the grammar uses, backticks, non-ASCII.
const word = fc.string({ unit: fc.constantFrom("a", "Z", "7", "-", ">", "`", ":", ",", "(", ")", "/", ".", "é", "→"), minLength: 1, maxLength: 8 });
const text = fc.array(word, { minLength: 1, maxLength: 5 }).map((ws) => ws.join(" "));
const num = fc.nat({ max: 999 });
const hex = (n: number) => fc.string({ unit: fc.constantFrom(..."0123456789abcdef"), minLength: n, maxLength: n });
const path = fc.array(fc.constantFrom("src", "a.ts", "docs", "x y", "é"), { minLength: 1, maxLength: 3 }).map((p) => p.join("/"));

const state = fc.oneof(
  fc.record({ state: fc.constant("pending" as const) }),
  fc.record({ state: fc.constant("in progress" as const), evidence: text }),
  fc.tuple(text, text).map(([c, r]) => ({ state: "done" as const, evidence: `${c} -> ${r}` })),
  fc.record({ state: fc.constant("blocked" as const), blocker: fc.constantFrom(...BLOCKER_LABELS), detail: text }),
);

/** Valid typed lines of every kind. */
const line: fc.Arbitrary<RecordLine> = fc.oneof(
  fc.record({ kind: fc.constant("base" as const), base: hex(40), where: fc.record({ root: path, branch: word }) }),
  fc.record({ kind: fc.constant("commits" as const), policy: fc.constantFrom("allowed" as const, "ask once" as const, "forbidden" as const) }),
  fc.record({ kind: fc.constant("dirty" as const), paths: fc.array(fc.record({ path, staged: fc.boolean() }), { maxLength: 3 }) }),
  fc.record({ kind: fc.constant("task" as const), n: num, state }),
  fc.record({ kind: fc.constant("ruling" as const), text }),
  fc.record({ kind: fc.constant("deferred" as const), text }),
  // Rounds count from 1.
  fc.record({ kind: fc.constant("round" as const), loop: word.filter((w) => !w.includes(" ")), n: fc.integer({ min: 1, max: 999 }), cause: text }),
  fc.record({
    kind: fc.constant("verify" as const),
    verdict: fc.constantFrom("PASS", "FAIL"),
    depth: fc.constantFrom("full" as const, "compact" as const),
    tree: hex(40),
    at: fc.constant("2026-11-30 14:05"),
    working: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant("finding" as const),
    r: num,
    f: num,
    severity: fc.constantFrom("low", "high"),
    location: fc.constantFrom("a.ts:1", "docs"),
    title: text,
  }),
);

const surround = fc
  .array(fc.oneof(text, fc.constantFrom("# Plan", "## Task 1: a", "```sh", "```", "", "Files: a.ts")), { maxLength: 6 })
  .map((ls) => ls.join("\n"));
const eol = fc.constantFrom("\n", "\r\n");

/** A plan or spec holding a well-formed record of the given lines. */
const roundKey = (l: RecordLine) => (l.kind === "round" ? `${l.loop} ${l.n}` : null);
/** Lines where no loop's round is written twice (a record refuses a second line for one). */
const noRepeatedRound = (ls: readonly RecordLine[]) => {
  const keys = ls.map(roundKey).filter((k) => k !== null);
  return new Set(keys).size === keys.length;
};
const doc = fc
  .record({ before: surround, lines: fc.array(line, { maxLength: 8 }).filter(noRepeatedRound), after: surround, eol })
  .map(({ before, lines, after, eol: e }) => {
    const fence = "```";
    const head = before.includes("```") ? "" : `${before}${e}${e}`; // an unclosed fence before would hide the section
    return `${head}## Execution record${e}${e}${fence}text${e}${lines.map((l) => renderLine(l) + e).join("")}${fence}${e}${after.replace(/```/g, "")}`;
  });

// Strings shaped like records and not: fragments of the grammar mixed with arbitrary text.
const fragment = fc.oneof(
  fc.string(),
  fc.string({ unit: "binary" }),
  fc.constantFrom(
    "## Execution record",
    "## Verification record",
    "## Task 1: a",
    "Files: a, b",
    "Execution: inline",
    "```text",
    "```",
    "~~~",
    "Task 1: done - a -> b",
    "Task 2: blocked - x",
    "Base: unset",
    "\n",
    "\r\n",
    "\r",
    "# ## ",
  ),
);
const anything = fc.tuple(fc.array(fragment, { maxLength: 12 }), fc.constantFrom("\n", "")).map(([parts, sep]) => parts.join(sep));

/** The first UTF-16 index where `b` differs from `a` (a's length when b starts with all of a). */
function firstDifference(a: string, b: string): number {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return i;
}

describe("record properties", () => {
  it("parseLine, parseRecord and readTaskPlan never throw, and whatever parses renders back to the same text", () => {
    fc.assert(
      fc.property(anything, (x) => {
        expect(() => readTaskPlan(x)).not.toThrow();
        const record = parseRecord(x);
        if (record.isOk()) expect(renderRecord(record.value)).toBe(x);
        for (const l of x.split(/\r\n|\n|\r/)) {
          const parsed = parseLine(l);
          if (parsed.isOk()) expect(renderLine(parsed.value)).toBe(l);
        }
      }),
      { numRuns: 500 },
    );
  });

  it("a well-formed record parses to its lines and round-trips byte for byte", () => {
    fc.assert(
      fc.property(doc, (x) => {
        const record = parseRecord(x)._unsafeUnwrap();
        expect(renderRecord(record)).toBe(x);
        expect(record.entries.map((e) => renderLine(e.value))).toEqual(record.entries.map((e) => x.split(/\r?\n/)[e.line - 1]));
      }),
      { numRuns: 300 },
    );
  });

  it("every typed line of the grammar reads back as the same value", () => {
    fc.assert(
      fc.property(line, (l) => {
        expect(parseLine(renderLine(l))._unsafeUnwrap()).toEqual(l);
      }),
      { numRuns: 500 },
    );
  });

  it("append inserts at one place and changes no other byte", () => {
    fc.assert(
      fc.property(
        doc,
        fc.array(
          line.filter((l) => l.kind !== "base"),
          { minLength: 1, maxLength: 4 },
        ),
        (x, added) => {
          const out = appendRecord(x, added)._unsafeUnwrap();
          const cut = firstDifference(x, out);
          expect(out.slice(0, cut)).toBe(x.slice(0, cut));
          expect(out.slice(cut + out.length - x.length)).toBe(x.slice(cut));
          const before = parseRecord(x)
            ._unsafeUnwrap()
            .entries.map((e) => e.value);
          expect(
            parseRecord(out)
              ._unsafeUnwrap()
              .entries.map((e) => e.value),
          ).toEqual([...before, ...added]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("append on any text either refuses or inserts at one place, and the lines read back at the record's end", () => {
    fc.assert(
      fc.property(
        anything,
        fc
          .array(
            line.filter((l) => l.kind !== "base"),
            { minLength: 1, maxLength: 3 },
          )
          .filter(noRepeatedRound),
        (x, added) => {
          const out = appendRecord(x, added);
          if (out.isErr()) return;
          const y = out.value;
          const cut = firstDifference(x, y);
          expect(y.slice(0, cut)).toBe(x.slice(0, cut));
          expect(y.slice(cut + y.length - x.length)).toBe(x.slice(cut));
          expect(
            parseRecord(y)
              ._unsafeUnwrap()
              .entries.slice(-added.length)
              .map((e) => e.value),
          ).toEqual(added);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("setTaskState changes only the bytes of the task's last line", () => {
    fc.assert(
      fc.property(doc, state, (x, s) => {
        const record = parseRecord(x)._unsafeUnwrap();
        const task = record.entries.filter((e) => e.value.kind === "task").pop();
        const out = setTaskState(x, task?.value.kind === "task" ? task.value.n : 1000, s);
        if (!task) {
          expect(out.isErr()).toBe(true);
          return;
        }
        const lines = (t: string) => t.split("\n");
        const [a, b] = [lines(x), lines(out._unsafeUnwrap())];
        expect(b.length).toBe(a.length);
        a.forEach((l, i) =>
          i === task.line - 1
            ? expect(b[i]?.replace(/\r$/, "")).toBe(renderLine({ kind: "task", n: (task.value as { n: number }).n, state: s }))
            : expect(b[i]).toBe(l),
        );
      }),
      { numRuns: 300 },
    );
  });
});
