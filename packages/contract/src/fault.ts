import { MAX_EXIT } from "./numeral.js";
import { MAX_BOUNDARY_RUN, MAX_CHOICE_RUN, MAX_GROUP_DEPTH, MAX_REPEAT_PRODUCT } from "./patterns.js";

/** Why a regular expression cannot be an acceptance pattern (they are compiled without flags). */
export type PatternProblem = "bad-regex" | "too-deep" | "too-complex" | "unicode-escape" | "empty-match" | "matches-anything";

/** Why an acceptance line could not be read. */
export type AcceptanceProblem =
  | PatternProblem
  | "no-command"
  | "unrecognised"
  | "count-of-lines"
  | "duplicate-exit"
  | "command-has-newline"
  | "count-too-large"
  | "count-zero"
  | "number-not-canonical"
  | "exit-out-of-range"
  | "fenced-command"
  | "words-before-command"
  | "list-item-not-command"
  | "nested-command"
  | "trailing-separator";

/** What a line that looks like plan structure was read as: nothing, which is a fault. */
export type UnreadKind =
  | "stage-heading"
  | "stage-too-deep"
  | "depends-spelled"
  | "nested-heading"
  | "nested-section"
  | "heading-no-space"
  | "heading-too-deep"
  | "heading-html"
  | "acceptance"
  | "exit"
  | "unclosed-fence"
  | "unclosed-comment"
  | "rule-in-list"
  | "list-split"
  | "prose-covers-row"
  | "after-comment";

/** Every expected failure of @decay/contract: a code plus the data (always a line) to name it. */
export type ContractFault =
  | { code: "no-recommendation"; line: number; heading?: string }
  | { code: "encoding"; line: number; encoding: string }
  /** A NUL character (U+0000) in a UTF-8 plan: no text holds one. */
  | { code: "nul-character"; line: number }
  | { code: "task-plan"; line: number; heading: string }
  | { code: "recommendation-not-staged"; line: number; heading: string }
  | {
      code: "acceptance-invalid";
      line: number;
      problem: AcceptanceProblem;
      text: string;
      /** The part not understood (the number as written, for `number-not-canonical` and `exit-out-of-range`); `after`: a second part after the command, not understood either. */
      unread?: string;
      after?: string;
      /** A line that would be read. */
      write?: string;
      /** The label the line or list was written under, as written (`Verify:`, `Acceptance criteria`); absent: `Acceptance:`. */
      label?: string;
      /** For a list item: the line of the label the list is under. */
      labelLine?: number;
    }
  | {
      code: "structure-unread";
      line: number;
      kind: UnreadKind;
      text: string;
      underline?: number;
      /** For an unclosed fence or comment: the first line of structure it hides; for a thematic break in an acceptance list, the first item after it. */
      hides?: { line: number; text: string };
      /** For a stage heading spelt as no heading: the heading to write. */
      write?: string;
    }
  | { code: "duplicate-label"; line: number; first: number; label: string }
  | { code: "import-unrecognised"; line: number }
  | { code: "import-duplicate"; line: number; first: number; label: string }
  | {
      code: "import-unclosed";
      line: number;
      kind: "fence" | "comment";
      text: string;
      /** The first line it hides that the import reads (a heading, a step label), else the first that is not blank; absent when none. */
      hides?: { line: number; text: string };
    }
  | { code: "duplicate-exit"; line: number; first: number }
  | { code: "duplicate-depends"; line: number; first: number }
  | { code: "depends-unknown"; line: number; ref: string }
  | { code: "depends-empty"; line: number }
  | { code: "optional-unclear"; line: number; text: string }
  | { code: "row-writer-failed"; line: number; stage: string; reason: string }
  | { code: "row-invalid"; line: number; stage: string; index: number; issue: string }
  | { code: "contract-malformed"; line: number; expected: string; found: string }
  | { code: "contract-invalid"; line: number; path: string; issue: string }
  | { code: "contract-integrity"; line: number; field: string; recorded: string; found: string }
  | { code: "contract-version"; line: number; found: string; supported: readonly string[] }
  | { code: "not-utf8"; line: number; offset: number; column: number; byte: string }
  | { code: "cr-line-endings"; line: number }
  /** A second byte order mark after the one a file may open with: the text opens with an invisible U+FEFF. */
  | { code: "repeated-bom"; line: number }
  | { code: "contract-crlf"; line: number };

/** The most characters of a plan's own text a message quotes; the rest is counted, not echoed. */
const QUOTE_LIMIT = 80;

/** `"text"` in double quotes, cut after QUOTE_LIMIT characters (never inside a surrogate pair) with `…` and the length. */
function q(text: string): string {
  if (text.length <= QUOTE_LIMIT) return `"${text}"`;
  const end = /[\uD800-\uDBFF]/.test(text.charAt(QUOTE_LIMIT - 1)) ? QUOTE_LIMIT - 1 : QUOTE_LIMIT;
  return `"${text.slice(0, end)}"… (${text.length} characters)`;
}

/** The sentence for a fault, rendered from its data; the one place faults become words. */
export function describeFault(fault: ContractFault): string {
  const at = `line ${fault.line}: `;
  switch (fault.code) {
    case "no-recommendation":
      return `${at}no staged recommendation${fault.heading === undefined ? " (the plan has no heading)" : ` (${q(fault.heading)} is the first of the headings looked at)`}: no heading numbered 6 or naming Recommendation, Migration sequence, Stages or Rollout, and no Stage/Phase/Step/Milestone headings`;
    case "encoding":
      return `${at}the plan is ${fault.encoding}, not UTF-8: save it as UTF-8 and compile again`;
    case "nul-character":
      return `${at}the plan holds a NUL character (U+0000), which no text holds: remove it and compile again`;
    case "structure-unread":
      return `${at}${unreadText(fault)}${fault.underline === undefined ? "" : `; the line ${fault.underline} under it (--- or ===) makes it a heading: put a blank line between them`}`;
    case "import-unrecognised":
      return `${at}not a task plan (### Task N), a spec-kit tasks.md (## Phase N with - [ ] T001 tasks) or an OpenSpec tasks.md (## 1. Group with - [ ] 1.1 tasks): nothing to import`;
    case "import-unclosed":
      return `${at}${unclosedText(fault.kind, fault.text, fault.hides, ", and would hide what the import writes after it")}`;
    case "import-duplicate":
      return `${at}a second ${q(fault.label)} (the first is on line ${fault.first}): each becomes a stage, and a stage needs its own number; renumber one of them`;
    case "duplicate-label":
      return `${at}a second stage labelled ${q(fault.label)} (the first is on line ${fault.first}): each stage needs its own label`;
    case "task-plan":
      return `${at}${q(fault.heading)} starts a task plan, not a staged recommendation; an execution record's progress is a claim, not acceptance. Write a recommendation section with stages, Exit: and Acceptance: lines (docs/plan-format.md), or convert it with decay-contract import`;
    case "recommendation-not-staged":
      return `${at}recommendation is not staged: ${q(fault.heading)} holds no stage headings (### Stage 1: Title, ### Phase B, ### Step 2 — Title, ### Milestone 3, ### S1: Title) and no numbered list (1. **Title** …); stage boundaries are not invented`;
    case "acceptance-invalid":
      return `${at}${acceptanceText(fault)}`;
    case "duplicate-exit":
      return `${at}a second Exit: line in the same stage (the first is on line ${fault.first})`;
    case "duplicate-depends":
      return `${at}a second Depends on: line in the same stage (the first is on line ${fault.first}): name every stage it depends on in one line (Depends on: Stage 1, Stage 2)`;
    case "depends-unknown":
      return `${at}Depends on names ${q(fault.ref)}, which is no earlier stage of this plan`;
    case "depends-empty":
      return `${at}Depends on: names no stage, on its line or in a list or paragraph right under it: name the stages (Depends on: Stage 1, Stage 2), or write Depends on: none for a stage that depends on no other`;
    case "optional-unclear":
      return `${at}${q(fault.text)} may make the whole stage optional (its acceptance then never runs) or only the step it goes on to name: to make the stage optional, write (optional) in its heading or a paragraph Optional. on its own; for an optional step, write it as a list item (- Optional: …), ${PROSE}`;
    case "row-writer-failed":
      return `${at}the row writer failed for stage ${fault.stage}: ${fault.reason}`;
    case "row-invalid":
      return `${at}row ${fault.index + 1} the row writer gave for stage ${fault.stage} is invalid: ${fault.issue}`;
    case "contract-malformed":
      return `${at}expected ${fault.expected}, found ${q(JSON.stringify(fault.found).slice(1, -1))}`;
    case "contract-invalid":
      return `${at}${fault.path ? `${fault.path}: ` : ""}${fault.issue}`;
    case "contract-integrity":
      return `${at}the contract does not match its own ${fault.field} (recorded ${fault.recorded}, found ${fault.found}): it was truncated or edited after it was compiled; compile the plan again`;
    case "contract-version":
      return `${at}contract format ${q(JSON.stringify(fault.found).slice(1, -1))} is not supported; this reader supports ${fault.supported.join(", ")}`;
    case "cr-line-endings":
      return `${at}the line ends in CR alone; convert line endings to LF or CRLF`;
    case "repeated-bom":
      return `${at}the file starts with two byte order marks (U+FEFF); one is accepted, and the second would be an invisible character opening the first line: remove one`;
    case "contract-crlf":
      return `${at}the contract has CRLF line endings, and its digest is of the LF text it was written with: convert it to LF, or mark contract.md -text in .gitattributes so git leaves its line endings alone`;
    case "not-utf8":
      return `${at}the file is not valid UTF-8: byte 0x${fault.byte} at byte offset ${fault.offset} (byte ${fault.column} of the line) cannot be decoded`;
  }
}

const EXPECTATIONS = "exits N, prints `text`, matches /regex/ or at least N `text`|/regex/";
const PROSE = "or put <!-- decay: prose --> on the line before it to keep it as prose";

/** A fence or an HTML comment never closed: what it hides, and how to close it; `after` says what else it would hide. */
function unclosedText(kind: "fence" | "comment", text: string, hides?: { line: number; text: string }, after = ""): string {
  const what = kind === "fence" ? "a code fence" : "an HTML comment";
  const close = kind === "fence" ? "a line of at least as many of the same backticks or tildes" : "-->";
  const hidden = hides === undefined ? "" : ` and hides line ${hides.line} (${q(hides.text)})`;
  return `${q(text)} opens ${what} that is never closed: it runs to the end of the plan${hidden}${after}; close it with ${close}`;
}

const OPENS_NO_STAGE = "it opens no stage, and its lines would be read as the text above it";

function unreadText({ kind, text, hides, write }: Extract<ContractFault, { code: "structure-unread" }>): string {
  switch (kind) {
    case "unclosed-fence":
      return unclosedText("fence", text, hides);
    case "unclosed-comment":
      return unclosedText("comment", text, hides);
    case "stage-heading":
      return `${q(text)} looks like a stage heading but was read as no stage: write it as a stage heading inside the recommendation (### Stage 1: Title, ### Phase B: Title, ### Step 2 — Title); to keep it as text, name it without a stage word and number, or put <!-- decay: prose --> on the line before it (over a heading, the marker makes its whole section prose, rows included)`;
    case "depends-spelled":
      return `${q(text)} names an earlier stage in a label not read as a dependency: with no Depends on: line the stage depends on the one before it. Write ${q(write ?? "")}, ${PROSE}`;
    case "stage-too-deep":
      return `${q(text)} sits one level below a stage and reads as the next stage at the wrong level: its lines would count for the stage above it. Write it at the stages' level (${q(write ?? "")}), or, if it is part of the stage above, name it without the next stage's number (its title alone); a prose marker over a heading would make its whole section prose, rows included`;
    case "nested-heading":
      return `${q(text)} is a heading inside a list item or a block quote, which is never a stage: write the stage heading at the margin, with no list marker, > or indent before its #, ${PROSE}`;
    case "nested-section":
      return `${q(text)} is a heading inside a list item or a block quote, which opens no section: what it holds would be no guardrails or falsifiers, and an item such as "deploy on Fridays" under "Do not" would read as the opposite instruction; write the heading at the margin, with no list marker, > or indent before its #, ${PROSE}`;
    case "heading-no-space":
      return `${q(text)} looks like a stage heading but is no heading (a # heading needs a space after its #s): ${OPENS_NO_STAGE}; write ${q(write ?? "")}, ${PROSE}`;
    case "heading-too-deep":
      return `${q(text)} looks like a stage heading but is no heading (a # heading has at most six #s): ${OPENS_NO_STAGE}; write ${q(write ?? "")}, ${PROSE}`;
    case "heading-html":
      return `${q(text)} looks like a stage heading but is HTML, never read as a heading: ${OPENS_NO_STAGE}; write ${q(write ?? "")}, ${PROSE}`;
    case "rule-in-list":
      return `${q(text)} is a thematic break between the items of an acceptance list: it ends the list, so line ${hides?.line ?? 0} (${q(hides?.text ?? "")}) and the items after it would be read as instructions, not rows; delete the break, or write Acceptance: over the items after it, ${PROSE}`;
    case "list-split":
      return `${q(text)} ends the acceptance list above it (CommonMark ends a list at a line back at the margin, a comment or code), so line ${hides?.line ?? 0} (${q(hides?.text ?? "")}) would be read as instructions, not a row: write Acceptance: again over it, indent ${q(text)} into the item above, ${PROSE}`;
    case "prose-covers-row":
      return `${q(text)} is an acceptance row, but the <!-- decay: prose --> marker on line ${hides?.line ?? 0} covers its whole paragraph, down to a blank line, so the row would be read as prose: put a blank line before it, and the marker covers only the lines above`;
    case "after-comment":
      return `${q(text)} holds text after the comment's --> : Markdown shows it, but the line belongs to the comment's block, so it would not be read as part of the plan; put the text on a line of its own`;
    case "acceptance":
      return `${q(text)} looks like an acceptance line but was not read: write it inside a stage as Acceptance: \`command\` exits 0, ${PROSE}`;
    case "exit":
      return `${q(text)} looks like an exit criterion but was not read: write it inside a stage as Exit: text, ${PROSE}`;
  }
}

type AcceptanceInvalid = Extract<ContractFault, { code: "acceptance-invalid" }>;

function acceptanceText(f: AcceptanceInvalid): string {
  const label = f.label ?? "Acceptance:";
  const quote = q(`${label} ${f.text}`);
  const under = `the ${q(label)} label${f.labelLine === undefined ? "" : ` on line ${f.labelLine}`}`;
  const write = f.write === undefined ? "" : `; write: ${f.write.length <= QUOTE_LIMIT ? f.write : q(f.write)}`;
  switch (f.problem) {
    case "fenced-command":
      if (f.label === undefined)
        return `${q(f.text)} is followed by a fenced block: an acceptance command is one inline code span on the Acceptance: line itself${write}`;
      return `${q(f.text)} is followed by a code block, which is never read as acceptance: a command under ${q(label)} is one inline code span after it, or an item of a list under it; the stage's other rows would run and this block would not${write}, ${PROSE}`;
    case "words-before-command":
      return `acceptance line not understood: ${quote}: ${q(f.unread ?? "")} before the command is not read${f.after === undefined ? "" : `, nor is ${q(f.after)} after it`}; the line starts with the command in backticks, then ${EXPECTATIONS}${write}`;
    case "list-item-not-command":
      return `acceptance list item not understood: ${q(f.text)}: each item under ${under} starts with a command in backticks, then ${EXPECTATIONS}; for criteria a person checks, put <!-- decay: prose --> on the line before ${q(label)}`;
    case "nested-command":
      return `acceptance list item not understood: ${q(f.text)} is a command in a list nested under another item, and a nested item is no row: write each command as an item of the list right under ${under}`;
    case "unrecognised":
      return `acceptance line not understood: ${quote}: ${q(f.unread ?? f.text)} is not read; after the command write ${EXPECTATIONS}`;
    case "trailing-separator":
      return `acceptance line not understood: ${quote} ends in ${q(f.unread ?? "")} with no expectation after it: write the expectation on the same line (a line after it continues it only when it starts with and, then, exits, prints, matches, stdout or at least)`;
    case "number-not-canonical":
      return `acceptance line not understood: ${quote}: the number ${q(f.unread ?? "")} is written with a leading zero, and a number is written as the contract writes it back: write ${(f.unread ?? "").replace(/^0+(?=\d)/, "")}`;
    case "exit-out-of-range":
      return `acceptance line not understood: ${quote}: exit code ${f.unread ?? ""} is out of range: an exit code is 0 to ${MAX_EXIT}`;
    case "no-command":
      return `acceptance line not understood: ${f.text === "" ? `${q(label)} has nothing after it and no list of commands under it` : `${quote} holds no command in backticks`}; write Acceptance: \`command\` exits 0, ${PROSE}`;
    default:
      return `acceptance line not understood (${problemText(f.problem)}): ${quote}${write}`;
  }
}

function problemText(problem: AcceptanceProblem): string {
  switch (problem) {
    case "no-command":
    case "unrecognised":
    case "fenced-command":
    case "words-before-command":
    case "list-item-not-command":
    case "nested-command":
    case "trailing-separator":
      return `expected ${EXPECTATIONS}`;
    case "bad-regex":
    case "too-deep":
    case "too-complex":
    case "unicode-escape":
    case "empty-match":
    case "matches-anything":
      return patternProblemText(problem);
    case "count-of-lines":
      return "at least N counts matches of the pattern in the whole output, not lines: write at least N /regex/";
    case "duplicate-exit":
      return "two exit codes";
    case "command-has-newline":
      return "a command is one line";
    case "count-too-large":
      return `a count of at most ${Number.MAX_SAFE_INTEGER}`;
    case "count-zero":
      return "at least 0 holds on any output and checks nothing: a count is at least 1";
    case "number-not-canonical":
      return "a number is written with no leading zero";
    case "exit-out-of-range":
      return `an exit code is 0 to ${MAX_EXIT}`;
  }
}

/** The sentence for a pattern an acceptance row cannot hold; the plan reader and the contract reader both say it. */
export function patternProblemText(problem: PatternProblem): string {
  switch (problem) {
    case "bad-regex":
      return "the regular expression does not compile (it does not parse, or the engine cannot compile it: too large, or too deep for its stack)";
    case "too-deep":
      return `the regular expression nests groups more than ${MAX_GROUP_DEPTH} deep, which the engine cannot be trusted to compile: write it flatter`;
    case "too-complex":
      return `the regular expression is one the engine takes minutes or all its memory to compile: repetitions inside each other (as (?:(?:a?){2,3}){2,3}) whose counts multiply past ${MAX_REPEAT_PRODUCT}, more than ${MAX_BOUNDARY_RUN} word boundaries (\\b, \\B) one after another with nothing consumed between, or more than ${MAX_CHOICE_RUN} places in a row where an empty match can go two ways (as (?:|) or (?!\\B) repeated), counting repeated groups: write it flatter`;
    case "unicode-escape":
      return "\\p{…}, \\P{…} and \\u{…} mean a Unicode property or code point only with the u flag, and acceptance patterns are compiled without flags, where \\p{L} matches the text p{L} and \\u{41} the letter u 41 times: write the characters out, as in [A-Za-z] or A";
    case "empty-match":
      return "an at least pattern that matches the empty string at some position (x*, ^, \\b, (?=a), (?<=a)) counts positions, not output: write one that needs at least one character wherever it matches";
    case "matches-anything":
      return "a matches pattern that matches an empty string at the start of every text or at the end of every text (x?, (?:), ^, $, (?!x), \\b|\\B) matches every output and checks nothing: write one that asks something of the output";
  }
}
