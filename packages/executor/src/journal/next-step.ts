// The last line of a report (`Next step: …`) and the checklist of tasks, from the plan and record.
import { interfaceEdges } from "./plan.js";
import { failClaims, linesOf, openRulings, specStatus, taskStates } from "./read.js";
import type { JournalRecord } from "./record.js";
import { nextRound } from "./rounds.js";
import type { TaskPlan, TaskState } from "./schema.js";

/** What nextStep reads. `states` overrides the record's (a derived resume's states); `invocation` is the host's skill prefix. */
export interface NextStepInput {
  readonly plan: TaskPlan;
  readonly record: JournalRecord;
  /** The spec's markdown, for its `Status`; omit when the plan has none. */
  readonly spec?: string | null;
  /** The spec's path, when it was read from elsewhere than the plan's `Spec` (`--spec`). */
  readonly specPath?: string;
  readonly states?: ReadonlyMap<number, TaskState>;
  /** `/` (Claude Code) or `$` (Codex): the skill is named as inline code in that form; bare when omitted. */
  readonly invocation?: "/" | "$";
  /** The round limit the user gave, when one was given. */
  readonly limit?: number;
}

/** The states after a failing last Verify's claims reopened their tasks (as resume would). */
function effectiveStates(input: NextStepInput): Map<number, TaskState> {
  const states = new Map(input.states ?? taskStates(input.plan, input.record));
  const fail = failClaims(input.plan, input.record);
  for (const { claim, task } of fail?.claims ?? []) {
    if (task !== null && !fail?.handled.has(claim) && states.get(task)?.state === "done") states.set(task, { state: "pending" });
  }
  return states;
}

/** The matching row of the report table, as `[skill, detail]`; skill null for `none`. */
function row(input: NextStepInput, states: Map<number, TaskState>): [string | null, string] {
  const { plan, record } = input;
  const specName = input.specPath ?? plan.spec;
  const draft = specName !== null && input.spec != null && specStatus(input.spec) !== "approved";
  const tasks = plan.tasks.map((t) => ({ t, s: states.get(t.n) ?? ({ state: "pending" } as TaskState) }));
  const conflicted = tasks.find(({ s }) => s.state === "blocked" && s.blocker === "conflicting intent");
  if (draft && conflicted) {
    const ruling = linesOf(record, "ruling")
      .filter((r) => new RegExp(`\\bTask ${conflicted.t.n}\\b`).test(r.text))
      .pop();
    return ["specify", `the decision Task ${conflicted.t.n} would change: ${ruling?.text ?? (conflicted.s.state === "blocked" ? conflicted.s.detail : "")}`];
  }
  if (draft) return ["specify", `${specName} is a draft, awaiting approval`];
  const rest = tasks.filter(({ s }) => s.state !== "done");
  const last = linesOf(record, "verify").pop();
  const fullPass = last?.verdict === "PASS" && last.depth === "full";
  const outwardWaits = rest.length > 0 && rest.every(({ t }) => t.outward !== null);
  if (rest.some(({ s }) => s.state === "blocked") || openRulings(record).length > 0 || (outwardWaits && fullPass)) return [null, "awaiting user"];
  for (const { t } of rest) {
    const round = nextRound(record, `task-${t.n}`, input.limit === undefined ? {} : { limit: input.limit });
    if (!round.go) return [null, `${round.cause}, awaiting user`];
  }
  const fail = failClaims(plan, record);
  const unplanned = (fail?.claims ?? []).filter((c) => c.task === null).map((c) => c.claim);
  if (unplanned.length > 0) return ["plan-craft", unplanned.join(", ")];
  if (fail && fail.claims.length === 0 && rest.length === 0) return ["plan-craft", "the last Verify is a FAIL and no Round verify line names its claims"];
  if (rest.length === 0 || outwardWaits) return ["verify", "all tasks done, check the tree"];
  const next = checkOrder(plan)
    .map((n) => tasks.find(({ t }) => t.n === n))
    .find((x) => x && x.s.state !== "done");
  return ["implement", `Task ${next?.t.n} is ${next?.s.state}`];
}

/** The `Next step: …` line for the plan's record: the first matching row of the report table wins. */
export function nextStep(input: NextStepInput): string {
  const [skill, detail] = row(input, effectiveStates(input));
  const name = skill === null ? "none" : input.invocation ? `\`${input.invocation}${skill}\`` : skill;
  return `Next step: ${name} - ${detail}`;
}

/** Task numbers in execution dependency order: a task after every task its Consumes names or uses; otherwise file order. */
export function checkOrder(plan: TaskPlan): number[] {
  const { edges } = interfaceEdges(plan);
  const order: number[] = [];
  const left = plan.tasks.map((t) => t.n);
  while (left.length > 0) {
    const k = left.findIndex((n) => (edges.get(n) ?? []).every((d) => order.includes(d)));
    order.push(...left.splice(Math.max(k, 0), 1)); // a cycle: take the first left, in file order
  }
  return order;
}

/** The checklist of every plan task in dependency order: `[x]` when done, `[ ]` with its state otherwise; numbers and titles kept. */
export function checklist(plan: TaskPlan, record: JournalRecord, states?: ReadonlyMap<number, TaskState>): string[] {
  const now = states ?? taskStates(plan, record);
  return checkOrder(plan).map((n) => {
    const t = plan.tasks.find((x) => x.n === n);
    const s = now.get(n)?.state ?? "pending";
    const title = t?.title ? `Task ${n}: ${t.title}` : `Task ${n}`;
    return s === "done" ? `- [x] ${title}` : `- [ ] ${title} (${s})`;
  });
}
