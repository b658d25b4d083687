import * as nodeFs from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { type AtomicFs, type AtomicFsError, atomicWrite, errnoSentence, randomHex } from "@decay/portable";
import { errAsync, okAsync, ResultAsync } from "neverthrow";
import { shown } from "./args.js";
import { NOT_UTF8_NAME, namesDirectory, notRegular, REPLACEMENT } from "./input.js";
import { type CliWriter, reasonInWords, reasonOf } from "./streams.js";

/** Where outputs go: relative targets resolve against `cwd`; `-` is `stdout`. */
export interface OutputSink {
  readonly cwd: string;
  readonly stdout: CliWriter;
}

/** The node:fs calls `writeOutput` makes: node:fs itself, or a test's fault-injecting wrapper. */
export interface OutputFs {
  lstatSync(path: string, options: { throwIfNoEntry: false }): nodeFs.Stats | undefined;
  statSync(path: string, options: { throwIfNoEntry: false }): nodeFs.Stats | undefined;
  openSync(path: string, flags: string | number, mode?: number): number;
  writeSync(fd: number, buffer: Uint8Array, offset: number, length: number): number;
  fsyncSync(fd: number): void;
  closeSync(fd: number): void;
  renameSync(from: string, to: string): void;
  unlinkSync(path: string): void;
}

/** How `writeOutput` writes. */
export interface OutputOptions {
  /** The files this run read, as given (`-` is standard input): the target may be none of them. */
  readonly inputs?: readonly string[];
  /** The filesystem (default node:fs). */
  readonly fs?: OutputFs;
}

/** Why an output was not written. `path` is the target as given (`standard output` for `-`). */
export interface OutputRefusal {
  /**
   * `not-regular`: the target exists and is not a regular file; `same-as-input`: it is a file this
   * run read; `name`: its name cannot be what was typed (not valid UTF-8); `io`: a file call
   * failed; `stdout`: writing standard output failed.
   */
  readonly kind: "not-regular" | "same-as-input" | "name" | "io" | "stdout";
  readonly path: string;
  readonly reason: string;
  /** For `same-as-input`: the input it is, as given in `OutputOptions.inputs`. */
  readonly input?: string;
}

/** Refuses a target that exists and is not a regular file (a symbolic link included: it is never followed). */
function vetTarget(fs: OutputFs, abs: string): string | undefined {
  const s = fs.lstatSync(abs, { throwIfNoEntry: false });
  const what = s === undefined ? undefined : notRegular(s);
  return what === undefined ? undefined : `it is ${what}; only a regular file is replaced`;
}

/** `stat` of a path, or undefined when nothing is there (ENOENT, or ENOTDIR: a file where a directory would be). */
function statOf(fs: OutputFs, path: string): nodeFs.Stats | undefined {
  try {
    return fs.statSync(path, { throwIfNoEntry: false });
  } catch (e) {
    if (reasonOf(e) === "ENOTDIR") return undefined;
    throw e;
  }
}

function sameFile(a: nodeFs.Stats | undefined, b: nodeFs.Stats | undefined): boolean {
  return a !== undefined && b !== undefined && a.dev === b.dev && a.ino === b.ino;
}

/**
 * The input `abs` (the target, resolved) is the same file as, or undefined: the same path once
 * resolved against `cwd`; when both exist, the same device and inode (a hard link, a symbolic
 * link to it, a path through a linked directory); and when the target does not exist yet, the
 * same name in the same directory (by device and inode), so a file still to be made, such as one a
 * plan says will be created, is matched through a linked directory too.
 */
function sameAsInput(fs: OutputFs, cwd: string, abs: string, inputs: readonly string[]): string | undefined {
  if (inputs.every((input) => input === "-")) return undefined;
  const target = fs.statSync(abs, { throwIfNoEntry: false });
  let folder: nodeFs.Stats | undefined;
  return inputs.find((input) => {
    if (input === "-") return false;
    const path = resolve(cwd, input);
    if (path === abs) return true;
    if (target !== undefined) return sameFile(statOf(fs, path), target);
    if (basename(path) !== basename(abs)) return false;
    folder ??= statOf(fs, dirname(abs));
    return sameFile(statOf(fs, dirname(path)), folder);
  });
}

/** Why the target may not be written (it exists and is not a regular file, or it is an input), or undefined. */
function refusal(fs: OutputFs, cwd: string, target: string, abs: string, inputs: readonly string[]): OutputRefusal | undefined {
  const refused = vetTarget(fs, abs);
  if (refused !== undefined) return { kind: "not-regular", path: target, reason: refused };
  const input = sameAsInput(fs, cwd, abs, inputs);
  if (input === undefined) return undefined;
  return { kind: "same-as-input", path: target, input, reason: `it is the same file as the input ${shown(input)}, which writing it would replace` };
}

function writeAll(fs: OutputFs, fd: number, bytes: Uint8Array): void {
  for (let done = 0; done < bytes.length; ) done += fs.writeSync(fd, bytes, done, bytes.length - done);
}

/** Makes the rename durable; a platform that cannot fsync a directory (EISDIR, EINVAL, EPERM) is let be. */
function syncDirectory(fs: OutputFs, dir: string): void {
  let fd: number;
  try {
    fd = fs.openSync(dir, "r");
  } catch {
    return;
  }
  try {
    fs.fsyncSync(fd);
  } catch (e) {
    if (!["EISDIR", "EINVAL", "EPERM", "ENOTSUP"].includes(reasonOf(e))) throw e;
  } finally {
    fs.closeSync(fd);
  }
}

/** One synchronous fs call as the shared atomic write's port expects it: a throw is an errno value. */
function call(run: () => void): ResultAsync<void, AtomicFsError> {
  try {
    run();
    return okAsync(undefined);
  } catch (e) {
    return errAsync({ errno: reasonOf(e) });
  }
}

/** `OutputFs` as the port of the shared atomic write (@decay/portable). */
function atomicFs(fs: OutputFs): AtomicFs<AtomicFsError> {
  const writeNew = (path: string, data: Uint8Array, mode: number) =>
    call(() => {
      const fd = fs.openSync(path, "wx", mode);
      try {
        writeAll(fs, fd, data);
        fs.fsyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
    });
  return {
    writeNew,
    rename: (from, to) => call(() => fs.renameSync(from, to)),
    unlink: (path) => call(() => fs.unlinkSync(path)),
    fsyncDir: (dir) => call(() => syncDirectory(fs, dir)),
  };
}

/** Temp file beside the target, written, fsynced, renamed over it, the directory fsynced; on failure the temp file is removed. */
function replace(fs: OutputFs, target: string, bytes: Uint8Array): ResultAsync<void, AtomicFsError> {
  const temp = { mode: 0o644, name: () => `.${basename(target)}.${randomHex(6)}.tmp` };
  return atomicWrite(atomicFs(fs), dirname(target), target, bytes, temp).mapErr((e) => ("errno" in e ? e : { errno: e.code }));
}

/**
 * The one way a decay CLI writes its `-o` output: `-` is standard output; any other target is
 * written atomically (a temporary file in its directory, written, fsynced, renamed over it, the
 * directory fsynced), so on any failure the old file is byte-identical and no temporary file
 * remains. A target that exists and is not a regular file (device, FIFO, socket, directory,
 * symbolic link) is refused and left untouched, and so is a name ending in `/`, `/.` or `/..`,
 * a name holding U+FFFD (what Node makes of bytes that are not UTF-8: it would name another
 * file), and one of `options.inputs` (the same path, or the same file through a link).
 */
export function writeOutput(io: OutputSink, target: string, text: string, options: OutputOptions = {}): ResultAsync<void, OutputRefusal> {
  const { fs = nodeFs, inputs = [] } = options;
  if (target === "-") {
    return ResultAsync.fromPromise(
      Promise.resolve().then(() => io.stdout.write(text)),
      (e): OutputRefusal => ({ kind: "stdout", path: "standard output", reason: reasonOf(e) }),
    );
  }
  // `path.resolve` would read `out.md/` as `out.md`: a name that names a directory is refused as typed.
  const directory = namesDirectory(target);
  if (directory !== undefined) return errAsync({ kind: "not-regular", path: target, reason: directory });
  if (target.includes(REPLACEMENT))
    return errAsync({ kind: "name", path: target, reason: `${NOT_UTF8_NAME}; writing it would make another file (name another target)` });
  const abs = resolve(io.cwd, target);
  const vetted = ResultAsync.fromPromise(
    Promise.resolve().then(() => refusal(fs, io.cwd, target, abs, inputs)),
    (e): OutputRefusal => ({ kind: "io", path: target, reason: reasonInWords(e) }),
  );
  return vetted.andThen((refused) => {
    if (refused !== undefined) return errAsync<void, OutputRefusal>(refused);
    return replace(fs, abs, new TextEncoder().encode(text)).mapErr((e): OutputRefusal => ({ kind: "io", path: target, reason: errnoSentence(e.errno) }));
  });
}
