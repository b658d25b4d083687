import { statSync } from "node:fs";
import { reasonOf, type StdStreams } from "@decay/cli-kit";
import { directoryErrnoSentence } from "@decay/portable";
import { RUN_REPORT_SCHEMA_ID } from "../schema.js";

/** What `decay`'s main is handed: the standard streams, and what only a bin can give. */
export interface CliIo extends StdStreams {
  /** Aborted when the user interrupts (the bin aborts it on SIGINT): the run parks. */
  readonly signal?: AbortSignal;
  /** stdout when it is a terminal: the live view is drawn there (unless `CI` is set or `--json`). */
  readonly live?: NodeJS.WritableStream;
}

/** The `$schema` of the report `--json` prints last: the `$id` of schemas/run-report.schema.json. */
export const REPORT_SCHEMA = RUN_REPORT_SCHEMA_ID;

/** Write to stdout; a failure is the caller's fault value. */
export async function say(io: Pick<CliIo, "stdout">, text: string): Promise<string | null> {
  try {
    await io.stdout.write(text);
    return null;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

/** Why `dir` is no directory (`no such directory`, `it is not a directory`, as docs/cli.md words it), or null when it is one. */
export function notADirectory(dir: string): string | null {
  try {
    return statSync(dir).isDirectory() ? null : "it is not a directory";
  } catch (e) {
    return directoryErrnoSentence(reasonOf(e));
  }
}
