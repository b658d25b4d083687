// What every clean room does around its own way of materialising a commit: one directory per
// name under the parent (a rerun replaces it), an optional setup run there, and a disposal that
// leaves nothing. Runtime-neutral: the adapter supplies the filesystem and git steps.
import { errAsync, okAsync, type ResultAsync } from "neverthrow";
import type { ExecFault } from "./fault.js";
import type { Room, RoomRequest, Shell, ShellResult } from "./ports.js";

/** The three things a clean-room adapter knows how to do to a directory. */
export interface RoomSteps {
  /** Removes whatever a previous room of the same name left at `dir` (nothing there is fine). */
  clear(dir: string): ResultAsync<void, ExecFault>;
  /** Materialises `commit` into `dir` (absent), creating `parent` when needed; the commit's full id. */
  create(dir: string, parent: string, commit: string): ResultAsync<string, ExecFault>;
  /** Removes the room at `dir` and every trace of it (a directory already gone is fine). */
  remove(dir: string): ResultAsync<void, ExecFault>;
}

/** The room's directory: `name` inside `parent`; a name that is not one plain path component is a fault. */
export function roomDir(request: RoomRequest): ResultAsync<string, ExecFault> {
  const { name, parent, commit } = request;
  if (name === "" || name === "." || name === ".." || /[/\\\0]/.test(name)) {
    return errAsync({ code: "room-failed", commit, reason: `the room name ${JSON.stringify(name)} is not a single path component` });
  }
  return okAsync(`${parent.replace(/[/\\]+$/, "")}/${name}`);
}

function setupFault(commit: string, command: string, r: ShellResult): ExecFault {
  const said = r.stderr.trim() === "" ? r.stdout : r.stderr;
  return { code: "setup-failed", commit, command, exit: r.exit, timedOut: r.timedOut, stderr: said };
}

function runSetup(dir: string, request: RoomRequest, shell: Shell | undefined): ResultAsync<void, ExecFault> {
  const setup = request.setup;
  if (setup === undefined) return okAsync(undefined);
  if (shell === undefined) {
    return errAsync({ code: "option-invalid", option: "shell", issue: "a clean room with a setup command needs a Shell to run it" });
  }
  return shell
    .run({ command: setup.command, cwd: dir, timeoutMs: setup.timeoutMs })
    .andThen((r) => (r.exit === 0 && !r.timedOut ? okAsync(undefined) : errAsync(setupFault(request.commit, setup.command, r))));
}

/** Removes the room, then fails with `fault` (the removal's own fault is secondary and dropped). */
function discard<T>(steps: RoomSteps, dir: string, fault: ExecFault): ResultAsync<T, ExecFault> {
  return steps
    .remove(dir)
    .orElse(() => okAsync(undefined))
    .andThen(() => errAsync<T, ExecFault>(fault));
}

/**
 * Opens a room with `steps`: clears `<parent>/<name>`, materialises the commit, runs the setup.
 * A failed materialisation or setup removes the room before the fault is returned.
 */
export function openRoom(steps: RoomSteps, request: RoomRequest, shell?: Shell): ResultAsync<Room, ExecFault> {
  return roomDir(request).andThen((dir) =>
    steps
      .clear(dir)
      .andThen(() => steps.create(dir, request.parent, request.commit))
      .orElse((fault) => discard<string>(steps, dir, fault))
      .andThen((commit) =>
        runSetup(dir, request, shell)
          .orElse((fault) => discard<void>(steps, dir, fault))
          .map((): Room => ({ dir, commit, dispose: () => steps.remove(dir) })),
      ),
  );
}
