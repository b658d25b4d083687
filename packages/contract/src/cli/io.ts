import type { StatLike } from "@decay/cli-kit";

/** What the CLI touches: output streams, the working directory and the environment. */
export type CliIo = {
  /** Write text to stdout; rejects when the write fails. */
  stdout: (text: string) => Promise<void>;
  /** Write text to stderr; rejects when the write fails. */
  stderr: (text: string) => Promise<void>;
  cwd: string;
  /** Standard input, read only for the file `-` (bounded like every input). */
  stdin?: AsyncIterable<Uint8Array | string>;
  /** What standard input is (`fstat` of descriptor 0), so a directory there is refused (see `InputSource`). */
  stdinStat?: () => StatLike;
  env: Record<string, string | undefined>;
};
