// The journal's public names, one by one (no `export *`); src/index.ts re-exports them.
export type { JournalFault } from "./fault.js";
export { describeJournalFault, JOURNAL_FAULT_CODES } from "./fault.js";
export {
  BLOCKER_LABELS,
  BlockerLabel,
  DirtyPath,
  PlanTask,
  ReceivedVerdict,
  RecordLine,
  TaskPlan,
  TaskState,
  TaskStateName,
} from "./schema.js";
export { parseLine, renderLine } from "./line.js";
export type { JournalRecord, RecordEntry } from "./record.js";
export { parseRecord, renderRecord } from "./record.js";
export { appendRecord, setTaskState } from "./append.js";
export { checkInterfaces, InterfaceFinding, readTaskPlan } from "./plan.js";
export type { FailClaims } from "./read.js";
export { failClaims, lastRounds, openRulings, recordTasksKnown, specStatus, taskStates } from "./read.js";
export type { Recheck } from "./recheck.js";
export type { Resume, ResumeOptions, TaskChange } from "./resume.js";
export { applyResume, commandOf, deriveResume } from "./resume.js";
export type { RoundDecision, RoundOptions } from "./rounds.js";
export { nextRound } from "./rounds.js";
export type { NextStepInput } from "./next-step.js";
export { checklist, checkOrder, nextStep } from "./next-step.js";
