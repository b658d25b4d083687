import { readUpTo } from "@decay/portable";
import { err, ok, type Result } from "neverthrow";
import type { TreeError } from "../tree.js";
import { attempt, type TreeFs, fromErrno, statKind } from "./fs-calls.js";
import { errorCode, treeError } from "./tree-error.js";

/** One read: the file's absolute path, its tree path (named in failures) and the size bound. */
export interface Where {
  readonly abs: string;
  readonly path: string;
  readonly maxBytes: number;
}

/** Verifies an open descriptor by fstat (a regular file within bounds) and reads it bounded. */
function readOpened(fs: TreeFs, fd: number, at: Where): Result<Uint8Array, TreeError> {
  const { path, maxBytes } = at;
  const stat = fs.fstatSync(fd);
  const kind = statKind(stat);
  if (kind !== undefined) return err(treeError("tree-not-a-file", path, kind));
  const tooLarge = () => err(treeError("tree-too-large", path, `${maxBytes} bytes`));
  const size = Number(stat.size);
  if (size > maxBytes) return tooLarge();
  const bytes = readUpTo((buffer, offset, length, position) => fs.readSync(fd, buffer, offset, length, position), size, maxBytes + 1);
  return bytes.length > maxBytes ? tooLarge() : ok(bytes);
}

/**
 * Why an open was refused. `O_NOFOLLOW` makes a final link fail (ELOOP), a socket cannot be
 * opened (ENXIO), memfs refuses a directory (EISDIR): lstat names what is there; anything
 * else, or an lstat that finds a regular file after all, stays the open's own error.
 */
function openRefused(fs: TreeFs, abs: string, path: string, e: unknown): TreeError {
  const code = errorCode(e);
  if (code === "ELOOP" || code === "ENXIO" || code === "EISDIR") {
    const stat = attempt("read", path, () => fs.lstatSync(abs));
    const kind = stat.isOk() ? statKind(stat.value) : undefined;
    if (kind !== undefined) return treeError("tree-not-a-file", path, kind);
  }
  return fromErrno("read", path, e);
}

/**
 * One open without blocking (`O_NONBLOCK`: a FIFO never waits for a writer) and without
 * following a final link (`O_NOFOLLOW`), one fstat, one bounded read, one close.
 */
export function readFile(fs: TreeFs, at: Where): Result<Uint8Array, TreeError> {
  const { O_RDONLY, O_NONBLOCK, O_NOFOLLOW } = fs.constants;
  const { abs, path } = at;
  let fd: number;
  try {
    fd = fs.openSync(abs, O_RDONLY | O_NONBLOCK | O_NOFOLLOW);
  } catch (e) {
    return err(openRefused(fs, abs, path, e));
  }
  const read = attempt("read", path, () => readOpened(fs, fd, at)).andThen((r) => r);
  // Closed whatever the read did; a failed close is the answer only after a good read.
  const closed = attempt("read", path, () => fs.closeSync(fd));
  return read.andThen((bytes) => closed.map(() => bytes));
}
