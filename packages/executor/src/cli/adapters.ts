// The Node adapters a command runs on, chosen from its flags: the composition root of `decay`.
import * as fs from "node:fs";
import { isomorphicRoom } from "../isomorphic-room.js";
import { gitCloneRoom, gitWorktreeRoom } from "../node/clean-rooms.js";
import { systemGit } from "../node/git.js";
import { nodeShell } from "../node/shell.js";
import type { CleanRoom } from "../ports.js";
import type { RoomKind } from "./args.js";
import type { CliIo } from "./io.js";

/** fs, git, shell and clean room for a repository; the shell and rooms stop when `io.signal` aborts. */
export function adaptersFor(io: CliIo, repo: string, room: RoomKind) {
  const shell = nodeShell({ env: io.env, signal: io.signal });
  const rooms: Record<RoomKind, () => CleanRoom> = {
    clone: () => gitCloneRoom({ repo, shell, env: io.env }),
    worktree: () => gitWorktreeRoom({ repo, shell, env: io.env }),
    isomorphic: () => isomorphicRoom({ fs, repo, shell }),
  };
  return { repo, fs, git: systemGit({ dir: repo, env: io.env }), shell, cleanRoom: rooms[room]() };
}
