import type { Finding } from "../model.js";

/** Where a finding sits: the stage id, the row id, and the stage as the plan names it (`Phase 1 (line 28, S1)`). */
type At = { stage: string; row: string; name: string };

/** What a rule found, as data; `finding` turns it into a Finding with its one sentence. */
export type FindingData =
  | { code: "no-acceptance"; stage: string; name: string; optional: boolean; hint: string | null }
  | { code: "nothing-verified"; leftOut: number }
  | ({ code: "review-note"; marker: string } & At)
  | ({ code: "git-clone" } & At)
  | ({ code: "writes-outward"; what: string } & At)
  | ({ code: "opaque-command"; what: string } & At)
  | { code: "commit-per-stage-off" }
  | { code: "worktree-state" }
  | { code: "ordering-missing"; constraint: string }
  | { code: "ordering-unchecked" }
  | ({ code: "weak-row"; runner: string } & At)
  | { code: "plan-drift"; recorded: string; actual: string }
  | { code: "hidden-stage"; line: number; text: string; where: "code" | "comment" };

/** Rule 1's sentence: a required stage, or an optional one the run includes, with no row. */
function noAcceptance(d: Extract<FindingData, { code: "no-acceptance" }>): string {
  const what = d.optional ? "is optional, the run includes optional stages (includeOptional, --include-optional), and" : "is not optional and";
  const remedy = d.optional ? " (give it an acceptance row, or run without optional stages)" : "";
  const hint =
    d.hint === null
      ? ""
      : `; its line "${d.hint}" gives a command another way: to run it as acceptance, write Acceptance: \`command\` exits 0 (one inline code span)`;
  return `stage ${d.name} ${what} has no acceptance row: it would be green by default${remedy}${hint}`;
}

function sentence(d: FindingData): { severity: Finding["severity"]; message: string } {
  const refuse = (message: string) => ({ severity: "refuse" as const, message });
  const warn = (message: string) => ({ severity: "warn" as const, message });
  switch (d.code) {
    case "no-acceptance":
      return refuse(noAcceptance(d));
    case "nothing-verified":
      return refuse(
        d.leftOut === 0
          ? "no stage of the contract has an acceptance row: a run would verify nothing, and an empty contract is never a passing one"
          : `every stage is optional and the run leaves optional stages out, so it would verify nothing (${d.leftOut} optional stage(s) hold acceptance rows): include them (includeOptional, --include-optional) or make a stage required; an empty run is never a passing one`,
      );
    case "review-note":
      return refuse(`row ${d.row} of ${d.name} still carries a review note (${d.marker}): it cannot run as written`);
    case "git-clone":
      return refuse(`row ${d.row} of ${d.name} runs git clone: the runtime already verifies in a clean clone`);
    case "writes-outward":
      return refuse(`row ${d.row} of ${d.name} writes outward (${d.what}): acceptance only reads`);
    case "opaque-command":
      return warn(`row ${d.row} of ${d.name} runs ${d.what}, which the checker cannot see into: it was not checked for outward writes`);
    case "commit-per-stage-off":
      return refuse("fresh_state: head with commit_per_stage: false: acceptance in a fresh clone would never see the work");
    case "worktree-state":
      return refuse("fresh_state: worktree: a stage is never accepted on the working tree, only in a fresh clone of HEAD");
    case "ordering-missing":
      return refuse(`the plan's ordering constraint is missing verbatim from the guardrails: ${d.constraint}`);
    case "ordering-unchecked":
      return warn("the plan text was not given: its ordering constraints were not checked against the guardrails");
    case "weak-row":
      return warn(
        `row ${d.row} of ${d.name} asserts ${d.runner} by exit code alone: exit 0 also passes a suite that silently ran fewer checks; add a count (at least N …) or a printed total`,
      );
    case "plan-drift":
      return refuse(`the plan changed under the contract: its SHA-256 is ${d.actual}, the contract recorded ${d.recorded}`);
    case "hidden-stage": {
      const where = d.where === "code" ? "a code block, which Markdown reads as code" : "an HTML comment";
      return warn(
        `line ${d.line} of the plan, "${d.text}", is a stage heading inside ${where}: no stage is made of it; if it is one, close the block above it, and if it is an example, mark it <!-- decay: prose -->`,
      );
    }
  }
}

/** Turn rule data into a finding: code, severity, stage/row (null when contract-wide), and the sentence. */
export function finding(d: FindingData): Finding {
  const { severity, message } = sentence(d);
  const stage = "stage" in d ? d.stage : null;
  const row = "row" in d ? d.row : null;
  return { code: d.code, severity, stage, row, message, ...("line" in d ? { plan_line: d.line } : {}) };
}
