// The journal's expected failures: a stable `code` plus the data naming the input.

/** Every expected failure of the journal functions; `line` is 1-based in the markdown given. */
export type JournalFault =
  | { code: "record-line-invalid"; line: number; text: string; issue: string }
  | { code: "record-unclosed"; line: number }
  | { code: "plan-invalid"; line: number; issue: string }
  | { code: "task-unknown"; task: number }
  | { code: "state-invalid"; task: number; issue: string };

/** Every journal fault code, for exhaustive tables. */
export const JOURNAL_FAULT_CODES = [
  "record-line-invalid",
  "record-unclosed",
  "plan-invalid",
  "task-unknown",
  "state-invalid",
] as const satisfies readonly JournalFault["code"][];

/** The sentence for a journal fault, rendered from its data. */
export function describeJournalFault(fault: JournalFault): string {
  switch (fault.code) {
    case "record-line-invalid":
      return `line ${fault.line} of the record is malformed (${fault.issue}): ${JSON.stringify(fault.text)}`;
    case "record-unclosed":
      return `the fenced block opened at line ${fault.line} is never closed, so the record cannot be read or written there`;
    case "plan-invalid":
      return `line ${fault.line} of the plan: ${fault.issue}`;
    case "task-unknown":
      return `the record has no line for Task ${fault.task}`;
    case "state-invalid":
      return `Task ${fault.task}: ${fault.issue}`;
  }
}
