// What every clean room does around its own way of materialising a commit: a fresh private home
// directory per room, outside the repository, with the room inside it; an optional setup run
// there; and a disposal that removes the room and its home. Runtime-neutral: the adapter supplies
// the filesystem and git steps.
import { errAsync, okAsync, ResultAsync } from "neverthrow";
import type { ExecFault } from "./fault.js";
import type { Room, RoomRequest, Shell, ShellResult } from "./ports.js";

/** The things a clean-room adapter knows how to do. */
export interface RoomSteps {
  /** Makes a fresh directory for one room, private to this user and outside the repository; its path. */
  home(): ResultAsync<string, ExecFault>;
  /** Materialises `commit` into `dir` (absent; its parent, the home, exists); the commit's full id. */
  create(dir: string, commit: string): ResultAsync<string, ExecFault>;
  /** Removes the room at `dir` and every trace of it outside its home (a directory already gone is fine). */
  remove(dir: string): ResultAsync<void, ExecFault>;
  /** Removes a home `home()` made and whatever is still in it (gone is fine). */
  drop(home: string): ResultAsync<void, ExecFault>;
  /** Optional: a digest of everything in a room's `home` (its `Room` then has `unchanged`). */
  fingerprint?(home: string, commit: string): ResultAsync<string, ExecFault>;
}

/** The request's name, checked: a name that is not one plain path component is a fault. */
function nameOf(request: RoomRequest): ResultAsync<string, ExecFault> {
  const { name, commit } = request;
  if (name === "" || name === "." || name === ".." || /[/\\\0]/.test(name)) {
    return errAsync({ code: "room-failed", commit, reason: `the room name ${JSON.stringify(name)} is not a single path component` });
  }
  return okAsync(name);
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

/** Removes the room, then its home even when the room's removal failed; the first fault wins. */
function release(steps: RoomSteps, home: string, dir: string): ResultAsync<void, ExecFault> {
  return new ResultAsync(
    (async () => {
      const removed = await steps.remove(dir);
      const dropped = await steps.drop(home);
      return removed.andThen(() => dropped);
    })(),
  );
}

/** Removes the room and its home, then fails with `fault` (a removal's own fault is secondary and dropped). */
function discard<T>(steps: RoomSteps, home: string, dir: string, fault: ExecFault): ResultAsync<T, ExecFault> {
  return release(steps, home, dir)
    .orElse(() => okAsync(undefined))
    .andThen(() => errAsync<T, ExecFault>(fault));
}

/**
 * Opens a room with `steps`: makes a fresh home, materialises the commit at `<home>/<name>`, runs
 * the setup, and (with `steps.fingerprint`) takes the digest of the room's home, which
 * `unchanged` compares against. A failed materialisation or setup removes the room and its home before the fault is
 * returned; `dispose` removes both.
 */
export function openRoom(steps: RoomSteps, request: RoomRequest, shell?: Shell): ResultAsync<Room, ExecFault> {
  return nameOf(request).andThen((name) =>
    steps.home().andThen((home) => {
      const dir = `${home.replace(/[/\\]+$/, "")}/${name}`;
      return steps
        .create(dir, request.commit)
        .orElse((fault) => discard<string>(steps, home, dir, fault))
        .andThen((commit) =>
          runSetup(dir, request, shell)
            .orElse((fault) => discard<void>(steps, home, dir, fault))
            // A room whose digest cannot be taken is handed over without `unchanged`: never reused.
            .andThen(() => (steps.fingerprint ? steps.fingerprint(home, commit).orElse(() => okAsync(undefined)) : okAsync(undefined)))
            .map((handed): Room => {
              const room: Room = { dir, commit, dispose: () => release(steps, home, dir) };
              const { fingerprint } = steps;
              if (fingerprint === undefined || handed === undefined) return room;
              return { ...room, unchanged: () => fingerprint(home, commit).map((now) => now === handed) };
            }),
        );
    }),
  );
}
