// The execution record's lines and a task plan, as zod schemas: each schema is its type.
import { z } from "zod";

/** The four states a `Task` line can carry. */
export const TaskStateName = z.enum(["pending", "in progress", "done", "blocked"]);
export type TaskStateName = z.infer<typeof TaskStateName>;

/**
 * The labels a `blocked` line may open with, mapped onto the five blockers: missing credentials
 * or input data, missing permissions, an irreversible choice, product ambiguity, conflicting intent.
 */
export const BLOCKER_LABELS = [
  "missing credentials or input data",
  "missing credentials",
  "missing input data",
  "missing permissions",
  "an irreversible choice",
  "irreversible choice",
  "product ambiguity",
  "conflicting intent",
] as const;
export const BlockerLabel = z.enum(BLOCKER_LABELS);
export type BlockerLabel = z.infer<typeof BlockerLabel>;

/** A task's state with what backs it: `evidence` is required for every state but `pending`. */
export const TaskState = z.discriminatedUnion("state", [
  z.object({ state: z.literal("pending"), note: z.string().optional() }),
  z.object({ state: z.literal("in progress"), evidence: z.string().min(1) }),
  z.object({ state: z.literal("done"), evidence: z.string().min(1) }),
  z.object({ state: z.literal("blocked"), blocker: BlockerLabel, detail: z.string().min(1) }),
]);
export type TaskState = z.infer<typeof TaskState>;

/** One path of `Initial dirty state`, `(staged)` when someone had already staged it. */
export const DirtyPath = z.object({ path: z.string().min(1), staged: z.boolean() });
export type DirtyPath = z.infer<typeof DirtyPath>;

/** The verdicts a `Received` line gives a finding. */
export const ReceivedVerdict = z.enum(["ACCEPT", "REJECT", "PARTIAL", "DEFER", "ESCALATE", "OUTDATED"]);
export type ReceivedVerdict = z.infer<typeof ReceivedVerdict>;

/** One line of the record's text block. Free text is kept verbatim. */
export const RecordLine = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("blank"), text: z.string() }),
  z.object({
    kind: z.literal("base"),
    base: z.string(), // a full SHA, or "unset"
    where: z.object({ root: z.string().min(1), branch: z.string().min(1) }).nullable(),
  }),
  z.object({ kind: z.literal("branch"), branch: z.string().min(1) }),
  z.object({ kind: z.literal("commits"), policy: z.enum(["allowed", "ask once", "forbidden"]) }),
  z.object({ kind: z.literal("dirty"), paths: z.array(DirtyPath) }),
  z.object({ kind: z.literal("task"), n: z.number().int().nonnegative(), state: TaskState }),
  z.object({ kind: z.literal("ruling"), text: z.string().min(1) }),
  z.object({ kind: z.literal("deferred"), text: z.string().min(1) }),
  z.object({
    kind: z.literal("verify"),
    verdict: z.string().min(1),
    depth: z.enum(["full", "compact"]),
    tree: z.string(),
    at: z.string(),
    working: z.boolean(),
  }),
  z.object({
    kind: z.literal("review"),
    r: z.number().int().nonnegative(),
    summary: z.string(),
    tree: z.string(),
    reviewer: z.string().min(1),
    mode: z.enum(["code", "document", "re-review"]),
  }),
  z.object({
    kind: z.literal("finding"),
    r: z.number().int().nonnegative(),
    f: z.number().int().nonnegative(),
    severity: z.string().min(1),
    location: z.string().min(1),
    title: z.string().min(1),
  }),
  z.object({
    kind: z.literal("received"),
    r: z.number().int().nonnegative(),
    items: z.array(z.object({ id: z.string().min(1), verdict: ReceivedVerdict })).min(1),
    comma: z.boolean(), // a comma before " Re-review:"
    rereview: z.enum(["needed", "not needed"]),
  }),
  z.object({ kind: z.literal("round"), loop: z.string().min(1), n: z.number().int().positive(), cause: z.string().min(1) }),
]);
export type RecordLine = z.infer<typeof RecordLine>;

/** One `## Task <n>: <title>` section of a task plan. Absent fields are null; `files` may be empty. */
export const PlanTask = z.object({
  n: z.number().int().nonnegative(),
  title: z.string(),
  /** 1-based line of the task's heading. */
  line: z.number().int().positive(),
  files: z.array(z.string()),
  produces: z.string().nullable(),
  consumes: z.string().nullable(),
  red: z.string().nullable(),
  green: z.string().nullable(),
  check: z.string().nullable(),
  commit: z.string().nullable(),
  outward: z.string().nullable(),
  /** The section's text (heading through its last line), where claim tags are looked for. */
  body: z.string(),
});
export type PlanTask = z.infer<typeof PlanTask>;

/** A task plan: its header and its tasks in file order. */
export const TaskPlan = z.object({
  spec: z.string().nullable(), // null for `Spec: none` or no Spec field
  goal: z.string().nullable(),
  constraints: z.string().nullable(),
  execution: z.enum(["inline", "subagents", "unset"]),
  tasks: z.array(PlanTask).min(1),
});
export type TaskPlan = z.infer<typeof TaskPlan>;
