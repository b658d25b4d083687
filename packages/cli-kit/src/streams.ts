import { errnoSentence, thrownCode } from "@decay/portable";
import { ResultAsync } from "neverthrow";
import type { StatLike } from "./input.js";

/** A stream a CLI writes text to. A throw or a rejected promise means the write failed. */
export interface CliWriter {
  write(text: string): Promise<void> | void;
}

/** The standard streams, environment and working directory a CLI's `main` is handed. */
export interface StdStreams {
  /** Standard input as a byte source; read only when a command asks for `-`. */
  readonly stdin: AsyncIterable<Uint8Array | string>;
  /** What standard input is (`fstat` of descriptor 0), when it is a descriptor: see `InputSource`. */
  readonly stdinStat?: () => StatLike;
  readonly stdout: CliWriter;
  readonly stderr: CliWriter;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The directory relative paths are resolved against. */
  readonly cwd: string;
}

/** The errno code of a Node error (`EPIPE`, `ENOENT`, …), else its message. */
export function reasonOf(e: unknown): string {
  const code = thrownCode(e);
  if (typeof code === "string") return code;
  return e instanceof Error ? e.message : String(e);
}

/** Why a file could not be read or written, in words (`no such file or directory`): `reasonOf` through the one errno table. */
export function reasonInWords(e: unknown): string {
  return errnoSentence(reasonOf(e));
}

/** Writes to a stream; any failure (EPIPE or other, thrown or rejected) becomes the caller's fault value. */
export function writeText<F>(w: CliWriter, text: string, fault: (reason: string) => F): ResultAsync<void, F> {
  return ResultAsync.fromPromise(
    Promise.resolve().then(() => w.write(text)),
    (e) => fault(reasonOf(e)),
  );
}

/** Writes to a stream and ignores failure: used for stderr, where nothing is left to tell. */
export async function bestEffort(w: CliWriter, text: string): Promise<void> {
  try {
    await w.write(text);
  } catch {
    // stderr itself is gone; the exit code still carries the outcome.
  }
}

/** The name a command-line input is reported by: the path as given, or `standard input` for `-`. */
export function inputName(input: string): string {
  return input === "-" ? "standard input" : input;
}
