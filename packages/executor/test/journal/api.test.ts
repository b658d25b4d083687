import type { Result, ResultAsync } from "neverthrow";
import { describe, expect, expectTypeOf, it } from "vitest";
import * as api from "../../src/index.js";
import type { ExecFault, JournalFault, JournalRecord, Resume, TaskPlan } from "../../src/index.js";

describe("the journal's public API", () => {
  it("is exported from the package root by name", () => {
    for (const name of [
      "readTaskPlan",
      "checkInterfaces",
      "parseRecord",
      "renderRecord",
      "appendRecord",
      "setTaskState",
      "deriveResume",
      "applyResume",
      "nextRound",
      "nextStep",
      "checklist",
      "describeJournalFault",
    ]) {
      expect(typeof (api as Record<string, unknown>)[name], name).toBe("function");
    }
  });

  it("returns failures as typed values", () => {
    expectTypeOf(api.readTaskPlan).returns.toEqualTypeOf<Result<TaskPlan, JournalFault>>();
    expectTypeOf(api.parseRecord).returns.toEqualTypeOf<Result<JournalRecord, JournalFault>>();
    expectTypeOf(api.appendRecord).returns.toEqualTypeOf<Result<string, JournalFault>>();
    expectTypeOf(api.deriveResume).returns.toEqualTypeOf<ResultAsync<Resume, ExecFault>>();
    expect(api.describeJournalFault({ code: "record-line-invalid", line: 7, text: "Task 1: done", issue: "x" })).toContain("line 7");
  });
});
