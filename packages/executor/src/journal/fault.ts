// The journal's expected failures: a stable `code` plus the data naming the input.

/**
 * A block left open: a fence or an HTML comment opened at `line` and never closed, or a fence
 * closed (at `closed`) only by the closing fence of the block opened at `nested` inside it.
 */
export interface LeftOpen {
  line: number;
  kind: "fence" | "comment";
  nested?: number;
  closed?: number;
}

/** Every expected failure of the journal functions; `line` is 1-based in the markdown given. */
export type JournalFault =
  | { code: "record-line-invalid"; line: number; text: string; issue: string }
  /** A line ended by a lone CR, a NUL character, two byte order marks at the start (see `textFault`). */
  | { code: "line-end-cr"; line: number }
  | { code: "nul-character"; line: number }
  | { code: "repeated-bom"; line: number }
  /** A block left open where the record is read or written: see `LeftOpen`. */
  | ({ code: "record-unclosed" } & LeftOpen)
  /** A block left open hides the heading at `heading`: see `hiddenHeading`. */
  | ({ code: "heading-hidden"; heading: number; text: string } & LeftOpen)
  | { code: "plan-invalid"; line: number; issue: string }
  | { code: "task-unknown"; task: number }
  | { code: "state-invalid"; task: number; issue: string };

/** Every journal fault code, for exhaustive tables. */
export const JOURNAL_FAULT_CODES = [
  "record-line-invalid",
  "line-end-cr",
  "nul-character",
  "repeated-bom",
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
    case "line-end-cr":
      return `line ${fault.line} ends with a lone CR (carriage return), which Markdown reads as a line break where grep, git diff and a terminal show one line: convert line endings to LF or CRLF`;
    case "nul-character":
      return `line ${fault.line} holds a NUL character (U+0000), which no text holds: remove it`;
    case "repeated-bom":
      return `line ${fault.line}: the file starts with two byte order marks (U+FEFF); one is accepted, and the second would be an invisible character opening the first line: remove one`;
    case "record-unclosed":
      return leftOpenText(fault, "the record cannot be read or written there");
    case "heading-hidden":
      return leftOpenText(fault, `it hides the heading ${JSON.stringify(fault.text)} at line ${fault.heading}, which is read as no heading`);
    case "plan-invalid":
      return `line ${fault.line} of the plan: ${fault.issue}`;
    case "task-unknown":
      return `the record has no line for Task ${fault.task}`;
    case "state-invalid":
      return `Task ${fault.task}: ${fault.issue}`;
  }
}

/** What a block left open is, `so` what follows from it, and how to mend it. */
function leftOpenText(f: LeftOpen, so: string): string {
  if (f.kind === "comment") return `the HTML comment opened at line ${f.line} is never closed (-->), so ${so}: close the comment`;
  if (f.closed === undefined || f.nested === undefined) return `the fenced block opened at line ${f.line} is never closed, so ${so}: close the block`;
  return `the fenced block opened at line ${f.line} is never closed: the fence at line ${f.closed} that ends it is the end of the block opened at line ${f.nested} inside it, so ${so}: close the block of line ${f.line}`;
}
