// The public API of @decay/executor: named exports only, nothing else lives here.

// --- ports ---
export type {
  CleanRoom,
  CommitInfo,
  DiffStats,
  Git,
  PatternMatcher,
  PatternInterrupted,
  PatternTimeout,
  Room,
  RoomRequest,
  RunLock,
  Shell,
  ShellRequest,
  ShellResult,
  WorkspaceFs,
} from "./ports.js";
export type { StepContext } from "./runner.js";
export { inMemoryRunner } from "./runner.js";

// --- faults ---
export type { ExecFault } from "./fault.js";
export { describeExecFault, EXEC_FAULT_CODES } from "./fault.js";

// --- agent protocol and the scripted agent ---
export {
  AcceptanceEffect,
  AdjudicateReply,
  AgentReply,
  AgentRequest,
  Brief,
  DEFAULT_MODELS,
  DiagnoseReply,
  Diagnosis,
  DiffTruncated,
  Freeze,
  Lens,
  LENSES,
  ModelHints,
  Role,
  WorkReply,
} from "./agent/protocol.js";
export type { Agent, RequestOf } from "./agent/protocol.js";
export type { CallOutcome } from "./agent/call.js";
export { callAgent } from "./agent/call.js";
export type { BoundedDiff, DiffCutter } from "./diff-cut.js";
export { diffCutter, diffHeaderPath } from "./diff-cut.js";
export type { AgentScript, ScriptAction, ScriptedAgentOptions } from "./agent/scripted.js";
export { scriptedAgent, scriptKeys, scriptTable } from "./agent/scripted.js";

// --- the run ---
export type { RunOptions } from "./run/options.js";
export { DEFAULT_PIN_GLOBS } from "./run/options.js";
export { directPatterns } from "./run/patterns.js";
export { runPlan } from "./run/run-plan.js";
export type { ContractVerdict, VerifyOptions } from "./run/preflight.js";
export { verifyContract } from "./run/preflight.js";
export { renderVerificationMd } from "./verification-md.js";
export { slugOf, workspacePaths } from "./run/paths.js";
export type { WorkspacePaths } from "./run/paths.js";
export { readLedger } from "./run/ledger.js";
export { failureSignature, normaliseOutput } from "./run/signature.js";

// --- documented data ---
export {
  CLI_FAULT_SCHEMA_ID,
  CliFaultOutput,
  LedgerEntry,
  LedgerKind,
  LedgerRow,
  NothingReturned,
  RefusedFix,
  RUN_REPORT_SCHEMA_ID,
  RUN_EVENT_SCHEMA_ID,
  RunEvent,
  RunEventLine,
  RunReport,
  RunStatus,
  StageReport,
  StageState,
  TokensByRole,
} from "./schema.js";
export { StageVerdictJson, VERIFICATION_SCHEMA_ID, VerificationOutput } from "./verification.js";

// --- journal ---
export type {
  FailClaims,
  JournalFault,
  JournalRecord,
  NextStepInput,
  Recheck,
  RecordEntry,
  Resume,
  ResumeOptions,
  RoundDecision,
  RoundOptions,
  TaskChange,
} from "./journal/index.js";
export {
  appendRecord,
  applyResume,
  BLOCKER_LABELS,
  BlockerLabel,
  checkInterfaces,
  checklist,
  checkOrder,
  commandOf,
  deriveResume,
  describeJournalFault,
  DirtyPath,
  failClaims,
  InterfaceFinding,
  JOURNAL_FAULT_CODES,
  lastRounds,
  nextRound,
  nextStep,
  openRulings,
  parseLine,
  parseRecord,
  PlanTask,
  readTaskPlan,
  ReceivedVerdict,
  RecordLine,
  recordTasksKnown,
  renderLine,
  renderRecord,
  setTaskState,
  specStatus,
  TaskPlan,
  TaskState,
  TaskStateName,
  taskStates,
} from "./journal/index.js";
