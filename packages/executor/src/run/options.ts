import { err, ok, type Result } from "neverthrow";
import { z } from "zod";
import { type Agent, DEFAULT_MODELS, type ModelHints } from "../agent/protocol.js";
import type { ExecFault } from "../fault.js";
import type { CleanRoom, Git, PatternMatcher, RunLock, Shell, WorkspaceFs } from "../ports.js";
import type { StepContext } from "../runner.js";
import type { RunEvent } from "../schema.js";
import type { Settings } from "./deps.js";

/** Test files pinned by default: what acceptance exercises must not change under a fix. */
export const DEFAULT_PIN_GLOBS: readonly string[] = ["**/*.test.*", "**/*.spec.*", "**/test/**", "**/tests/**", "**/__tests__/**"];

/** Options of `runPlan`: the ports, then the budgets and breakers (defaults in docs/executor.md). */
export interface RunOptions {
  /** The repository's working directory (absolute). */
  readonly repo: string;
  /** node:fs or a memfs volume: the workspace, ledger and plan are written and read through it. */
  readonly fs: WorkspaceFs;
  readonly git: Git;
  readonly shell: Shell;
  readonly cleanRoom: CleanRoom;
  readonly agent: Agent;
  /**
   * Judges acceptance regexes (`matches /re/`, `at least N /re/`); default `directPatterns()`,
   * which has no time bound. `nodePatterns()` (`./node`) stops a match at a bound: a match that
   * runs past it is the fault `pattern-timeout`, never a verdict.
   */
  readonly patterns?: PatternMatcher;
  /** Where steps run; default `inMemoryRunner()`. */
  readonly runner?: StepContext;
  /** The plan's exact text; default: read from the repository at the contract's `plan` path when it is there. */
  readonly planText?: string | Uint8Array;
  /** The plan's assumptions file (relative to the repository, or absolute): checked at the start and before every stage. */
  readonly assumptions?: string;
  /** Run optional stages too; default false. */
  readonly includeOptional?: boolean;
  /** Attempts per stage (the execute plus fixes); default 3. */
  readonly attemptBudget?: number;
  /** Agent calls in a row that return nothing before the run parks; default 3. */
  readonly parkAfter?: number;
  /** A ceiling on tokens for the whole run; default none. */
  readonly tokenTarget?: number | null;
  /** Tokens kept below the target; default 0 (the report is written without an agent). */
  readonly reserveTokens?: number;
  /** Escalate a stage whose diff is larger; default off. */
  readonly maxStageDiff?: { readonly files?: number; readonly lines?: number };
  /** Globs of files pinned with acceptance (test files); default `DEFAULT_PIN_GLOBS`. */
  readonly pinGlobs?: readonly string[];
  /**
   * Let a stage's execute edit or delete files of the acceptance surface pinned at the stage's
   * base (tests, files its acceptance names); default false: such an execute is undone and the
   * stage escalates. An execute may always add files, and edit manifests but for package.json's
   * `scripts`.
   */
  readonly executeMayEditSurface?: boolean;
  /** A command run once in every fresh clean room (e.g. `npm ci`). */
  readonly setup?: string;
  /** Timeout of the setup command; default 10 minutes. */
  readonly setupTimeoutMs?: number;
  /** Timeout of each acceptance command; default 10 minutes. */
  readonly commandTimeoutMs?: number;
  /**
   * The most bytes of a red attempt's diff that a freeze keeps and a diagnose or fix request
   * carries; default 1 MiB. A longer patch is cut between files and the request says what was left out.
   */
  readonly maxDiffBytes?: number;
  /** Output of each acceptance command judged (tail kept); default 1 MiB. */
  readonly maxOutputBytes?: number;
  /**
   * The largest workspace file the run reads (the plan, the assumptions file, ledger entries,
   * freezes, `.gitignore`); a larger one is a `workspace-io` fault, never read whole. A
   * `package.json` an execute edited that is larger counts as edited. Default 64 MiB.
   */
  readonly maxReadBytes?: number;
  /** A model hint per role; defaults `DEFAULT_MODELS`. */
  readonly models?: Partial<ModelHints>;
  /** The command RESUME.md tells a person to run; default a `decay run` line for the plan. */
  readonly resumeCommand?: string;
  /** Progress events; the library itself never writes to a terminal. */
  readonly onEvent?: (event: RunEvent) => void;
  /**
   * Stops the run at the step in flight: the step's result is not kept (as a crash would leave
   * it), RESUME.md is written and the run ends with the fault `interrupted`. Pass the same
   * signal to the adapters (`nodeShell`, `commandAgent`) so the running command is killed. The
   * library installs no signal handler: the caller aborts (a CLI on SIGINT).
   */
  readonly signal?: AbortSignal;
  /** Taken for the whole run and released at its end, whatever the end (see `RunLock`); default none. */
  readonly lock?: RunLock;
}

const count = z.number().int().min(1);
const Scalars = z.object({
  attemptBudget: count.default(3),
  parkAfter: count.default(3),
  tokenTarget: z.number().int().min(1).nullable().default(null),
  reserveTokens: z.number().int().min(0).default(0),
  maxStageDiff: z.object({ files: count.optional(), lines: count.optional() }).default({}),
  pinGlobs: z.array(z.string().min(1)).default([...DEFAULT_PIN_GLOBS]),
  executeMayEditSurface: z.boolean().default(false),
  setup: z.string().min(1).optional(),
  setupTimeoutMs: count.default(600_000),
  commandTimeoutMs: count.default(600_000),
  maxOutputBytes: count.default(1 << 20),
  maxDiffBytes: count.default(1 << 20),
  maxReadBytes: count.default(64 * 1024 * 1024),
  includeOptional: z.boolean().default(false),
  assumptions: z.string().min(1).optional(),
  models: z
    .object({ execute: z.string().min(1), diagnose: z.string().min(1), adjudicate: z.string().min(1), fix: z.string().min(1), verify: z.string().min(1) })
    .partial()
    .default({}),
});

/** The run's settings from its options: defaults applied, each bad value a fault naming the option. */
export function settingsOf(options: RunOptions, planPath: string): Result<Settings, ExecFault> {
  const parsed = Scalars.safeParse({ ...options, tokenTarget: options.tokenTarget ?? null });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return err({ code: "option-invalid", option: issue?.path.join(".") || "options", issue: issue?.message ?? "invalid" });
  }
  const o = parsed.data;
  return ok({
    includeOptional: o.includeOptional,
    attemptBudget: o.attemptBudget,
    parkAfter: o.parkAfter,
    tokenTarget: o.tokenTarget,
    reserveTokens: o.reserveTokens,
    maxStageDiff: { files: o.maxStageDiff.files ?? null, lines: o.maxStageDiff.lines ?? null },
    pinGlobs: o.pinGlobs,
    executeMayEditSurface: o.executeMayEditSurface,
    setup: o.setup === undefined ? undefined : { command: o.setup, timeoutMs: o.setupTimeoutMs },
    commandTimeoutMs: o.commandTimeoutMs,
    maxOutputBytes: o.maxOutputBytes,
    maxDiffBytes: o.maxDiffBytes,
    maxReadBytes: o.maxReadBytes,
    models: { ...DEFAULT_MODELS, ...o.models },
    assumptions: o.assumptions ?? null,
    resumeCommand: options.resumeCommand ?? `decay run ${planPath} --repo ${options.repo}`,
  });
}
