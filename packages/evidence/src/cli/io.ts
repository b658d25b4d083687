import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { errAsync, okAsync, ResultAsync } from "neverthrow";
import type { GithubTransportOptions } from "../transport/github-config.js";
import type { Transport } from "../transport/port.js";
import type { StoreFs } from "../store/port.js";
import type { CliFault } from "./fault.js";

/** A stream the CLI writes text to. A throw or a rejected promise means the write failed. */
export interface CliWriter {
  write(text: string): Promise<void> | void;
}

/** Everything `decayEvidenceMain` touches outside itself, passed in by the bin or a test. */
export interface CliIo {
  /** Standard input, read only when a record file is `-`. */
  readonly stdin: AsyncIterable<Uint8Array | string>;
  readonly stdout: CliWriter;
  readonly stderr: CliWriter;
  /** `HOME` (the default store home) and `GITHUB_TOKEN` are read from here. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Relative paths and the default `--repo` resolve against this. */
  readonly cwd: string;
  /** Optional: the transport `publish` uses (default: `githubTransport`). */
  readonly transport?: (opts: GithubTransportOptions) => Transport;
  /** Optional: the filesystem the store uses (default: node fs). */
  readonly fs?: StoreFs;
}

function reasonOf(e: unknown): string {
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code === "string") return code;
  return e instanceof Error ? e.message : String(e);
}

/** Writes to a stream; any failure becomes a value. */
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

/** Reads a UTF-8 text file (resolved against cwd) or, for `-`, standard input. */
export function readText(io: CliIo, input: string): ResultAsync<string, CliFault> {
  const path = input === "-" ? "standard input" : input;
  const read = input === "-" ? () => drain(io.stdin) : () => readFile(resolve(io.cwd, input));
  return ResultAsync.fromPromise(Promise.resolve().then(read), (e): CliFault => ({
    code: "input-unreadable",
    path,
    reason: reasonOf(e),
  })).andThen((bytes) => {
    try {
      return okAsync(new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes));
    } catch {
      return errAsync<string, CliFault>({ code: "input-not-utf8", path });
    }
  });
}
