// The Node adapters a command runs on, chosen from its flags: the composition root of `decay`.
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import { resolve } from "node:path";
import { isomorphicRoom } from "../isomorphic-room.js";
import { gitCloneRoom, gitWorktreeRoom } from "../node/clean-rooms.js";
import { commandAgent } from "../node/command-agent.js";
import { systemGit } from "../node/git.js";
import { nodePatterns } from "../node/patterns.js";
import { describeSparesOff, type SparesOff } from "../node/spare-rooms.js";
import { nodeShell } from "../node/shell.js";
import type { Agent } from "../agent/protocol.js";
import type { CleanRoom } from "../ports.js";
import type { RoomKind, RunFlags, VerifyFlags } from "./args.js";
import type { CliIo } from "./io.js";
import { warnOnStderr } from "./progress.js";

/**
 * fs, git, shell, clean room and pattern matcher for a repository, the room of kind
 * `flags.cleanRoom`; the shell and rooms stop when `io.signal` aborts; an acceptance regex is
 * stopped after `flags.patternTimeoutMs` (default `nodePatterns`' bound, 10 s), or by Ctrl-C.
 * Rooms are made in `$TMPDIR` of `io.env` (the system's temp directory when unset), never in the
 * repository; their faults and warnings name that directory `$TMPDIR`, as a `decay` user sets it.
 * What the adapters warn of (a spares directory not used) goes to `warn`. `breakOnSigint: false`
 * lets a match in flight run to its end or its bound when SIGINT comes (`decay worker`, which
 * stops its adapters itself, only once nothing they return can be recorded).
 */
export function adaptersFor(
  io: CliIo,
  repo: string,
  flags: Pick<VerifyFlags, "cleanRoom" | "patternTimeoutMs">,
  warn = (text: string): void => void warnOnStderr(io.stderr, text),
  breakOnSigint = true,
) {
  const shell = nodeShell({ env: io.env, signal: io.signal });
  const dir = resolve(io.env.TMPDIR || tmpdir());
  const dirName = "$TMPDIR";
  const onWarning = (off: SparesOff) => warn(describeSparesOff(off, dirName));
  const rooms: Record<RoomKind, () => CleanRoom> = {
    clone: () => gitCloneRoom({ repo, shell, env: io.env, dir, dirName }),
    worktree: () => gitWorktreeRoom({ repo, shell, env: io.env, dir, dirName, onWarning }),
    isomorphic: () => isomorphicRoom({ fs, repo, shell, dir, dirName }),
  };
  // Ctrl-C stops a match in flight; the bin's SIGINT listener then parks the run.
  const patterns = nodePatterns({ breakOnSigint, ...(flags.patternTimeoutMs === undefined ? {} : { timeoutMs: flags.patternTimeoutMs }) });
  return { repo, fs, git: systemGit({ dir: repo, env: io.env }), shell, cleanRoom: rooms[flags.cleanRoom](), patterns };
}

/**
 * The agent `--agent` names (`program`, resolved by `agentProgram`, then the flag's other words),
 * each call bounded by `--agent-timeout-ms` (else `commandAgent`'s default) and stopped when
 * `signal` aborts.
 */
export function agentFor(program: string, flags: Pick<RunFlags, "agent" | "agentTimeoutMs">, env: CliIo["env"], signal: AbortSignal | undefined): Agent {
  return commandAgent({
    command: program,
    args: flags.agent.slice(1),
    baseEnv: env,
    signal,
    ...(flags.agentTimeoutMs === undefined ? {} : { timeoutMs: flags.agentTimeoutMs }),
  });
}
