import type { Contract } from "@decay/contract";
import { decodeStrictUtf8, thrownCode, readOpenFile } from "@decay/portable";
import { err, errAsync, ok, okAsync, type Result, ResultAsync } from "neverthrow";
import type { ModelHints } from "../agent/protocol.js";
import { type ExecFault, reasonOf } from "../fault.js";
import type { PatternMatcher, WorkspaceFileHandle } from "../ports.js";
import type { StepContext } from "../runner.js";
import type { RunOptions } from "./options.js";
import type { RunEvent } from "../schema.js";
import { joinPath, type WorkspacePaths } from "./paths.js";
import type { TrackedFiles } from "./tracked.js";

/** The options of a run once defaults are applied and checked. */
export interface Settings {
  readonly includeOptional: boolean;
  readonly attemptBudget: number;
  readonly parkAfter: number;
  readonly tokenTarget: number | null;
  readonly reserveTokens: number;
  readonly maxStageDiff: { readonly files: number | null; readonly lines: number | null };
  readonly pinGlobs: readonly string[];
  readonly executeMayEditSurface: boolean;
  readonly setup: { readonly command: string; readonly timeoutMs: number } | undefined;
  readonly commandTimeoutMs: number;
  readonly maxOutputBytes: number;
  readonly maxDiffBytes: number;
  readonly maxReadBytes: number;
  readonly models: ModelHints;
  readonly assumptions: string | null;
  readonly resumeCommand: string;
}

/** Everything the run's steps reach: ports, settings, the contract and where the workspace is. */
export interface Deps extends Pick<RunOptions, "repo" | "fs" | "git" | "shell" | "cleanRoom" | "agent"> {
  readonly ctx: StepContext;
  readonly patterns: PatternMatcher;
  /** The paths tracked at a commit: `git.listFiles`, each commit listed once a run (`listedOnce`). */
  readonly tracked: TrackedFiles;
  readonly settings: Settings;
  readonly contract: Contract;
  readonly contractText: string;
  readonly slug: string;
  readonly paths: WorkspacePaths;
  readonly emit: (event: RunEvent) => void;
  readonly signal: AbortSignal | undefined;
}

/** Thrown out of a step when the caller aborted: the step's result is never recorded; caught in `runPlan`. */
export class Interrupted extends Error {
  constructor(readonly step: string) {
    super(`interrupted at step ${step}`);
  }
}

/** Run `fn` as step `name` unless the caller aborted; an abort while it ran discards its result. */
export async function guarded<T>(d: Pick<Deps, "ctx" | "signal">, name: string, fn: () => Promise<T>): Promise<T> {
  if (d.signal?.aborted) throw new Interrupted(name);
  return d.ctx.step<T>(name, async () => {
    const out = await fn();
    if (d.signal?.aborted) throw new Interrupted(name);
    return out;
  });
}

/** What a step hands back: JSON a durable engine can record, a fault included. */
export type StepOutcome<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly fault: ExecFault };

/** Run `fn` as the named step; its fault, too, is the step's recorded result. */
export async function step<T>(d: Pick<Deps, "ctx" | "signal">, name: string, fn: () => PromiseLike<Result<T, ExecFault>>): Promise<Result<T, ExecFault>> {
  const out = await guarded<StepOutcome<T>>(d, name, async () => {
    const r = await fn();
    return r.isOk() ? { ok: true, value: r.value } : { ok: false, fault: r.error };
  });
  return out.ok ? ok(out.value) : err(out.fault);
}

/**
 * The repository is the top of its working tree, when the Git adapter can tell (`topAbove`):
 * else `repo-not-top`, before anything is written or switched.
 */
export function atTop(d: Pick<Deps, "repo" | "git">): ResultAsync<void, ExecFault> {
  if (d.git.topAbove === undefined) return okAsync(undefined);
  return d.git.topAbove().andThen((top) => (top === null ? okAsync(undefined) : errAsync<void, ExecFault>({ code: "repo-not-top", repo: d.repo, top })));
}

/**
 * What must hold before a run or a verification writes or switches anything: the repository is
 * the top of its working tree (`atTop`), and the clean room can make rooms where it makes them
 * (`CleanRoom.check`, when the adapter has one: its directory lies outside the repository).
 */
export function canStart(d: Pick<Deps, "repo" | "git" | "cleanRoom">): ResultAsync<void, ExecFault> {
  return atTop(d).andThen(() => d.cleanRoom.check?.() ?? okAsync(undefined));
}

/** An absolute path inside the repository. */
export function inRepo(d: Pick<Deps, "repo">, path: string): string {
  return joinPath(d.repo, path);
}

/** What a path is, looked at without following a link or waiting for a FIFO's writer. */
type Kind = "missing" | "file" | "directory" | "link" | "other";

/**
 * The path opened to read without blocking (a FIFO opens at once instead of waiting for a writer)
 * and, with `noFollow`, without following a final link; else what kept it from opening: nothing
 * there, a link (`noFollow`), a directory some fs refuse to open (EISDIR), or a socket (ENXIO).
 */
async function openQuietly(fs: Deps["fs"], path: string, noFollow: boolean): Promise<WorkspaceFileHandle | Exclude<Kind, "file">> {
  const { O_RDONLY, O_NONBLOCK = 0, O_NOFOLLOW = 0 } = fs.constants;
  try {
    return await fs.promises.open(path, O_RDONLY | O_NONBLOCK | (noFollow ? O_NOFOLLOW : 0));
  } catch (e) {
    const code = thrownCode(e);
    if (code === "ENOENT") return "missing";
    if (code === "ELOOP" && noFollow) return "link";
    if (code === "EISDIR") return "directory";
    if (code === "ENXIO") return "other";
    throw e;
  }
}

async function kindAt(fs: Deps["fs"], path: string): Promise<Kind> {
  const handle = await openQuietly(fs, path, true);
  if (typeof handle === "string") return handle;
  try {
    const stat = await handle.stat();
    return stat.isFile() ? "file" : stat.isDirectory?.() ? "directory" : "other";
  } finally {
    await handle.close();
  }
}

/**
 * Why the run will not write `path` (relative to the repository) into its workspace, which sits
 * in the working tree agents write to: a link on the way or at the end (the write would land
 * outside the workspace), or something that is no directory or regular file where one is needed
 * (a FIFO would block the write for good). Null when it may.
 */
async function unsafeToWrite(d: Pick<Deps, "repo" | "fs">, path: string): Promise<string | null> {
  const parts = path.split("/");
  for (let k = 1; k <= parts.length; k += 1) {
    const at = parts.slice(0, k).join("/");
    const kind = await kindAt(d.fs, inRepo(d, at));
    const last = k === parts.length;
    if (kind === "missing") return null;
    if (kind === "link") return `${at} is a symbolic link; the run writes only inside its workspace, never through a link`;
    if (kind !== (last ? "file" : "directory"))
      return `${at} is not a ${last ? "regular file" : "directory"} (a FIFO, socket, device or ${last ? "directory" : "file"}); the run writes only regular files in its workspace`;
  }
  return null;
}

/**
 * Write a workspace file (parents made); a link or a FIFO on its way is refused before anything is
 * written (`unsafeToWrite`); any failure is `workspace-io` naming it.
 */
export function writeFile(d: Pick<Deps, "repo" | "fs">, path: string, text: string): ResultAsync<void, ExecFault> {
  const target = inRepo(d, path);
  const parent = target.slice(0, target.lastIndexOf("/"));
  return ResultAsync.fromPromise(
    (async () => {
      const refused = await unsafeToWrite(d, path);
      if (refused !== null) throw new Refused(refused);
      await d.fs.promises.mkdir(parent, { recursive: true });
      await d.fs.promises.writeFile(target, text);
    })(),
    (e): ExecFault => ({ code: "workspace-io", path: target, reason: e instanceof Refused ? e.message : reasonOf(e) }),
  );
}

/** A refusal to read a workspace file, told apart from an fs error by its message. */
class Refused extends Error {}

const notRegular = () => new Refused("not a regular file (a directory, FIFO, socket or device); the run reads only regular files");
const tooLarge = (max: number) => new Refused(`larger than ${max} bytes, the most the run reads (maxReadBytes)`);

// The size of the open file by its fstat: a regular file of at most `max` bytes, else refused.
function checkedSize(stat: { isFile(): boolean; readonly size: number | bigint }, max: number): number {
  if (!stat.isFile()) throw notRegular();
  const size = Number(stat.size);
  if (size > max) throw tooLarge(max);
  return size;
}

// The bytes of a regular file of at most `max` bytes; null when nothing is there. The run's files
// sit in a working tree agents write to, so what the path names can change between two calls:
// the path is opened once (`openQuietly`, following links), and only the open file is checked and
// read. A socket or a directory that cannot be opened is not a regular file either.
async function boundedRead(fs: Deps["fs"], path: string, max: number): Promise<Uint8Array | null> {
  const handle = await openQuietly(fs, path, false);
  if (handle === "missing") return null;
  if (typeof handle === "string") throw notRegular();
  // At most `max + 1` bytes, so a file that grew past the bound since its fstat is refused too.
  const bytes = await readOpenFile(handle, (stat) => checkedSize(stat, max), max + 1);
  if (bytes.length > max) throw tooLarge(max);
  return bytes;
}

/** Read a file's bytes; null when it does not exist; a `workspace-io` fault for anything but a regular file within the bound. */
export function readBytes(d: Pick<Deps, "fs" | "settings">, path: string): ResultAsync<Uint8Array | null, ExecFault> {
  return ResultAsync.fromPromise(
    boundedRead(d.fs, path, d.settings.maxReadBytes),
    (e): ExecFault => ({
      code: "workspace-io",
      path,
      reason: e instanceof Refused ? e.message : reasonOf(e),
    }),
  );
}

/** Bytes as UTF-8 text; bytes that are not UTF-8 are a `workspace-io` fault naming `path`, never a silent U+FFFD. */
export function utf8Text(path: string, bytes: Uint8Array): Result<string, ExecFault> {
  return decodeStrictUtf8(bytes).mapErr((): ExecFault => ({ code: "workspace-io", path, reason: "is not UTF-8 text" }));
}

/** Read a file as UTF-8 text (see `utf8Text`); null when it does not exist. */
export function readText(d: Pick<Deps, "fs" | "settings">, path: string): ResultAsync<string | null, ExecFault> {
  return readBytes(d, path).andThen((bytes) => (bytes === null ? ok(null) : utf8Text(path, bytes)));
}

/** Remove a workspace file or directory; missing is fine. */
export function removePath(d: Pick<Deps, "repo" | "fs">, path: string): ResultAsync<void, ExecFault> {
  const target = inRepo(d, path);
  return ResultAsync.fromPromise(
    d.fs.promises.rm(target, { recursive: true, force: true }).then(() => undefined),
    (e): ExecFault => ({ code: "workspace-io", path: target, reason: reasonOf(e) }),
  );
}
