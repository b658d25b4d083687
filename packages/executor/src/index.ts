// The public API of @decay/executor: named exports only, nothing else lives here.

// --- ports ---
export type { CleanRoom, CommitInfo, DiffStats, Git, Room, RoomRequest, Shell, ShellRequest, ShellResult, WorkspaceFs } from "./ports.js";
export type { StepContext } from "./runner.js";
export { inMemoryRunner } from "./runner.js";

// --- faults ---
export type { ExecFault } from "./fault.js";
export { describeExecFault, EXEC_FAULT_CODES } from "./fault.js";

// --- clean room (runtime-neutral) ---
export { isomorphicRoom } from "./isomorphic-room.js";
export type { IsomorphicRoomOptions, RoomFs } from "./isomorphic-room.js";
