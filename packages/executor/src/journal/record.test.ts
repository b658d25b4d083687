import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { appendRecord, setTaskState } from "./append.js";
import { describeJournalFault } from "./fault.js";
import { readTaskPlan } from "./plan.js";
import { parseRecord, renderRecord } from "./record.js";

const sample = readFileSync(new URL("../../../../fixtures/plans/task-plan-with-record.plan.md", import.meta.url), "utf8");
const fence = "```";
const plan = (block: string, tail = "") => `# Plan\n\n## Task 1: a\n\nFiles: a.ts\n\n## Execution record\n\n${fence}text\n${block}${fence}\n${tail}`;

describe("parseRecord", () => {
  it("reads the sample plan's record into typed lines with their line numbers", () => {
    const record = parseRecord(sample)._unsafeUnwrap();
    expect(record.section?.kind).toBe("execution");
    expect(record.entries.map((e) => e.value.kind)).toEqual([
      "base",
      "commits",
      "dirty",
      "task",
      "task",
      "task",
      "task",
      "ruling",
      "deferred",
      "round",
      "round",
    ]);
    expect(record.entries[0]?.line).toBe(41);
    expect(record.entries[4]?.value).toEqual({ kind: "task", n: 2, state: { state: "in progress", evidence: "started at 9b1e44c" } });
  });

  it("refuses a malformed line with its line number in the whole file", () => {
    const fault = parseRecord(plan("Task 1: pending\nTask 2: done - looks fine\n"))._unsafeUnwrapErr();
    expect(fault).toMatchObject({ code: "record-line-invalid", line: 11, text: "Task 2: done - looks fine" });
  });

  it("refuses a line ended by a lone CR, which would hide a line that sets a task's state, naming it", () => {
    // One line to grep, git diff and a terminal; two to a Markdown reader, the second saying done.
    const hidden = sample.replace(/^(Task 2: in progress[^\n]*)$/m, "$1\rTask 2: done - x -> y");
    expect(hidden).not.toBe(sample);
    const line = sample.split("\n").findIndex((l) => l.startsWith("Task 2: in progress")) + 1;
    const fault = parseRecord(hidden)._unsafeUnwrapErr();
    expect(fault).toEqual({ code: "line-end-cr", line });
    expect(describeJournalFault(fault)).toBe(
      `line ${line} ends with a lone CR (carriage return), which Markdown reads as a line break where grep, git diff and a terminal show one line: convert line endings to LF or CRLF`,
    );
    expect(readTaskPlan(hidden)._unsafeUnwrapErr()).toEqual({ code: "line-end-cr", line });
    // CRLF throughout is read as LF is.
    expect(
      parseRecord(sample.replaceAll("\n", "\r\n"))
        ._unsafeUnwrap()
        .entries.map((e) => e.value),
    ).toEqual(
      parseRecord(sample)
        ._unsafeUnwrap()
        .entries.map((e) => e.value),
    );
  });

  it("refuses a NUL character with its line, in the record and the plan alike", () => {
    const withNul = sample.replace("Deferred: flaky clock", "Deferred: flaky\u0000clock");
    const line = sample.split("\n").findIndex((l) => l.startsWith("Deferred: ")) + 1;
    expect(parseRecord(withNul)._unsafeUnwrapErr()).toEqual({ code: "nul-character", line });
    expect(readTaskPlan(withNul)._unsafeUnwrapErr()).toEqual({ code: "nul-character", line });
    expect(describeJournalFault({ code: "nul-character", line })).toBe(`line ${line} holds a NUL character (U+0000), which no text holds: remove it`);
  });

  it("accepts one leading BOM, written back byte for byte, and refuses two", () => {
    const one = `\uFEFF${sample}`;
    expect(renderRecord(parseRecord(one)._unsafeUnwrap())).toBe(one);
    expect(readTaskPlan(one)._unsafeUnwrap()).toEqual(readTaskPlan(sample)._unsafeUnwrap());
    const two = `\uFEFF${one}`;
    expect(parseRecord(two)._unsafeUnwrapErr()).toEqual({ code: "repeated-bom", line: 1 });
    expect(readTaskPlan(two)._unsafeUnwrapErr()).toEqual({ code: "repeated-bom", line: 1 });
    expect(describeJournalFault({ code: "repeated-bom", line: 1 })).toMatch(/^line 1: the file starts with two byte order marks \(U\+FEFF\); one is accepted/);
  });

  it("refuses a round 0 (rounds count from 1) and a loop's round written twice, naming the first", () => {
    const zero = parseRecord(plan("Round task-1 0: flaky\n"))._unsafeUnwrapErr();
    expect(zero).toEqual({ code: "record-line-invalid", line: 10, text: "Round task-1 0: flaky", issue: "rounds count from 1: Round <loop> 0 is no round" });
    const twice = parseRecord(plan("Round task-1 1: flaky\nRound verify 1: AC1\nRound task-1 1: again\n"))._unsafeUnwrapErr();
    expect(twice).toEqual({
      code: "record-line-invalid",
      line: 12,
      text: "Round task-1 1: again",
      issue: "Round task-1 1 is already on line 10: each round of a loop has its own number",
    });
    expect(parseRecord(plan("Round task-1 1: flaky\nRound task-1 2: again\nRound verify 1: AC1\n")).isOk()).toBe(true);
  });

  it("refuses a text block that is never closed, naming the line it opens on", () => {
    expect(parseRecord("## Execution record\n\n```text\nTask 1: pending\n")._unsafeUnwrapErr()).toEqual({ code: "record-unclosed", line: 3, kind: "fence" });
  });

  it("takes no heading inside fenced code for the record, and steps over other fenced blocks in the section", () => {
    const md =
      "# Spec\n\n````markdown\n## Verification record\n```text\nnot a line\n```\n````\n\n## Verification record\n\n```sh\nnpm test\n```\n\n```text\nBranch: x\n```\n";
    const record = parseRecord(md)._unsafeUnwrap();
    expect(record.entries.map((e) => e.value)).toEqual([{ kind: "branch", branch: "x" }]);
    expect(record.entries[0]?.line).toBe(17);
  });

  it("reads a file with no record as an empty one, and renders it unchanged", () => {
    const record = parseRecord("# Spec\n\nStatus: approved\n")._unsafeUnwrap();
    expect(record).toMatchObject({ section: null, block: null, entries: [] });
    expect(renderRecord(record)).toBe("# Spec\n\nStatus: approved\n");
  });

  it("renders the sample back byte for byte, CRLF endings included", () => {
    expect(renderRecord(parseRecord(sample)._unsafeUnwrap())).toBe(sample);
    const crlf = sample.replace(/\n/g, "\r\n");
    expect(renderRecord(parseRecord(crlf)._unsafeUnwrap())).toBe(crlf);
  });
});

describe("appendRecord", () => {
  it("puts new lines right before the closing fence, never after it", () => {
    const md = plan("Task 1: pending\n", "\nTrailing prose.\n");
    const out = appendRecord(md, [{ kind: "deferred", text: "rename x - follow-up issue" }])._unsafeUnwrap();
    expect(out).toBe(plan("Task 1: pending\nDeferred: rename x - follow-up issue\n", "\nTrailing prose.\n"));
  });

  it("fills the Base: unset placeholder in place, with Commits and Initial dirty state under it", () => {
    const md = plan("Base: unset\nTask 1: pending\n");
    const sha = "a".repeat(40);
    const out = appendRecord(md, [
      { kind: "base", base: sha, where: { root: "/repo", branch: "feat" } },
      { kind: "commits", policy: "allowed" },
      { kind: "dirty", paths: [] },
      { kind: "ruling", text: "inline - one task - low" },
    ])._unsafeUnwrap();
    expect(out).toBe(
      plan(`Base: ${sha} Root: /repo Branch: feat\nCommits: allowed\nInitial dirty state: none\nTask 1: pending\nRuling: inline - one task - low\n`),
    );
  });

  it("creates a spec's Verification record at the end when there is none", () => {
    const spec = "# Spec: timeout\n\nStatus: approved";
    const out = appendRecord(spec, [
      { kind: "branch", branch: "fix-timeout" },
      { kind: "commits", policy: "allowed" },
    ])._unsafeUnwrap();
    expect(out).toBe(`${spec}\n\n## Verification record\n\n${fence}text\nBranch: fix-timeout\nCommits: allowed\n${fence}\n`);
    expect(parseRecord(out)._unsafeUnwrap().entries).toHaveLength(2);
  });

  it("refuses to add a record after a fenced block the file never closes", () => {
    expect(appendRecord("# Spec\n\n```sh\nnpm test\n", [{ kind: "branch", branch: "b" }])._unsafeUnwrapErr()).toEqual({
      code: "record-unclosed",
      line: 3,
      kind: "fence",
    });
  });

  it("refuses to add a record after an HTML comment the file never closes, saying it is a comment", () => {
    const fault = appendRecord("# Spec\n\nStatus: approved\n\n<!-- reviewer notes, to finish\n", [
      { kind: "base", base: "unset", where: null },
    ])._unsafeUnwrapErr();
    expect(fault).toEqual({ code: "record-unclosed", line: 5, kind: "comment" });
    expect(describeJournalFault(fault)).toBe(
      "the HTML comment opened at line 5 is never closed (-->), so the record cannot be read or written there: close the comment",
    );
  });

  it("adds a text block to a record section that has none, before the next section", () => {
    const spec = "# Spec\n\n## Verification record\n\n## Notes\n\nx\n";
    const out = appendRecord(spec, [{ kind: "branch", branch: "b" }])._unsafeUnwrap();
    expect(out).toBe(`# Spec\n\n## Verification record\n\n${fence}text\nBranch: b\n${fence}\n\n## Notes\n\nx\n`);
  });

  it("refuses a typed line that would not read back (a done task with no 'command -> result')", () => {
    const fault = appendRecord(plan(""), [{ kind: "task", n: 1, state: { state: "done", evidence: "trust me" } }])._unsafeUnwrapErr();
    expect(fault).toMatchObject({ code: "record-line-invalid", line: 10 });
  });
});

describe("setTaskState", () => {
  it("changes only the state of the task's own line", () => {
    const out = setTaskState(sample, 2, { state: "done", evidence: "pnpm vitest run test/limit/middleware.test.ts -> 4 passed" })._unsafeUnwrap();
    expect(out).toBe(sample.replace("Task 2: in progress - started at 9b1e44c", "Task 2: done - pnpm vitest run test/limit/middleware.test.ts -> 4 passed"));
  });

  it("refuses a task the record has no line for, and a state without its evidence", () => {
    expect(setTaskState(sample, 9, { state: "pending" })._unsafeUnwrapErr()).toEqual({ code: "task-unknown", task: 9 });
    const fault = setTaskState(sample, 3, { state: "done", evidence: "ok" })._unsafeUnwrapErr();
    expect(fault).toMatchObject({ code: "state-invalid", task: 3 });
  });
});
