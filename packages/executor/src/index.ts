// The public API of @decay/executor: named exports only, nothing else lives here.

// --- ports ---
export type { CleanRoom, CommitInfo, DiffStats, Git, Room, RoomRequest, Shell, ShellRequest, ShellResult, WorkspaceFs } from "./ports.js";
export type { StepContext } from "./runner.js";
export { inMemoryRunner } from "./runner.js";

// --- faults ---
export type { ExecFault } from "./fault.js";
export { describeExecFault, EXEC_FAULT_CODES } from "./fault.js";

// --- journal ---
export type { FailClaims, JournalFault, JournalRecord, NextStepInput, Recheck, RecordEntry, Resume, ResumeOptions, RoundDecision, RoundOptions, TaskChange } from "./journal/index.js";
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
  renderLine,
  renderRecord,
  setTaskState,
  specStatus,
  TaskPlan,
  TaskState,
  TaskStateName,
  taskStates,
} from "./journal/index.js";
