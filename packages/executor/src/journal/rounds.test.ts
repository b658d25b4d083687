import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseRecord } from "./record.js";
import { nextRound } from "./rounds.js";

const sample = readFileSync(new URL("../../../../fixtures/plans/task-plan-with-record.plan.md", import.meta.url), "utf8");
const record = (...lines: string[]) => parseRecord(`## Execution record\n\n\`\`\`text\n${lines.map((l) => `${l}\n`).join("")}\`\`\`\n`)._unsafeUnwrap();

describe("nextRound", () => {
  it("continues the numbering from the record and gives the Round line to append", () => {
    expect(nextRound(parseRecord(sample)._unsafeUnwrap(), "task-2", { cause: "bucket refills too early" })).toEqual({
      go: true,
      n: 3,
      lines: [{ kind: "round", loop: "task-2", n: 3, cause: "bucket refills too early" }],
    });
    expect(nextRound(parseRecord(sample)._unsafeUnwrap(), "task-1")).toEqual({ go: true, n: 1, lines: [] });
  });

  it("stops after three automatic rounds, unless the user gave a count", () => {
    const three = record("Round task-1 1: a", "Round task-1 2: b", "Round task-1 3: c");
    expect(nextRound(three, "task-1")).toEqual({ go: false, reason: "limit", cause: "task-1: the limit of 3 automatic rounds is reached" });
    expect(nextRound(three, "task-1", { limit: 5 })).toMatchObject({ go: true, n: 4 });
    expect(nextRound(record("Round task-1 1: a"), "task-1", { limit: 1 })).toMatchObject({ go: false, reason: "limit" });
  });

  it("runs a round the user started past the limit once, with a Ruling quoting the user", () => {
    const three = record("Round task-1 1: a", "Round task-1 2: b", "Round task-1 3: c");
    const next = nextRound(three, "task-1", { userStarted: "try once more with the fake clock", cause: "d" });
    expect(next).toEqual({
      go: true,
      n: 4,
      lines: [
        { kind: "ruling", text: "round R4 started by the user past the limit - try once more with the fake clock - the loop runs once more" },
        { kind: "round", loop: "task-1", n: 4, cause: "d" },
      ],
    });
  });

  it("escalates the same cause twice, user-started rounds included", () => {
    const one = record("Round task-1 1: Retry-After header missing");
    expect(nextRound(one, "task-1", { cause: "retry-after  header missing" })).toMatchObject({ go: false, reason: "same-cause" });
    expect(nextRound(record("Round task-1 1: x", "Round task-1 2: x"), "task-1", { userStarted: "go" })).toMatchObject({ go: false, reason: "same-cause" });
  });

  it("stops a review loop after two rounds with findings and none accepted, not a task's loop", () => {
    const rejected = record(
      "Finding R1-F1: low a.ts - naming",
      "Received R1: R1-F1 REJECT Re-review: not needed",
      "Finding R2-F1: low b.ts - naming again",
      "Received R2: R2-F1 DEFER Re-review: not needed",
    );
    expect(nextRound(rejected, "verify")).toEqual({ go: false, reason: "none-accepted", cause: "verify: two rounds with findings and none accepted" });
    expect(nextRound(rejected, "task-1")).toMatchObject({ go: true });
    const accepted = record(
      "Finding R1-F1: low a.ts - x",
      "Received R1: R1-F1 ACCEPT Re-review: needed",
      "Finding R2-F1: low b.ts - y",
      "Received R2: R2-F1 REJECT Re-review: not needed",
    );
    expect(nextRound(accepted, "verify")).toMatchObject({ go: true });
  });
});
