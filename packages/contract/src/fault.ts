/** Why an acceptance line could not be read. */
export type AcceptanceProblem =
  | "no-command"
  | "unrecognised"
  | "bad-regex"
  | "duplicate-exit"
  | "command-has-newline";

/** Every expected failure of @decay/contract: a code plus the data (always a line) to name it. */
export type ContractFault =
  | { code: "no-recommendation"; line: number }
  | { code: "task-plan"; line: number; heading: string }
  | { code: "recommendation-not-staged"; line: number; heading: string }
  | { code: "acceptance-invalid"; line: number; problem: AcceptanceProblem; text: string }
  | { code: "duplicate-exit"; line: number; first: number }
  | { code: "depends-unknown"; line: number; ref: string }
  | { code: "row-writer-failed"; line: number; stage: string; reason: string }
  | { code: "row-invalid"; line: number; stage: string; index: number; issue: string }
  | { code: "contract-malformed"; line: number; expected: string; found: string }
  | { code: "contract-invalid"; line: number; path: string; issue: string }
  | { code: "contract-integrity"; line: number; field: string; recorded: string; found: string }
  | { code: "contract-version"; line: number; found: string; supported: readonly string[] }
  | { code: "not-utf8"; line: number; offset: number; column: number; byte: string }
  | { code: "cr-line-endings"; line: number };

/** The sentence for a fault, rendered from its data; the one place faults become words. */
export function describeFault(fault: ContractFault): string {
  const at = `line ${fault.line}: `;
  switch (fault.code) {
    case "no-recommendation":
      return `${at}no staged recommendation: no heading numbered 6 or naming Recommendation, Migration sequence, Stages or Rollout, and no Stage/Phase/Step headings`;
    case "task-plan":
      return `${at}"${fault.heading}" starts a task plan, not a staged recommendation; an execution record's progress is a claim, not acceptance. Write a recommendation section with stages, Exit: and Acceptance: lines (docs/plan-format.md)`;
    case "recommendation-not-staged":
      return `${at}recommendation is not staged: "${fault.heading}" holds no stage headings (Stage 1:, Phase 1, S1:, Step 1) and no numbered list; stage boundaries are not invented`;
    case "acceptance-invalid":
      return `${at}acceptance line not understood (${problemText(fault.problem)}): ${fault.text}`;
    case "duplicate-exit":
      return `${at}a second Exit: line in the same stage (the first is on line ${fault.first})`;
    case "depends-unknown":
      return `${at}Depends on names "${fault.ref}", which is no earlier stage of this plan`;
    case "row-writer-failed":
      return `${at}the row writer failed for stage ${fault.stage}: ${fault.reason}`;
    case "row-invalid":
      return `${at}row ${fault.index + 1} the row writer gave for stage ${fault.stage} is invalid: ${fault.issue}`;
    case "contract-malformed":
      return `${at}expected ${fault.expected}, found ${JSON.stringify(fault.found)}`;
    case "contract-invalid":
      return `${at}${fault.path ? `${fault.path}: ` : ""}${fault.issue}`;
    case "contract-integrity":
      return `${at}the contract does not match its own ${fault.field} (recorded ${fault.recorded}, found ${fault.found}): it was truncated or edited after it was compiled; compile the plan again`;
    case "contract-version":
      return `${at}contract format ${JSON.stringify(fault.found)} is not supported; this reader supports ${fault.supported.join(", ")}`;
    case "cr-line-endings":
      return `${at}line endings are CR only; convert to LF or CRLF`;
    case "not-utf8":
      return `${at}the file is not valid UTF-8: byte 0x${fault.byte} at byte offset ${fault.offset} (byte ${fault.column} of the line) cannot be decoded`;
  }
}

function problemText(problem: AcceptanceProblem): string {
  switch (problem) {
    case "no-command":
      return "no backticked command after Acceptance:";
    case "unrecognised":
      return "expected exits N, prints `text`, matches /regex/ or at least N `text`|/regex/";
    case "bad-regex":
      return "the regular expression does not compile";
    case "duplicate-exit":
      return "two exit codes";
    case "command-has-newline":
      return "a command is one line";
  }
}
