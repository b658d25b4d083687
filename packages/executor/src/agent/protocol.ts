// The agent protocol: what the run asks an agent and what it must answer. The zod schemas are the
// types; a reply that does not parse counts as "returned nothing", never as success.
import { AcceptanceRow } from "@decay/contract";
import { z } from "zod";

/** Who is asked: each call names one role. `verify` is named for model tables only: verification is never an agent's. */
export const Role = z.enum(["execute", "diagnose", "adjudicate", "fix", "verify"]);
/** Who is asked. */
export type Role = z.infer<typeof Role>;

/** The three blind lenses of a diagnosis. */
export const Lens = z.enum(["what-changed", "what-the-check-asserts", "what-the-plan-forbade"]);
/** One lens of a diagnosis. */
export type Lens = z.infer<typeof Lens>;

/** The lenses in the order they are asked. */
export const LENSES: readonly Lens[] = Lens.options;

/** A model hint per role; what a hint means is the caller's (the agent adapter's) business. */
export const ModelHints = z.object({
  execute: z.string().min(1),
  diagnose: z.string().min(1),
  adjudicate: z.string().min(1),
  fix: z.string().min(1),
  verify: z.string().min(1),
});
/** A model hint per role. */
export type ModelHints = z.infer<typeof ModelHints>;

/** The defaults: implementation and fixes on a mid tier, the blind diagnoses and the ruling on a deeper one. */
export const DEFAULT_MODELS: ModelHints = {
  execute: "sonnet",
  diagnose: "fable",
  adjudicate: "fable",
  fix: "sonnet",
  verify: "sonnet",
};

/** A stage's brief: the contract's stage section verbatim plus the guardrails, nothing paraphrased. */
export const Brief = z.object({
  stage: z.string(),
  label: z.string(),
  title: z.string(),
  instructions: z.string(),
  exit_criterion: z.string().nullable(),
  acceptance: z.array(AcceptanceRow),
  guardrails: z.array(z.string()),
  /** The contract file in the run's workspace, relative to the repository. */
  contract: z.string(),
});
/** A stage's brief. */
export type Brief = z.infer<typeof Brief>;

/**
 * What a request's diff leaves out when the whole patch is longer than `maxDiffBytes`, or holds a
 * file's section that is not UTF-8: the bound, the patch's full size and the size kept (bytes as
 * git printed them), and each file whose section was left out whole (`path` "" for bytes before
 * the first file), the first 1,000 by name. Null in a request whose diff is whole.
 */
export const DiffTruncated = z.object({
  max_bytes: z.number().int().min(1),
  full_bytes: z.number().int().min(0),
  kept_bytes: z.number().int().min(0),
  files_left_out: z.array(z.object({ path: z.string(), bytes: z.number().int().min(1) })).min(1),
  /** Files left out past the first 1,000, counted and not named. */
  files_not_listed: z.number().int().min(0),
});
/** What a request's diff leaves out. */
export type DiffTruncated = z.infer<typeof DiffTruncated>;

/** What a diagnosis sees: the frozen failing state, never another diagnosis. */
export const Freeze = z.object({
  stage: z.string(),
  attempt: z.number().int().min(1),
  /** The freeze directory, relative to the repository. */
  dir: z.string(),
  base: z.string(),
  head: z.string(),
  /** The patch from `base` to `head`, whole files only, at most `maxDiffBytes` bytes. */
  diff: z.string(),
  /** Null when `diff` is the whole patch; else what it leaves out (see `DiffTruncated`). */
  diff_truncated: DiffTruncated.nullable(),
  failing: z.array(
    z.object({ id: z.string(), run: z.string(), exit: z.number().int().nullable(), unmet: z.array(z.string()), stdout: z.string(), stderr: z.string() }),
  ),
});
/** The frozen failing state. */
export type Freeze = z.infer<typeof Freeze>;

/** What a fix would do to acceptance: only `none` is admissible. */
export const AcceptanceEffect = z.enum(["none", "alter", "relax", "skip", "delete"]);
/** What a fix would do to acceptance. */
export type AcceptanceEffect = z.infer<typeof AcceptanceEffect>;

/** The most tokens one call may report: far past any call, and small enough that sums stay exact. */
export const MAX_CALL_TOKENS = 1_000_000_000_000;
const tokens = z.number().int().min(0).max(MAX_CALL_TOKENS);

/** An `execute` or `fix` reply: the work is in the tree; the words are a note. */
export const WorkReply = z.object({ tokens, summary: z.string() }).strict();
/** An `execute` or `fix` reply. */
export type WorkReply = z.infer<typeof WorkReply>;

/** A `diagnose` reply: a cause, a fix, and its declared effect on acceptance. */
export const DiagnoseReply = z.object({ tokens, cause: z.string().min(1), fix: z.string().min(1), acceptance_effect: AcceptanceEffect }).strict();
/** A `diagnose` reply. */
export type DiagnoseReply = z.infer<typeof DiagnoseReply>;

/** An `adjudicate` reply: the index of the chosen diagnosis among those offered, and why. */
export const AdjudicateReply = z.object({ tokens, chosen: z.number().int().min(0), reason: z.string().min(1) }).strict();
/** An `adjudicate` reply. */
export type AdjudicateReply = z.infer<typeof AdjudicateReply>;

/** Any reply, whatever the role (the JSON Schema in schemas/agent-reply.schema.json); the run checks the one of the request's role. */
export const AgentReply = z
  .union([WorkReply, DiagnoseReply, AdjudicateReply])
  .describe(
    "The one JSON reply an agent prints on stdout (docs/agent-protocol.md): execute/fix print a WorkReply, diagnose a DiagnoseReply, adjudicate an AdjudicateReply.",
  );
/** Any reply. */
export type AgentReply = z.infer<typeof AgentReply>;

/** A diagnosis as the adjudicator and the fixer see it. */
export const Diagnosis = z.object({ lens: Lens, cause: z.string(), fix: z.string(), acceptance_effect: AcceptanceEffect });
/** A diagnosis. */
export type Diagnosis = z.infer<typeof Diagnosis>;

/** Every call carries its role, the model hint, the repository directory and the guardrails. */
const callBase = {
  model: z.string(),
  cwd: z.string(),
  stage: z.string(),
  attempt: z.number().int().min(1),
  /** 1 for the first try of this call; higher after the agent returned nothing. */
  try: z.number().int().min(1),
  guardrails: z.array(z.string()),
};

/** One request to an agent, by role. */
export const AgentRequest = z.discriminatedUnion("role", [
  z.object({ role: z.literal("execute"), ...callBase, brief: Brief }),
  z.object({ role: z.literal("diagnose"), ...callBase, lens: Lens, freeze: Freeze }),
  z.object({ role: z.literal("adjudicate"), ...callBase, diagnoses: z.array(Diagnosis).min(1) }),
  z.object({ role: z.literal("fix"), ...callBase, brief: Brief, freeze: Freeze, decision: z.object({ diagnosis: Diagnosis, reason: z.string() }) }),
]);
/** One request to an agent. */
export type AgentRequest = z.infer<typeof AgentRequest>;
/** A request of one role. */
export type RequestOf<R extends AgentRequest["role"]> = Extract<AgentRequest, { role: R }>;

/**
 * The agent port. Each method is one call; the resolved value is validated by the run, so an
 * adapter may hand back whatever its process printed. A rejection counts as "returned nothing".
 */
export interface Agent {
  execute(request: RequestOf<"execute">): Promise<unknown>;
  diagnose(request: RequestOf<"diagnose">): Promise<unknown>;
  adjudicate(request: RequestOf<"adjudicate">): Promise<unknown>;
  fix(request: RequestOf<"fix">): Promise<unknown>;
}
