import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readTaskPlan } from "./plan.js";
import { failClaims, lastRounds, openRulings, specStatus } from "./read.js";
import { parseRecord } from "./record.js";

const record = (...lines: string[]) => parseRecord(`## Execution record\n\n\`\`\`text\n${lines.map((l) => `${l}\n`).join("")}\`\`\`\n`)._unsafeUnwrap();

describe("reading a record", () => {
  it("reads a spec's Status in the usual spellings", () => {
    expect(specStatus("# S\n\nStatus: approved\n")).toBe("approved");
    expect(specStatus("**Status:** Draft\n")).toBe("draft");
    expect(specStatus("---\nstatus: `approved`\n---\n")).toBe("approved");
    expect(specStatus("# S\n\nNo status here.\nStatuses vary\n")).toBeNull();
  });

  it("keeps the highest round number of each loop", () => {
    expect(lastRounds(record("Round task-1 1: a", "Round verify 1: b", "Round task-1 2: c"))).toEqual({ "task-1": 2, verify: 1 });
  });

  it("keeps loops whose names are also Object.prototype's", () => {
    const rounds = lastRounds(record("Round constructor 2: a", "Round __proto__ 3: b", "Round toString 1: c"));
    expect(Object.entries(rounds)).toEqual([
      ["constructor", 2],
      ["__proto__", 3],
      ["toString", 1],
    ]);
  });

  it("closes an awaiting ruling only with an answer to the same question", () => {
    const r = record(
      "Ruling: awaiting user - backoff or fail fast - both fit - outages",
      "Ruling: awaiting user - keep v1 - unclear - clients",
      "Ruling: user answered - keep v1 - yes - low",
      "Ruling: user answered - something else - no - low",
    );
    expect(openRulings(r)).toEqual(["awaiting user - backoff or fail fast - both fit - outages"]);
  });

  it("finds a FAIL's claims only in the last Round verify line after the last Verify, leaving review tags out", () => {
    const plan = readTaskPlan("## Task 1: a\nCovers AC1.\n## Task 2: b\nCovers AC2.\n")._unsafeUnwrap();
    const fail = record(
      "Verify: FAIL full tree abcd1234 2026-11-30 14:05",
      "Round verify 1: AC1",
      "Verify: FAIL full tree abcd1235 2026-11-30 15:05",
      "Round verify 2: AC2 and R1-F3 still open, AC3 too",
    );
    expect(failClaims(plan, fail)?.claims).toEqual([
      { claim: "AC2", task: 2 },
      { claim: "AC3", task: null },
    ]);
    expect(failClaims(plan, record("Verify: FAIL full tree abcd1234 2026-11-30 14:05", "Verify: PASS full tree abcd1234 2026-11-30 15:05"))).toBeNull();
  });

  it("counts a claim handled when a Ruling after the failing Verify names it as a whole word after `Verify FAIL on `, as a search per claim and Ruling would", () => {
    const plan = readTaskPlan("## Task 1: a\nCovers AC1 AC4 AC40.\n")._unsafeUnwrap();
    const claims = fc.constantFrom("AC1", "AC4", "AC40", "B7");
    const piece = fc.oneof(claims, fc.constantFrom("Verify FAIL on ", "Verify FAIL on", "xVerify FAIL on ", " ", "-", "0", ", ", "and "));
    const ruling = fc.array(piece, { maxLength: 8 }).map((p) => p.join(""));
    fc.assert(
      fc.property(fc.uniqueArray(claims, { minLength: 1 }), fc.array(ruling, { maxLength: 4 }), (tags, rulings) => {
        const r = record(
          "Verify: FAIL full tree abcd1234 2026-11-30 14:05",
          `Round verify 1: ${tags.join(" ")}`,
          ...rulings.map((t) => `Ruling: user answered - ${t}`),
        );
        const texts = r.entries.flatMap((e) => (e.value.kind === "ruling" ? [e.value.text] : []));
        const expected = tags.filter((c) => texts.some((t) => new RegExp(`\\bVerify FAIL on ${c}\\b`).test(t)));
        expect([...(failClaims(plan, r)?.handled ?? [])].sort()).toEqual(expected.sort());
      }),
      { numRuns: 500 },
    );
    const twice = record("Verify: FAIL full tree abcd1234 2026-11-30 14:05", "Round verify 1: AC4 AC40", "Ruling: on Verify FAIL on Verify FAIL on AC4 - done");
    expect([...(failClaims(plan, twice)?.handled ?? [])]).toEqual(["AC4"]);
  });
});
