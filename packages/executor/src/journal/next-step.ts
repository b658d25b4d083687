// The last line of a report (`Next step: …`) and the checklist of tasks, from the plan and record.
import { interfaceEdges, positions } from "./plan.js";
import { failClaims, linesOf, openRulings, specStatus, taskStates } from "./read.js";
import type { JournalRecord } from "./record.js";
import { decideRound, roundsByLoop } from "./rounds.js";
import type { PlanTask, TaskPlan, TaskState } from "./schema.js";

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
  // Every unfinished task's loop goes through the Round rule, as nextRound would decide it: a loop
  // with no Round line too (a limit of 0 allows no automatic round). Round lines are grouped once.
  const looped = roundsByLoop(record);
  for (const { t } of rest) {
    const round = decideRound(record, `task-${t.n}`, looped.get(`task-${t.n}`) ?? [], input.limit === undefined ? {} : { limit: input.limit });
    if (!round.go) return [null, `${round.cause}, awaiting user`];
  }
  const fail = failClaims(plan, record);
  const unplanned = (fail?.claims ?? []).filter((c) => c.task === null).map((c) => c.claim);
  if (unplanned.length > 0) return ["plan-craft", unplanned.join(", ")];
  if (fail && fail.claims.length === 0 && rest.length === 0) return ["plan-craft", "the last Verify is a FAIL and no Round verify line names its claims"];
  if (rest.length === 0 || outwardWaits) return ["verify", "all tasks done, check the tree"];
  const at = positions(plan);
  const next = checkOrder(plan)
    .map((n) => tasks[at.get(n) ?? -1])
    .find((x) => x && x.s.state !== "done");
  return ["implement", `Task ${next?.t.n} is ${next?.s.state}`];
}

/** The `Next step: …` line for the plan's record: the first matching row of the report table wins. */
export function nextStep(input: NextStepInput): string {
  const [skill, detail] = row(input, effectiveStates(input));
  const name = skill === null ? "none" : input.invocation ? `\`${input.invocation}${skill}\`` : skill;
  return `Next step: ${name} - ${detail}`;
}

/**
 * Task numbers in execution dependency order: a task after every task its Consumes names or uses;
 * otherwise file order. Each step takes the first task in file order whose dependencies are all
 * placed; when none is (a cycle), the first task left. Every edge is looked at once (a count of
 * unplaced dependencies per task, a heap of the ready ones by position).
 */
export function checkOrder(plan: TaskPlan): number[] {
  return orderBy(plan, interfaceEdges(plan).edges);
}

/** checkOrder over edges already found (`interfaceEdges`), for a caller that also wants their findings. */
export function orderBy(plan: TaskPlan, edges: ReadonlyMap<number, readonly number[]>): number[] {
  const at = positions(plan);
  const count = plan.tasks.length;
  const waiting = new Array<number>(count).fill(0);
  const dependents: number[][] = plan.tasks.map(() => []);
  plan.tasks.forEach((t, k) => {
    if (at.get(t.n) !== k) return; // a repeated number is placed with its first task
    for (const d of edges.get(t.n) ?? []) {
      const from = at.get(d);
      if (from === undefined) continue;
      waiting[k] = (waiting[k] as number) + 1;
      (dependents[from] as number[]).push(k);
    }
  });
  const placed = new Array<boolean>(count).fill(false);
  const ready = minHeap();
  waiting.forEach((w, k) => {
    if (w === 0) ready.push(k);
  });
  const order: number[] = [];
  let firstLeft = 0;
  while (order.length < count) {
    let k = ready.pop();
    while (k !== undefined && placed[k]) k = ready.pop();
    if (k === undefined) {
      while (placed[firstLeft]) firstLeft++;
      k = firstLeft;
    }
    placed[k] = true;
    order.push((plan.tasks[k] as PlanTask).n);
    for (const next of dependents[k] as number[]) {
      waiting[next] = (waiting[next] as number) - 1;
      if (waiting[next] === 0 && !placed[next]) ready.push(next);
    }
  }
  return order;
}

/** A binary min-heap of task positions. */
function minHeap(): { push(k: number): void; pop(): number | undefined } {
  const h: number[] = [];
  const swap = (i: number, j: number) => {
    const t = h[i] as number;
    h[i] = h[j] as number;
    h[j] = t;
  };
  return {
    push(k) {
      h.push(k);
      for (let i = h.length - 1; i > 0 && (h[(i - 1) >> 1] as number) > (h[i] as number); i = (i - 1) >> 1) swap(i, (i - 1) >> 1);
    },
    pop() {
      if (h.length === 0) return undefined;
      const top = h[0];
      const last = h.pop() as number;
      if (h.length > 0) {
        h[0] = last;
        for (let i = 0; ; ) {
          const l = 2 * i + 1;
          const m = l + 1 < h.length && (h[l + 1] as number) < (h[l] as number) ? l + 1 : l;
          if (m >= h.length || (h[i] as number) <= (h[m] as number)) break;
          swap(i, m);
          i = m;
        }
      }
      return top;
    },
  };
}

/** The checklist of every plan task in dependency order: `[x]` when done, `[ ]` with its state otherwise; numbers and titles kept. */
export function checklist(plan: TaskPlan, record: JournalRecord, states?: ReadonlyMap<number, TaskState>): string[] {
  return checklistIn(plan, states ?? taskStates(plan, record), checkOrder(plan));
}

/** The checklist of the tasks in `order` (task numbers, as checkOrder gives them) with their states `now`. */
export function checklistIn(plan: TaskPlan, now: ReadonlyMap<number, TaskState>, order: readonly number[]): string[] {
  const at = positions(plan);
  return order.map((n) => {
    const t = plan.tasks[at.get(n) ?? -1];
    const s = now.get(n)?.state ?? "pending";
    const title = t?.title ? `Task ${n}: ${t.title}` : `Task ${n}`;
    return s === "done" ? `- [x] ${title}` : `- [ ] ${title} (${s})`;
  });
}
