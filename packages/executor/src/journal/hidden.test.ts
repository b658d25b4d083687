// A heading the journal looks for (the record's, a task's) hidden by a block left open is refused,
// naming the block's line and the heading's; an HTML comment is no text, so a heading in one is
// none. A task state is never read from a record that was not the one written.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { describeJournalFault } from "./fault.js";
import { readTaskPlan } from "./plan.js";
import { taskStates } from "./read.js";
import { parseRecord } from "./record.js";

const RECORD = "## Execution record\n\n```text\nBase: unset\nTask 1: done - true -> ok\nTask 2: in progress - started at 9b1e44c\n```\n";
const TASKS = "# Plan: x\n\n## Task 1: a\n\nCheck: `true` -> ok\n\n## Task 2: b\n\nNotes:\n";

describe("a block left open that hides a heading", () => {
  it("refuses a fence in a task's notes that the record's own fence closes, naming both lines", () => {
    const fault = parseRecord(`${TASKS}\`\`\`\n\n${RECORD}`)._unsafeUnwrapErr();
    expect(fault).toEqual({ code: "heading-hidden", line: 10, kind: "fence", nested: 14, closed: 18, heading: 12, text: "## Execution record" });
    expect(describeJournalFault(fault)).toBe(
      'the fenced block opened at line 10 is never closed: the fence at line 18 that ends it is the end of the block opened at line 14 inside it, so it hides the heading "## Execution record" at line 12, which is read as no heading: close the block of line 10',
    );
  });

  it("refuses a fence or a comment never closed that hides the record heading or a task", () => {
    expect(parseRecord(`${TASKS}~~~\n\n${RECORD}`)._unsafeUnwrapErr()).toEqual({
      code: "heading-hidden",
      line: 10,
      kind: "fence",
      heading: 12,
      text: "## Execution record",
    });
    expect(parseRecord(`${TASKS}<!--\n\n${RECORD}`)._unsafeUnwrapErr()).toMatchObject({ code: "heading-hidden", line: 10, kind: "comment", heading: 12 });
    const lost = readTaskPlan("## Task 1: a\n\n```sh\nmake\n\n## Task 2: b\n")._unsafeUnwrapErr();
    expect(lost).toEqual({ code: "heading-hidden", line: 3, kind: "fence", heading: 6, text: "## Task 2: b" });
    expect(describeJournalFault(lost)).toMatch(/^the fenced block opened at line 3 is never closed and hides the heading "## Task 2: b" at line 6/);
  });

  it("reads a record quoted in a block that closes as written, and a longer fence around a text block, as quoted", () => {
    const quoted = `# P\n\n## Task 1: a\n\n\`\`\`\`md\n${RECORD}\`\`\`\`\n\n${RECORD.replace("done - true -> ok", "pending")}`;
    const record = parseRecord(quoted)._unsafeUnwrap();
    expect(record.section?.heading).toBe(14);
    expect(taskStates(readTaskPlan(quoted)._unsafeUnwrap(), record).get(1)).toEqual({ state: "pending" });
  });
});

describe("HTML comments are no text", () => {
  it("an Execution record inside a comment after the real one is no record", () => {
    const md = `# Plan: x\n\n## Task 1: a\n\nCheck: \`true\` -> ok\n\n${RECORD}\n<!--\n## Execution record\n\n\`\`\`text\nBase: unset\nTask 1: pending\n\`\`\`\n-->\n`;
    const record = parseRecord(md)._unsafeUnwrap();
    expect(taskStates(readTaskPlan(md)._unsafeUnwrap(), record).get(1)).toEqual({ state: "done", evidence: "true -> ok" });
  });

  it("a task heading or a field inside a comment is none, and a one-line comment hides only itself", () => {
    const plan = readTaskPlan("## Task 1: a\n<!-- Check: old -->\nCheck: new\n<!--\n## Task 2: b\n-->\n")._unsafeUnwrap();
    expect(plan.tasks.map((t) => [t.n, t.check])).toEqual([[1, "new"]]);
  });
});

describe("property: never a state from a record that was not read", () => {
  const md = `${TASKS}\n${RECORD}`;
  const lineCount = md.split("\n").length;
  it("a fence or comment opener put on any line above the record: refused, or the same states", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: lineCount - 8 }), fc.constantFrom("```", "~~~", "````", "```sh", "<!--", "<!-- x"), (at, opener) => {
        const lines = md.split("\n");
        lines.splice(at, 0, opener);
        const changed = lines.join("\n");
        const plan = readTaskPlan(changed);
        const record = parseRecord(changed);
        if (plan.isErr() || record.isErr()) return;
        const states = taskStates(plan.value, record.value);
        expect(states.get(1)).toEqual({ state: "done", evidence: "true -> ok" });
        expect(states.get(2)).toEqual({ state: "in progress", evidence: "started at 9b1e44c" });
      }),
    );
  });
});
