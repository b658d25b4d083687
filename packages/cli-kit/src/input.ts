import * as nodeFs from "node:fs";
import { isAbsolute, sep } from "node:path";
import { errAsync, okAsync, ResultAsync } from "neverthrow";
import { reasonInWords, reasonOf } from "./streams.js";

/** The most any `--max-input-bytes` accepts: 256 MiB, far below the longest string the engine makes. */
export const MAX_INPUT_CEILING = 256 * 1024 * 1024;

/** The value of a `--max-input-bytes` flag: a whole number of bytes from 1 to the ceiling, else undefined. */
export function byteLimit(text: string): number | undefined {
  return /^[1-9][0-9]*$/.test(text) && Number(text) <= MAX_INPUT_CEILING ? Number(text) : undefined;
}

/** Where inputs come from: relative paths resolve against `cwd`; `-` is `stdin` (none: refused). */
export interface InputSource {
  readonly cwd: string;
  readonly stdin?: AsyncIterable<Uint8Array | string>;
  /**
   * What standard input is (`fstat` of descriptor 0), asked before `-` is read: a directory is
   * refused (Node would read one as an empty stream). Absent when standard input is not a
   * descriptor (a test's bytes); `sealedProcess` supplies it given `fstatSync`.
   */
  readonly stdinStat?: () => StatLike;
}

/** The default bound on any one input a decay CLI reads (a plan, a contract, a record): 64 MiB. */
export const DEFAULT_MAX_INPUT_BYTES = 64 * 1024 * 1024;

/** The part of a stat result the "is this a regular file" decision reads. */
export interface StatLike {
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
  isFIFO(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
  isSocket(): boolean;
}

/** What a path is, in words, when it is not a regular file; `undefined` for a regular file. */
export function notRegular(s: StatLike): string | undefined {
  if (s.isFile()) return undefined;
  if (s.isDirectory()) return "a directory";
  if (s.isSymbolicLink()) return "a symbolic link";
  if (s.isFIFO()) return "a FIFO (named pipe)";
  if (s.isCharacterDevice()) return "a character device";
  if (s.isBlockDevice()) return "a block device";
  if (s.isSocket()) return "a socket";
  return "not a regular file";
}

/** Why an input was not read. `name` is the path as given, or `standard input`. */
export interface InputRefusal {
  readonly kind: "not-regular" | "too-large" | "unreadable";
  readonly name: string;
  readonly reason: string;
}

/** The node:fs calls the bounded reader makes (node:fs itself, or a test's wrapper). */
export interface InputFs {
  statSync(path: string): nodeFs.Stats;
  fstatSync(fd: number): nodeFs.Stats;
  openSync(path: string, flags: number): number;
  readSync(fd: number, buffer: Uint8Array, offset: number, length: number, position: number | null): number;
  closeSync(fd: number): void;
}

/** How `readBounded` reads. */
export interface BoundedOptions {
  /** The most bytes accepted (default `DEFAULT_MAX_INPUT_BYTES`); one more is a refusal. */
  readonly maxBytes?: number;
  /** The filesystem (default node:fs). */
  readonly fs?: InputFs;
  /** The option that raises the limit, named in the refusal (e.g. `--max-input-bytes`). */
  readonly option?: string;
}

function tooLarge(name: string, limit: number, option: string | undefined): InputRefusal {
  const raise = option === undefined ? "" : ` (${option} raises it)`;
  return { kind: "too-large", name, reason: `it is larger than the limit of ${limit} bytes${raise}` };
}

/** No standard input at all: reads as empty. */
async function* none(): AsyncGenerator<Uint8Array> {}

/**
 * Reads standard input up to `limit` bytes; one byte more stops the read (peak memory about twice
 * the limit). A directory on standard input (`< dir`) is refused before anything is read.
 */
async function readStdin(io: InputSource, limit: number, option: string | undefined): Promise<Uint8Array | InputRefusal> {
  if (io.stdinStat?.().isDirectory() === true) {
    return { kind: "not-regular", name: "standard input", reason: "it is a directory, not a file or a stream" };
  }
  const source = io.stdin ?? none();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of source) {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    total += bytes.length;
    if (total > limit) return tooLarge("standard input", limit, option);
    chunks.push(bytes);
  }
  return Buffer.concat(chunks, total);
}

// O_NONBLOCK: a path swapped for a FIFO between the stat and the open does not hang the open.
const OPEN_FLAGS = nodeFs.constants.O_RDONLY | (nodeFs.constants.O_NONBLOCK ?? 0);

/** Reads an open regular file of at most `limit` bytes; a file that grew past the limit is refused. */
function readOpen(fs: InputFs, fd: number, name: string, limit: number, option: string | undefined): Uint8Array | InputRefusal {
  const s = fs.fstatSync(fd);
  const what = notRegular(s);
  if (what !== undefined) return { kind: "not-regular", name, reason: `it is ${what}, not a regular file` };
  if (s.size > limit) return tooLarge(name, limit, option);
  const buffer = new Uint8Array(s.size + 1);
  let filled = 0;
  for (;;) {
    const got = fs.readSync(fd, buffer, filled, buffer.length - filled, filled);
    if (got === 0) break;
    filled += got;
    if (filled === buffer.length) return filled > limit ? tooLarge(name, limit, option) : grow(fs, fd, buffer, name, limit, option);
  }
  return buffer.subarray(0, filled);
}

/** The file grew after fstat: read on, still bounded by the limit. */
function grow(fs: InputFs, fd: number, start: Uint8Array, name: string, limit: number, option: string | undefined): Uint8Array | InputRefusal {
  let buffer = new Uint8Array(Math.min(start.length * 2, limit + 1));
  buffer.set(start);
  let filled = start.length;
  for (;;) {
    const got = fs.readSync(fd, buffer, filled, buffer.length - filled, filled);
    if (got === 0) return buffer.subarray(0, filled);
    filled += got;
    if (filled > limit) return tooLarge(name, limit, option);
    if (filled === buffer.length) {
      const bigger = new Uint8Array(Math.min(buffer.length * 2, limit + 1));
      bigger.set(buffer);
      buffer = bigger;
    }
  }
}

/** Reads a named file: stat first (anything but a regular file is refused before it is opened). */
function readFile(fs: InputFs, abs: string, name: string, limit: number, option: string | undefined): Uint8Array | InputRefusal {
  const what = notRegular(fs.statSync(abs));
  if (what !== undefined) return { kind: "not-regular", name, reason: `it is ${what}, not a regular file` };
  const fd = fs.openSync(abs, OPEN_FLAGS);
  try {
    return readOpen(fs, fd, name, limit, option);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * How `name` (as typed) ends when its ending names a directory whatever it is: `/`, or a last
 * component `.` or `..` (`plan.tsv/`, `plan.tsv/.`); `undefined` for any other name.
 */
function directoryEnding(name: string): string | undefined {
  if (name.endsWith("/")) return "/";
  const last = name.slice(name.lastIndexOf("/") + 1);
  return last === "." || last === ".." ? (name.length > last.length ? `/${last}` : last) : undefined;
}

/**
 * Why a file name as typed cannot name a regular file (it ends with `/`, `/.` or `/..`, so it
 * names a directory), or `undefined`: for inputs and `-o` outputs alike.
 */
export function namesDirectory(name: string): string | undefined {
  const ending = directoryEnding(name);
  return ending === undefined ? undefined : `its name ends with "${ending}", so it names a directory, not a regular file`;
}

/**
 * The path the system is handed: `input` as typed, under `cwd` when relative. Not normalised
 * (`path.resolve` would read `plan.tsv/` and `plan.tsv/x/..` as `plan.tsv`): the system decides
 * what each component is.
 */
function systemPath(cwd: string, input: string): string {
  return isAbsolute(input) ? input : `${cwd.endsWith(sep) ? cwd : cwd + sep}${input}`;
}

/** U+FFFD, the character Node's argv holds where the system gave bytes that are not UTF-8. */
export const REPLACEMENT = "\uFFFD";

/** Why a name holding U+FFFD is not the name that was typed. */
export const NOT_UTF8_NAME =
  "its name holds U+FFFD, which Node puts in place of command-line bytes that are not valid UTF-8: the name typed is not valid UTF-8, and a decay CLI cannot name such a file";

/** The reason an input could not be read: the errno in words; for a missing file whose name holds U+FFFD, that its name is not valid UTF-8. */
function unreadable(input: string, e: unknown): string {
  return reasonOf(e) === "ENOENT" && input.includes(REPLACEMENT) ? `no such file: ${NOT_UTF8_NAME} (rename the file)` : reasonInWords(e);
}

/**
 * A named input: refused by its name when it is empty (the system would read the working
 * directory) or names a directory, else read (`readFile`).
 */
function readNamed(fs: InputFs, cwd: string, input: string, limit: number, option: string | undefined): Uint8Array | InputRefusal {
  if (input === "") return { kind: "unreadable", name: input, reason: "the name is empty, and an empty argument names no file" };
  const directory = namesDirectory(input);
  if (directory !== undefined) return { kind: "not-regular", name: input, reason: directory };
  return readFile(fs, systemPath(cwd, input), input, limit, option);
}

/**
 * The one reader for every input a decay CLI takes: a file named on the command line (resolved
 * against `cwd`) or standard input for `-`. A named input must be a regular file (a FIFO, a
 * device, a socket or a directory is refused before it is opened, and so is a name ending in `/`,
 * `/.` or `/..`, which names a directory) no larger than the limit; standard input is read up to
 * the limit and refused past it, and refused when it is a directory (`io.stdinStat`). Never
 * reads without bound.
 */
export function readBounded(io: InputSource, input: string, opts: BoundedOptions = {}): ResultAsync<Uint8Array, InputRefusal> {
  const limit = opts.maxBytes ?? DEFAULT_MAX_INPUT_BYTES;
  const name = input === "-" ? "standard input" : input;
  const run = (): Promise<Uint8Array | InputRefusal> =>
    input === "-"
      ? Promise.resolve().then(() => readStdin(io, limit, opts.option))
      : Promise.resolve().then(() => readNamed(opts.fs ?? nodeFs, io.cwd, input, limit, opts.option));
  return ResultAsync.fromPromise(run(), (e): InputRefusal => ({ kind: "unreadable", name, reason: unreadable(input, e) })).andThen((got) =>
    got instanceof Uint8Array ? okAsync(got) : errAsync(got),
  );
}
