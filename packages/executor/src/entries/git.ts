// @decay/executor/git: the clean room and the Git port over isomorphic-git (no git binary; node:fs or a memfs volume),
// behind a subpath so the package root never pulls isomorphic-git. In a browser, isomorphic-git
// itself needs a global `Buffer`. Named exports only.
export { isomorphicRoom } from "../isomorphic-room.js";
export type { IsomorphicRoomOptions, RoomFs } from "../isomorphic-room.js";
export { isomorphicGit } from "../isomorphic-git.js";
export type { IsomorphicGitFs, IsomorphicGitOptions } from "../isomorphic-git.js";
