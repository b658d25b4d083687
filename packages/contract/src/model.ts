import { z } from "zod";
import { MAX_EXIT } from "./numeral.js";

const oneLine = (what: string) => z.string().regex(/^[^\r\n]*$/, `${what} is one line`);
const nonEmptyLine = (what: string) => oneLine(what).min(1, `${what} is not empty`);

/** "At least `min` matches of the regular expression `pattern` in stdout." */
export const CountExpect = z.object({
  pattern: nonEmptyLine("a count pattern"),
  min: z.number().int().min(1, "a count is at least 1: at least 0 holds on any output"),
});
/** One "at least N …" assertion. */
export type CountExpect = z.infer<typeof CountExpect>;

/** What an acceptance command must do: exit code and what its stdout shows. */
export const Expect = z.object({
  exit: z.number().int().min(0).max(MAX_EXIT),
  stdout_contains: z.array(nonEmptyLine("a printed string")),
  stdout_matches: z.array(nonEmptyLine("a stdout regex")),
  count: z.array(CountExpect),
});
/** What an acceptance command must do. */
export type Expect = z.infer<typeof Expect>;

/** One acceptance row: a command exactly as written and what it must do. */
export const AcceptanceRow = z.object({
  id: z.string().regex(/^S[1-9][0-9]*\.[1-9][0-9]*$/, "a row id looks like S2.1"),
  run: nonEmptyLine("a command"),
  expect: Expect,
});
/** One acceptance row. */
export type AcceptanceRow = z.infer<typeof AcceptanceRow>;

/** A stage id: S1, S2, … */
export const StageId = z.string().regex(/^S[1-9][0-9]*$/, "a stage id looks like S2");
/** A stage id. */
export type StageId = z.infer<typeof StageId>;

/** One stage of a contract: the plan's text verbatim plus its acceptance rows. */
export const Stage = z.object({
  id: StageId,
  label: nonEmptyLine("a stage label"),
  title: oneLine("a stage title"),
  instructions: z.string(),
  exit_criterion: z.string().nullable(),
  acceptance: z.array(AcceptanceRow),
  depends_on: z.array(StageId),
  optional: z.boolean(),
});
/** One stage of a contract. */
export type Stage = z.infer<typeof Stage>;

/** Where acceptance runs: `head` (a fresh clone of the committed HEAD) or `worktree` (refused). */
export const FreshState = z.enum(["head", "worktree"]);
/** Where acceptance runs. */
export type FreshState = z.infer<typeof FreshState>;

/** The acceptance contract compiled from a staged plan: the only thing that decides "done". */
export const Contract = z
  .object({
    plan: nonEmptyLine("a plan path"),
    plan_sha256: z.string().regex(/^[0-9a-f]{64}$/, "a SHA-256 is 64 lowercase hex digits"),
    fresh_state: FreshState,
    commit_per_stage: z.boolean(),
    guardrails: z.array(z.string().min(1)),
    falsifiers: z.array(z.string().min(1)),
    stages: z.array(Stage).min(1, "a contract has at least one stage: with none it would be done by default"),
  })
  .describe("A decay acceptance contract (docs/contract-format.md); the only thing that decides done.");
/** The acceptance contract. */
export type Contract = z.infer<typeof Contract>;

/** A stage as read from a plan: a contract stage plus the line of its heading. */
export const PlanStage = Stage.extend({ line: z.number().int().min(1) });
/** A stage as read from a plan. */
export type PlanStage = z.infer<typeof PlanStage>;

/** What `readPlan` finds in a plan: stages, prohibitions and falsifiers, verbatim. */
export const Plan = z.object({
  stages: z.array(PlanStage),
  prohibitions: z.array(z.string()),
  falsifiers: z.array(z.string()),
});
/** What `readPlan` finds in a plan. */
export type Plan = z.infer<typeof Plan>;

/** The code of one self-check finding. */
export const FindingCode = z.enum([
  "no-acceptance",
  "nothing-verified",
  "review-note",
  "git-clone",
  "writes-outward",
  "opaque-command",
  "commit-per-stage-off",
  "worktree-state",
  "ordering-missing",
  "ordering-unchecked",
  "weak-row",
  "plan-drift",
  "hidden-stage",
]);
/** The code of one self-check finding. */
export type FindingCode = z.infer<typeof FindingCode>;

/** One self-check finding: `refuse` stops the run before anything is spent; `warn` is printed. `stage`/`row` are null for a contract-wide finding. */
export const Finding = z.object({
  code: FindingCode,
  severity: z.enum(["refuse", "warn"]),
  stage: StageId.nullable(),
  row: z.string().nullable(),
  message: z.string(),
  /** The line of the plan a finding about the plan's text names (`hidden-stage`); absent on every other finding. */
  plan_line: z.number().int().positive().optional(),
});
/** One self-check finding. */
export type Finding = z.infer<typeof Finding>;

/** The findings of a self-check, as `decay-contract check --json` prints them. */
export const Findings = z.array(Finding).describe("Findings of decay-contract check --json: refuse stops a run before anything is spent; warn is printed.");
/** The findings of a self-check. */
export type Findings = z.infer<typeof Findings>;
