import { randomBytes } from "node:crypto";
import { open, readFile, rename, stat, unlink } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { errAsync, okAsync, ResultAsync } from "neverthrow";
import type { TreeReader } from "../tree.js";
import type { CliFault } from "./faults.js";

/** A stream the CLI writes text to. A throw or a rejected promise means the write failed. */
export interface CliWriter {
  write(text: string): Promise<void> | void;
}

/** Everything `main` touches outside itself: passed in, so tests and embedders supply their own. */
export interface CliIo {
  /** Standard input as a byte source (read only when the assumptions file is `-`). */
  readonly stdin: AsyncIterable<Uint8Array | string>;
  readonly stdout: CliWriter;
  readonly stderr: CliWriter;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The directory relative paths (`--root`, FILE, `-o`) are resolved against. */
  readonly cwd: string;
  /**
   * Optional: the tree `--root` (as given) and `--ref` name, for embedders checking a tree of
   * their own (memfs, a fault-injecting wrapper). Default: node:fs at the root, or git for `--ref`.
   */
  readonly openTree?: (root: string, ref: string | undefined) => TreeReader;
}

function reasonOf(e: unknown): string {
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code === "string") return code;
  return e instanceof Error ? e.message : String(e);
}

/** Writes to a stream; any failure (EPIPE or other) becomes a value. */
export function emit(w: CliWriter, text: string): ResultAsync<void, CliFault> {
  return ResultAsync.fromPromise(
    Promise.resolve().then(() => w.write(text)),
    (e): CliFault => ({ code: "stdout-write-failed", reason: reasonOf(e) }),
  );
}

/** Writes to stderr, ignoring failure: nothing is left to tell if stderr itself is gone. */
export async function bestEffort(w: CliWriter, text: string): Promise<void> {
  await emit(w, text).match(
    () => undefined,
    () => undefined,
  );
}

async function drain(source: AsyncIterable<Uint8Array | string>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of source) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}

/** Reads the assumptions bytes from a file (resolved against cwd) or, for `-`, standard input. */
export function readInput(io: CliIo, input: string): ResultAsync<Uint8Array, CliFault> {
  const path = input === "-" ? "standard input" : input;
  const read = input === "-" ? () => drain(io.stdin) : () => readFile(resolve(io.cwd, input));
  return ResultAsync.fromPromise(Promise.resolve().then(read), (e): CliFault => ({
    code: "input-unreadable",
    path,
    reason: reasonOf(e),
  }));
}

/** Confirms `--root` names a directory before any tree is read. */
export function checkRoot(io: CliIo, root: string): ResultAsync<string, CliFault> {
  const abs = resolve(io.cwd, root);
  return ResultAsync.fromPromise(stat(abs), (e): CliFault => ({ code: "root-unusable", root, reason: reasonOf(e) })).andThen(
    (s) => (s.isDirectory() ? okAsync(abs) : errAsync<string, CliFault>({ code: "root-unusable", root, reason: "not a directory" })),
  );
}

async function writeThenRename(target: string, text: string): Promise<void> {
  const temp = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString("hex")}.tmp`);
  const handle = await open(temp, "wx", 0o644);
  try {
    try {
      await handle.writeFile(text, "utf8");
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, target);
  } catch (e) {
    await unlink(temp).catch(() => undefined);
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
