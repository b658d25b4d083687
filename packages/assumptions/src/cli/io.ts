import { randomBytes } from "node:crypto";
import { closeSync, fsyncSync, openSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { bestEffort, inputName, readArgument, reasonOf, writeText, type CliWriter, type StdStreams } from "@decay/cli-kit";
import { errAsync, okAsync, ResultAsync } from "neverthrow";
import type { TreeReader } from "../tree.js";
import type { CliFault } from "./faults.js";

export { bestEffort };
export type { CliWriter };

/** Everything `main` touches outside itself: passed in, so tests and embedders supply their own. */
export interface CliIo extends StdStreams {
  /**
   * Optional: the tree `--root` (as given) and `--ref` name, for embedders checking a tree of
   * their own (memfs, a fault-injecting wrapper). Default: node:fs at the root, or git for `--ref`.
   */
  readonly openTree?: (root: string, ref: string | undefined) => TreeReader;
}

/** Writes to a stream; any failure (EPIPE or other) becomes a value. */
export function emit(w: CliWriter, text: string): ResultAsync<void, CliFault> {
  return writeText(w, text, (reason): CliFault => ({ code: "stdout-write-failed", reason }));
}

/** Reads the assumptions bytes from a file (resolved against cwd) or, for `-`, standard input. */
export function readInput(io: CliIo, input: string): ResultAsync<Uint8Array, CliFault> {
  return ResultAsync.fromPromise(readArgument(io, input), (e): CliFault => ({
    code: "input-unreadable",
    path: inputName(input),
    reason: reasonOf(e),
  }));
}

/** Confirms `--root` names a directory before any tree is read (synchronously, as the tree is read). */
export function checkRoot(io: CliIo, root: string): ResultAsync<string, CliFault> {
  const abs = resolve(io.cwd, root);
  return ResultAsync.fromPromise(Promise.resolve().then(() => statSync(abs)), (e): CliFault => ({ code: "root-unusable", root, reason: reasonOf(e) })).andThen(
    (s) => (s.isDirectory() ? okAsync(abs) : errAsync<string, CliFault>({ code: "root-unusable", root, reason: "not a directory" })),
  );
}

// Synchronous, like every other file call of the CLI: loading node:fs/promises for this one
// write cost every run (a check never writes a file) several milliseconds.
async function writeThenRename(target: string, text: string): Promise<void> {
  const temp = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString("hex")}.tmp`);
  const fd = openSync(temp, "wx", 0o644);
  try {
    try {
      writeFileSync(fd, text, "utf8");
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, target);
  } catch (e) {
    try {
      unlinkSync(temp);
    } catch {
      // The temp file is already gone; the write's own error is the one to report.
    }
    throw e;
  }
}

/** Writes a file atomically (a temp file beside it, fsynced, renamed over): all or nothing. */
export function writeAtomic(io: CliIo, path: string, text: string): ResultAsync<void, CliFault> {
  return ResultAsync.fromPromise(writeThenRename(resolve(io.cwd, path), text), (e): CliFault => ({
    code: "output-unwritable",
    path,
    reason: reasonOf(e),
  }));
}
