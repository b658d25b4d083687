import { statSync } from "node:fs";
import { resolve } from "node:path";
import { bestEffort, readBounded, reasonInWords, writeOutput, writeText, type CliWriter, type StdStreams } from "@decay/cli-kit";
import { errAsync, okAsync, ResultAsync } from "neverthrow";
import type { TreeReader } from "../tree.js";
import type { CliFault, PlanFile } from "./faults.js";

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

/**
 * Reads the assumptions bytes from a file (resolved against cwd) or, for `-`, standard input,
 * bounded by `maxBytes` (a FIFO, device or socket is refused before it is opened).
 */
export function readInput(io: CliIo, input: string, maxBytes?: number): ResultAsync<Uint8Array, CliFault> {
  const opts = maxBytes === undefined ? { option: "--max-input-bytes" } : { option: "--max-input-bytes", maxBytes };
  return readBounded(io, input, opts).mapErr((r): CliFault => ({ code: "input-unreadable", path: r.name, reason: r.reason }));
}

/** Confirms `--root` names a directory before any tree is read (synchronously, as the tree is read). */
export function checkRoot(io: CliIo, root: string): ResultAsync<string, CliFault> {
  const abs = resolve(io.cwd, root);
  return ResultAsync.fromPromise(
    Promise.resolve().then(() => statSync(abs)),
    (e): CliFault => ({ code: "root-unusable", root, reason: reasonInWords(e) }),
  ).andThen((s) => (s.isDirectory() ? okAsync(abs) : errAsync<string, CliFault>({ code: "root-unusable", root, reason: "not a directory" })));
}

/**
 * Writes `-o` output through the shared helper: `-` is stdout; a file is written atomically and
 * only over a regular file (all or nothing), and never over one of `plan`, the files the plan
 * names (the same path, or the same file through a link): `output-is-input` for one this run
 * read from disk, `output-in-plan` for a create or a file read from `--ref`.
 */
export function writeAtomic(io: CliIo, path: string, text: string, plan: readonly PlanFile[] = []): ResultAsync<void, CliFault> {
  return writeOutput(io, path, text, { inputs: plan.map((f) => f.file) }).mapErr((r): CliFault => {
    if (r.kind === "stdout") return { code: "stdout-write-failed", reason: r.reason };
    const named = r.kind === "same-as-input" ? plan.find((f) => f.file === r.input) : undefined;
    if (named === undefined) return { code: "output-unwritable", path, reason: r.reason };
    const read = named.option !== "--creates" && named.ref === undefined;
    return { code: read ? "output-is-input" : "output-in-plan", path, ...named };
  });
}
