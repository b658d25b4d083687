// The journal's expected failures: a stable `code` plus the data naming the input.

/** Every expected failure of the journal functions; `line` is 1-based in the markdown given. */
export type JournalFault =
  | { code: "record-line-invalid"; line: number; text: string; issue: string }
  | { code: "record-unclosed"; line: number }
  /** A block left open (opened at `line`) hides the heading at `heading`: see `hiddenHeading`. */
  | { code: "heading-hidden"; line: number; kind: "fence" | "comment"; nested?: number; closed?: number; heading: number; text: string }
  | { code: "plan-invalid"; line: number; issue: string }
  | { code: "task-unknown"; task: number }
  | { code: "state-invalid"; task: number; issue: string };

/** Every journal fault code, for exhaustive tables. */
export const JOURNAL_FAULT_CODES = [
  "record-line-invalid",
  "record-unclosed",
  "heading-hidden",
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
    case "heading-hidden":
      return hiddenText(fault);
    case "plan-invalid":
      return `line ${fault.line} of the plan: ${fault.issue}`;
    case "task-unknown":
      return `the record has no line for Task ${fault.task}`;
    case "state-invalid":
      return `Task ${fault.task}: ${fault.issue}`;
  }
}

function hiddenText(f: Extract<JournalFault, { code: "heading-hidden" }>): string {
  const hides = `hides the heading ${JSON.stringify(f.text)} at line ${f.heading}, which is read as no heading`;
  if (f.kind === "comment") return `the HTML comment opened at line ${f.line} is never closed (-->) and ${hides}: close the comment`;
  if (f.closed === undefined || f.nested === undefined) return `the fenced block opened at line ${f.line} is never closed and ${hides}: close the block`;
  return `the fenced block opened at line ${f.line} is never closed: the fence at line ${f.closed} that ends it is the end of the block opened at line ${f.nested} inside it, so it ${hides}: close the block of line ${f.line}`;
}
