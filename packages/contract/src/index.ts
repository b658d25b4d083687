// The public API of @decay/contract: named exports only, nothing else lives here.

// --- model (zod schemas are the types) ---
export {
  AcceptanceRow,
  Contract,
  CountExpect,
  Expect,
  Finding,
  FindingCode,
  Findings,
  FreshState,
  Plan,
  PlanStage,
  Stage,
  StageId,
} from "./model.js";
export { CONTRACT_SCHEMA_ID, ContractJson, contractJson, FINDINGS_SCHEMA_ID, FindingsJson, findingsJson } from "./json-output.js";

// --- faults ---
export type { AcceptanceProblem, ContractFault, PatternProblem, UnreadKind } from "./fault.js";
export { describeFault } from "./fault.js";

// --- plan reader ---
export { decodeUtf8 } from "./decode.js";
export { planProhibitions, readPlan } from "./plan/read-plan.js";

// --- import from other plan formats ---
export type { ImportFormat, Imported } from "./import/import-plan.js";
export { importPlan } from "./import/import-plan.js";
export type { NotConverted } from "./import/steps.js";

// --- compile, render, parse ---
export type { CompileOptions, RowWriter } from "./compile.js";
export { compileContract, planSha256 } from "./compile.js";
export { CONTRACT_FORMAT, renderContract } from "./render.js";
export { looksLikeContract, parseContract } from "./parse-contract.js";

// --- self-check and drift ---
export type { SelfCheckOptions } from "./self-check/check.js";
export { selfCheck } from "./self-check/check.js";
export { planDrift } from "./drift.js";
export type { RunView } from "./self-check/commands.js";
export { runView } from "./self-check/commands.js";

export { VERSION } from "./version.js";
