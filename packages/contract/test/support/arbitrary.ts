// fast-check generators for contracts, shared by the property tests (never exported by the package).
import fc from "fast-check";
import type { AcceptanceRow, Contract, Stage } from "../../src/model.js";
import { patternProblem } from "../../src/patterns.js";

const tricky = ["`", "|", "\\", "~", '"', " ", "-", "#", ":", ",", "*", "/", "a", "Z", "0", "é", "\t", "\u2028", "\u2029", "\u0085"];
const unit = fc.constantFrom(...tricky);
const lineUnit = fc.oneof(unit, fc.constantFrom("---", "## S1: x", "~~~", "None."));

/** A one-line string full of Markdown and table metacharacters. */
export const oneLine = (minLength = 0) =>
  fc
    .array(lineUnit, { minLength, maxLength: 12 })
    .map((xs) => xs.join(""))
    .filter((s) => s.length >= minLength);

/** A multi-line string (LF and CRLF) full of Markdown metacharacters. */
export const multiLine = fc.array(fc.oneof(lineUnit, fc.constantFrom("\n", "\r\n", "\n\n", "~~~~\n", "```")), { maxLength: 20 }).map((xs) => xs.join(""));

/** A one-line regex source a row may hold in `counted` (an `at least` pattern) or not (a contract with another is refused). */
const regex = (counted: boolean) => oneLine(1).filter((p) => patternProblem(p, counted) === null);

const row = (id: string): fc.Arbitrary<AcceptanceRow> =>
  fc.record({
    id: fc.constant(id),
    run: oneLine(1).filter((run) => run.trim() !== ""),
    expect: fc.record({
      exit: fc.integer({ min: 0, max: 255 }),
      stdout_contains: fc.array(oneLine(1), { maxLength: 3 }),
      stdout_matches: fc.array(regex(false), { maxLength: 2 }),
      count: fc.array(fc.record({ pattern: regex(true), min: fc.integer({ min: 1, max: 500 }) }), { maxLength: 2 }),
    }),
  });

const stage = (n: number): fc.Arbitrary<Stage> =>
  fc
    .record({
      label: oneLine(1),
      title: oneLine(),
      instructions: multiLine,
      exit_criterion: fc.option(multiLine, { nil: null }),
      rows: fc.nat(3),
      depends_on: fc.subarray(Array.from({ length: n - 1 }, (_, k) => `S${k + 1}`)),
      optional: fc.boolean(),
    })
    .chain(({ rows, ...rest }) =>
      fc.tuple(...Array.from({ length: rows }, (_, k) => row(`S${n}.${k + 1}`))).map((acceptance) => ({ id: `S${n}`, ...rest, acceptance })),
    );

/** Any valid contract. */
export const contractArb: fc.Arbitrary<Contract> = fc
  .integer({ min: 1, max: 4 })
  .chain((count) => fc.tuple(...Array.from({ length: count }, (_, k) => stage(k + 1))))
  .chain((stages) =>
    fc.record({
      plan: oneLine(1),
      plan_sha256: fc.stringMatching(/^[0-9a-f]{64}$/),
      fresh_state: fc.constantFrom("head" as const, "worktree" as const),
      commit_per_stage: fc.boolean(),
      guardrails: fc.array(
        multiLine.filter((s) => s.length > 0),
        { maxLength: 3 },
      ),
      falsifiers: fc.array(
        multiLine.filter((s) => s.length > 0),
        { maxLength: 3 },
      ),
      stages: fc.constant(stages),
    }),
  );
