// `decay-contract check` in the CI formats: GitHub annotations, SARIF 2.1.0 and JUnit XML, through
// the renderers every decay CLI shares. A refusal is an error; a warning stays a warning.
import { renderAnnotations, renderJunit, renderSarif, type CheckItem, type ToolInfo } from "@decay/cli-kit";
import { type Contract, type Finding, FindingCode } from "../model.js";
import { VERSION } from "../version.js";
import type { Where } from "./locate.js";

const RULES: Readonly<Record<FindingCode, string>> = {
  "no-acceptance":
    "A stage the run includes (every non-optional one; an optional one under includeOptional) has no acceptance row: it would be green by default.",
  "nothing-verified": "The run includes no stage with an acceptance row (every stage optional and left out, or none with rows): it would verify nothing.",
  "review-note": "A row still holds REVIEW:, TODO, FIXME or NOTE:.",
  "git-clone": "A row runs git clone: the runtime already provides the clean room.",
  "writes-outward": "A row runs a command that writes outside the repository (publish, push, deploy...).",
  "opaque-command": "A row runs something the checker cannot see into.",
  "commit-per-stage-off": "fresh_state head with commit_per_stage false: acceptance would never see the work.",
  "worktree-state": "fresh_state worktree: a stage is never accepted on the working tree.",
  "ordering-missing": "An ordering prohibition of the plan is not held verbatim by any guardrail.",
  "ordering-unchecked": "No plan text was given, so ordering prohibitions were not checked.",
  "weak-row": "A test runner is asserted by exit code alone.",
  "plan-drift": "The plan's bytes no longer hash to the contract's plan_sha256.",
  "hidden-stage": "A stage heading of the plan sits inside a code block or an HTML comment, so no stage is made of it.",
};

/** decay-contract as a SARIF tool: one rule per finding code. */
export const TOOL: ToolInfo = {
  name: "decay-contract",
  version: VERSION,
  informationUri: "https://www.npmjs.com/package/@decay/contract",
  rules: FindingCode.options.map((id) => ({ id, description: RULES[id] })),
};

/** What the CI formats need to know about one check: the file as named, its findings, where each sits. */
export interface CheckedFile {
  /** The checked file from the working directory, `/`-separated; undefined for standard input. */
  readonly file: string | undefined;
  readonly contract: Contract;
  readonly findings: readonly Finding[];
  readonly lineOf: (at: Where) => number;
}

function where(f: Finding): string {
  return [f.stage, f.row].filter((x) => x !== null).join(" ");
}

function findingItem(c: CheckedFile, f: Finding): CheckItem {
  const at = where(f);
  const base = {
    ruleId: f.code,
    name: `${f.code}${at ? ` ${at}` : ""}`,
    outcome: f.severity === "refuse" ? ("error" as const) : ("warning" as const),
    message: f.message,
    line: c.lineOf(f),
  };
  return c.file === undefined ? base : { ...base, file: c.file };
}

/** Every finding as an item, then a passing item per acceptance row no finding concerns (JUnit's test cases). */
function items(c: CheckedFile, withPassing: boolean): CheckItem[] {
  const found = c.findings.map((f) => findingItem(c, f));
  if (!withPassing) return found;
  const flagged = new Set(c.findings.map((f) => f.row));
  const rows = c.contract.stages.flatMap((s) => s.acceptance.filter((r) => !flagged.has(r.id)).map((r) => ({ stage: s, row: r })));
  const passing = rows.map(({ stage, row }): CheckItem => {
    const line = c.lineOf({ stage: stage.id, row: row.id });
    const base = { ruleId: "acceptance-row", name: `${row.id} of ${stage.label}: ${row.run}`, outcome: "pass" as const, message: "no finding", line };
    return c.file === undefined ? base : { ...base, file: c.file };
  });
  return [...found, ...passing];
}

/** One `::error` per refusal and one `::warning` per warning, titled with the code and where it sits. */
export function githubFindings(c: CheckedFile): string {
  return renderAnnotations(items(c, false));
}

/** A SARIF 2.1.0 log: a result per finding (refuse: error, warn: warning) at its line of the checked file. */
export function sarifFindings(c: CheckedFile): string {
  return renderSarif(TOOL, items(c, false));
}

/** JUnit XML: a test case per finding (a failure per refusal) and one per acceptance row with no finding. */
export function junitFindings(c: CheckedFile): string {
  return renderJunit("decay-contract", { name: c.file ?? "standard input", items: items(c, true) });
}
