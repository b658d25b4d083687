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
    expect(describeJournalFault(lost)).toMatch(/^the fenced block opened at line 3 is never closed, so it hides the heading "## Task 2: b" at line 6/);
  });

  it("reads a record quoted in a block that closes as written, and a longer fence around a text block, as quoted", () => {
    const quoted = `# P\n\n## Task 1: a\n\n\`\`\`\`md\n${RECORD}\`\`\`\`\n\n${RECORD.replace("done - true -> ok", "pending")}`;
    const record = parseRecord(quoted)._unsafeUnwrap();
    expect(record.section?.heading).toBe(14);
    expect(taskStates(readTaskPlan(quoted)._unsafeUnwrap(), record).get(1)).toEqual({ state: "pending" });
  });
});

describe("a block left open inside the record section, above its text block", () => {
  const HEAD = `${TASKS}\n## Execution record\n\n`;
  const BLOCK = "```text\nBase: unset\nTask 1: done - true -> ok\n```\n";

  it("refuses a comment never closed that hides the text block, naming its line, never an empty record", () => {
    const fault = parseRecord(`${HEAD}<!-- TODO: tidy these notes up\n\n${BLOCK}`)._unsafeUnwrapErr();
    expect(fault).toEqual({ code: "record-unclosed", line: 13, kind: "comment" });
    expect(describeJournalFault(fault)).toBe(
      "the HTML comment opened at line 13 is never closed (-->), so the record cannot be read or written there: close the comment",
    );
  });

  it("refuses a lone fence that the text block's own fence closes, naming both lines", () => {
    const fault = parseRecord(`${HEAD}Notes:\n\`\`\`\n\n${BLOCK}`)._unsafeUnwrapErr();
    expect(fault).toEqual({ code: "record-unclosed", line: 14, kind: "fence", nested: 16, closed: 19 });
    expect(describeJournalFault(fault)).toBe(
      "the fenced block opened at line 14 is never closed: the fence at line 19 that ends it is the end of the block opened at line 16 inside it, so the record cannot be read or written there: close the block of line 14",
    );
  });

  it("refuses a fence of the other character never closed, which runs to the end of the file", () => {
    expect(parseRecord(`${HEAD}~~~\n${BLOCK}`)._unsafeUnwrapErr()).toEqual({ code: "record-unclosed", line: 13, kind: "fence" });
  });

  it("still steps over closed blocks before the text block, and reads a record commented out as none", () => {
    const record = parseRecord(`${HEAD}<!-- a note -->\n\`\`\`sh\nmake\n\`\`\`\n${BLOCK}`)._unsafeUnwrap();
    expect(record.entries.map((e) => e.line)).toEqual([18, 19]);
    expect(parseRecord(`${HEAD}<!--\n${BLOCK}-->\n`)._unsafeUnwrap().entries).toEqual([]);
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
  const openers = ["```", "~~~", "````", "```sh", "<!--", "<!-- x"];
  const heading = md.split("\n").indexOf("## Execution record");
  const textBlock = md.split("\n").indexOf("```text");
  // An opener goes on any line up to the text block's opening fence: above the record heading, and
  // between the heading and its text block (each opener in each of those spots is tried every run).
  const inSection = openers.flatMap((o) => [heading + 1, textBlock].map((at): [number, string] => [at, o]));
  it("a fence or comment opener put on any line above the record's text block: refused, or the same states", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: textBlock }), fc.constantFrom(...openers), (at, opener) => {
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
      { examples: inSection },
    );
  });
});
