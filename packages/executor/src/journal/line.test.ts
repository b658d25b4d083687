import { describe, expect, it } from "vitest";
import { parseLine, renderLine } from "./line.js";

const ok = (text: string) => parseLine(text)._unsafeUnwrap();
const issue = (text: string) => parseLine(text)._unsafeUnwrapErr();

describe("parseLine", () => {
  it("reads each kind of line of the grammar and writes it back as it was", () => {
    const lines = [
      "Base: 3f9c2a7e1b4d8f6a0c5e9b2d7f1a4c8e6b3d0f92 Root: /srv/service Branch: export-rate-limit",
      "Base: unset",
      "Branch: fix-timeout",
      "Commits: ask once",
      "Initial dirty state: README.md, src/config.ts (staged)",
      "Initial dirty state: none",
      "Task 2: in progress - started at 9b1e44c",
      "Task 2: done - npm test -- parser -> 14 passed",
      "Task 4: blocked - missing credentials: <API_TOKEN> for the staging API",
      "Task 3: pending",
      "Ruling: early return over a guard flag - same behavior, shorter diff - low, one function",
      "Deferred: flaky date test in utils - follow-up issue",
      "Verify: FAIL full tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904 2026-11-30 14:05 working",
      "Review R1: 2 findings tree 4b825dc6 reviewer opus mode code",
      "Finding R1-F2: medium src/a.ts:12 - retry never stops",
      "Received R1: R1-F1 ACCEPT, R1-F2 REJECT Re-review: not needed",
      "Round task-2 1: middleware test timed out waiting for the fake clock",
      "   ",
    ];
    for (const text of lines) expect(renderLine(ok(text))).toBe(text);
  });

  it("types the parts a reader needs", () => {
    expect(ok("Initial dirty state: README.md, src/config.ts (staged)")).toEqual({
      kind: "dirty",
      paths: [
        { path: "README.md", staged: false },
        { path: "src/config.ts", staged: true },
      ],
    });
    expect(ok("Task 4: blocked - conflicting intent: spec docs/x.md back to draft")).toEqual({
      kind: "task",
      n: 4,
      state: { state: "blocked", blocker: "conflicting intent", detail: "spec docs/x.md back to draft" },
    });
    expect(ok("Received R2: R2-F1 PARTIAL, Re-review: needed")).toMatchObject({ r: 2, comma: true, rereview: "needed" });
  });

  it("refuses a done or in-progress task without evidence, and a done task whose evidence is no 'command -> result'", () => {
    expect(issue("Task 1: done")).toMatch(/command -> result/);
    expect(issue("Task 1: done - it works")).toMatch(/command -> result/);
    expect(issue("Task 1: in progress")).toMatch(/evidence/);
  });

  it("refuses a blocked task that names none of the five blockers", () => {
    expect(issue("Task 1: blocked - the tests are red")).toMatch(/five blockers/);
    expect(issue("Task 1: blocked - missing permissions")).toMatch(/five blockers/);
    expect(ok("Task 1: blocked - an irreversible choice: drop the old table")).toMatchObject({ state: { blocker: "an irreversible choice" } });
  });

  it("refuses a Base that is no full SHA, and a set Base without Root and Branch", () => {
    expect(issue("Base: 3f9c2a7 Root: /r Branch: b")).toMatch(/full commit SHA/);
    expect(issue("Base: 3f9c2a7e1b4d8f6a0c5e9b2d7f1a4c8e6b3d0f92")).toMatch(/Root/);
  });

  it("names the grammar of a line that starts like a known one, and the known starts otherwise", () => {
    expect(issue("Commits: sometimes")).toMatch(/Commits: allowed\|ask once\|forbidden/);
    expect(issue("Task 01: pending")).toMatch(/Task <n>/);
    expect(issue("Status: done")).toMatch(/starts with one of: Base, Branch/);
  });
});
