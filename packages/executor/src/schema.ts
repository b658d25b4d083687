// The executor's documented data: ledger entries, report.json and progress events. Each zod
// schema is the single source of its type; JSON Schemas are exported from them (docs/).
import { z } from "zod";
import { Lens, Role } from "./agent/protocol.js";

/** One acceptance row as it ran in a clean room. */
export const LedgerRow = z.object({
  id: z.string(),
  run: z.string(),
  exit: z.number().int().nullable(),
  signal: z.string().nullable(),
  timed_out: z.boolean(),
  duration_ms: z.number().min(0),
  checks: z.array(z.object({ what: z.string(), met: z.boolean() })),
  green: z.boolean(),
  stdout_tail: z.string(),
  stderr_tail: z.string(),
  truncated: z.boolean(),
});
/** One acceptance row as it ran. */
export type LedgerRow = z.infer<typeof LedgerRow>;

/** Which verification a ledger entry records. */
export const LedgerKind = z.enum(["preflight", "verify", "final"]);
/** Which verification a ledger entry records. */
export type LedgerKind = z.infer<typeof LedgerKind>;

/** One ledger file: one stage's acceptance run once in a clean room of one commit. */
export const LedgerEntry = z.object({
  kind: LedgerKind,
  stage: z.string(),
  attempt: z.number().int().min(1).nullable(),
  commit: z.string(),
  room: z.string(),
  green: z.boolean(),
  rows: z.array(LedgerRow),
});
/** One ledger file. */
export type LedgerEntry = z.infer<typeof LedgerEntry>;

/** How a run ended. `green`: every required stage green in the final, independent verification. */
export const RunStatus = z.enum(["green", "incomplete", "stale-plan", "parked", "token-target"]);
/** How a run ended. */
export type RunStatus = z.infer<typeof RunStatus>;

/** What the loop made of a stage (the final verification alone decides green). */
export const StageState = z.enum([
  "green-at-start",
  "green",
  "escalated",
  "no-progress",
  "budget-exhausted",
  "not-started",
  "optional-skipped",
  "parked",
  "stopped",
]);
/** What the loop made of a stage. */
export type StageState = z.infer<typeof StageState>;

/** A fix the run refused, and why. */
export const RefusedFix = z.object({
  attempt: z.number().int().min(1),
  lens: Lens,
  fix: z.string(),
  reason: z.string(),
  /** Pinned-surface rows the fix's commit diverged on (empty when refused for its declaration). */
  diverged: z.array(z.string()),
  /** The last reverted commit (every commit since the pre-fix HEAD is reverted), when the fix had been committed. */
  commit: z.string().nullable(),
});
/** A fix the run refused. */
export type RefusedFix = z.infer<typeof RefusedFix>;

const DiffStatsSchema = z.object({ files: z.number().int(), insertions: z.number().int(), deletions: z.number().int() });

/** An agent call that returned nothing, and why (an exit, a timeout, no or invalid JSON). */
export const NothingReturned = z.object({ stage: z.string(), role: Role, step: z.string(), try: z.number().int().min(1), reason: z.string() });
/** An agent call that returned nothing. */
export type NothingReturned = z.infer<typeof NothingReturned>;

/** One stage in report.json. */
export const StageReport = z.object({
  id: z.string(),
  label: z.string(),
  title: z.string(),
  optional: z.boolean(),
  state: StageState,
  /** The final, independent verification: `not-run` for a stage outside the run (an optional one not asked for). */
  final: z.enum(["green", "red", "not-run"]),
  reason: z.string().nullable(),
  attempts: z.number().int().min(0),
  /** The final verification's commit and ledger file. */
  verified: z.object({ commit: z.string(), ledger: z.string() }).nullable(),
  ledger: z.array(z.string()),
  freeze: z.array(z.string()),
  refused_fixes: z.array(RefusedFix),
  diff: DiffStatsSchema.nullable(),
});
/** One stage in report.json. */
export type StageReport = z.infer<typeof StageReport>;

/** Tokens by role, as the agents reported them. */
export const TokensByRole = z.object(Object.fromEntries(Role.options.map((r) => [r, z.number().int().min(0)])) as Record<Role, z.ZodNumber>);
/** Tokens by role. */
export type TokensByRole = z.infer<typeof TokensByRole>;

/** Where the published JSON Schema of report.json says it lives (its `$id`): report.json's `$schema`. */
export const RUN_REPORT_SCHEMA_ID = "https://unpkg.com/@decay/executor/schemas/run-report.schema.json";

/** report.json: everything an orchestrator needs to act on a run, and nothing it would have to trust. */
export const RunReport = z
  .object({
    $schema: z.string().optional(),
    version: z.literal(1),
    plan: z.string(),
    plan_sha256: z.string(),
    slug: z.string(),
    branch: z.string(),
    status: RunStatus,
    reason: z.string().nullable(),
    workspace: z.string(),
    start: z.object({ commit: z.string(), green: z.array(z.string()) }),
    end: z.object({ commit: z.string(), green: z.array(z.string()) }),
    commits: z.array(z.string()),
    set_aside: z.string().nullable(),
    stages: z.array(StageReport),
    falsifiers: z.array(z.string()),
    stale: z.object({ assumptions: z.string(), diverged: z.array(z.string()) }).nullable(),
    cost: z.object({
      tokens: TokensByRole,
      total_tokens: z.number().int().min(0),
      attempts: z.number().int().min(0),
      agent_calls: z.number().int().min(0),
      nothing_returned: z.number().int().min(0),
      /** Each call that returned nothing, with its reason. */
      returned_nothing: z.array(NothingReturned),
      wall_ms: z.number().min(0),
    }),
  })
  .describe("report.json of a decay run (docs/executor.md): the final, independent verification alone decides green.");
/** report.json. */
export type RunReport = z.infer<typeof RunReport>;

/** A progress event; the library never writes to a terminal, the caller renders these. */
export const RunEvent = z.discriminatedUnion("type", [
  z.object({ type: z.literal("run-started"), slug: z.string(), branch: z.string(), head: z.string() }),
  z.object({ type: z.literal("set-aside"), stash: z.string(), paths: z.array(z.string()) }),
  z.object({ type: z.literal("preflight"), green: z.array(z.string()) }),
  z.object({ type: z.literal("stage-started"), stage: z.string(), label: z.string(), title: z.string() }),
  z.object({ type: z.literal("stage-skipped"), stage: z.string(), state: StageState, reason: z.string() }),
  z.object({ type: z.literal("attempt"), stage: z.string(), attempt: z.number().int() }),
  z.object({ type: z.literal("agent-call"), stage: z.string(), attempt: z.number().int(), role: Role, try: z.number().int() }),
  z.object({ type: z.literal("command-running"), stage: z.string(), phase: z.string(), rows: z.array(z.string()) }),
  z.object({ type: z.literal("verified"), stage: z.string(), attempt: z.number().int().nullable(), phase: z.string(), green: z.boolean(), ledger: z.string() }),
  z.object({ type: z.literal("escalated"), stage: z.string(), reason: z.string() }),
  z.object({ type: z.literal("parked"), stage: z.string(), resume: z.string() }),
  z.object({ type: z.literal("agent-nothing"), stage: z.string(), role: Role, try: z.number().int(), reason: z.string() }),
  z.object({ type: z.literal("tokens"), total: z.number().int() }),
  z.object({ type: z.literal("done"), status: RunStatus, green: z.array(z.string()) }),
]);
/** A progress event. */
export type RunEvent = z.infer<typeof RunEvent>;

/** The `$id` of schemas/run-event.schema.json: the `$schema` of each event line of `decay run --json`. */
export const RUN_EVENT_SCHEMA_ID = "https://unpkg.com/@decay/executor/schemas/run-event.schema.json";

/** One event line of `decay run --json`: a progress event after `$schema` and the output format's `version`. */
export const RunEventLine = z.union(RunEvent.options.map((event) => event.extend({ $schema: z.literal(RUN_EVENT_SCHEMA_ID), version: z.literal(1) })));

/** The `$id` of schemas/cli-fault.schema.json: the `$schema` of the fault object `decay … --json` prints. */
export const CLI_FAULT_SCHEMA_ID = "https://unpkg.com/@decay/executor/schemas/cli-fault.schema.json";

/**
 * What `decay … --json` prints on stdout when the command hits a fault instead of reaching a
 * verdict (the last line, after any events of `run`): the fault's code and the sentence stderr carries.
 */
export const CliFaultOutput = z
  .object({
    $schema: z.literal(CLI_FAULT_SCHEMA_ID),
    version: z.literal(1),
    fault: z.object({ code: z.string().min(1), message: z.string().min(1), cause: z.string().min(1).optional() }).strict(),
  })
  .strict()
  .describe("A fault of a decay command run with --json (docs/executor-cli.md): never a verdict; the exit code is 2 (1 for an interrupted command).");
/** The fault object of `decay … --json`. */
export type CliFaultOutput = z.infer<typeof CliFaultOutput>;
