// @decay/executor/node: the Node adapters (Shell over child_process, Git over the git binary, the
// clean rooms that need a filesystem and a git binary). Named exports only.
export {};
