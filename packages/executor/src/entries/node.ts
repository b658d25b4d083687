// @decay/executor/node: the Node adapters (Shell over child_process, Git over the git binary, the
// clean rooms that need a filesystem and a git binary). Named exports only.
export { gitCloneRoom, gitWorktreeRoom } from "../node/clean-rooms.js";
export type { GitRoomOptions, GitWorktreeRoomOptions, WorktreeCleanRoom } from "../node/clean-rooms.js";
export { describeSparesOff } from "../node/spare-rooms.js";
export type { SparesOff } from "../node/spare-rooms.js";
export { systemGit } from "../node/git.js";
export type { SystemGitOptions } from "../node/git.js";
export { nodeShell } from "../node/shell.js";
export { nodeRunLock, RUN_LOCK_FILE } from "../node/run-lock.js";
export type { NodeRunLockOptions } from "../node/run-lock.js";
export { commandAgent } from "../node/command-agent.js";
export type { CommandAgentOptions } from "../node/command-agent.js";
export type { NodeShellOptions } from "../node/shell.js";
export { DEFAULT_PATTERN_TIMEOUT_MS, nodePatterns } from "../node/patterns.js";
export type { NodePatternsOptions } from "../node/patterns.js";
