import { bestEffort, readBounded, writeText, type CliWriter, type StdStreams } from "@decay/cli-kit";
import { errAsync, okAsync, type ResultAsync } from "neverthrow";
import { utf8WithoutBom } from "../store/envelope.js";
import type { GithubTransportOptions } from "../transport/github-config.js";
import type { Transport } from "../transport/port.js";
import type { StoreFs } from "../store/port.js";
import type { CliFault } from "./fault.js";

export { bestEffort };
export type { CliWriter };

/** Everything `decayEvidenceMain` touches outside itself, passed in by the bin or a test. */
export interface CliIo extends StdStreams {
  // `env` supplies HOME (the default store home) and GITHUB_TOKEN; `cwd` resolves relative
  // paths and the default `--repo`; stdin is read only when a record file is `-`.
  /** Optional: the transport `publish` uses (default: `githubTransport`). */
  readonly transport?: (opts: GithubTransportOptions) => Transport;
  /** Optional: the filesystem the store uses (default: node fs). */
  readonly fs?: StoreFs;
  /**
   * Optional: how the operator interrupts (the bin: Ctrl-C, SIGINT). `publish` calls it with
   * `stop` while it talks to the forge and calls the function it returns when done; after the
   * first interrupt it stops sending, saves what it knows and ends as usual.
   */
  readonly onInterrupt?: (stop: () => void) => () => void;
}

/** Writes to a stream; any failure becomes a value. */
export function emit(w: CliWriter, text: string): ResultAsync<void, CliFault> {
  return writeText(w, text, (reason): CliFault => ({ code: "stdout-write-failed", reason }));
}

/** How a message names an input: `standard input` for `-`, else the name as given. */
export function inputName(input: string): string {
  return input === "-" ? "standard input" : input;
}

/**
 * Reads a UTF-8 text file (resolved against cwd) or, for `-`, standard input, through the shared
 * bounded reader (a FIFO, device or socket is refused before it is opened; nothing past
 * `maxBytes`). A file that is not UTF-8, or that starts with a byte order mark, is refused as
 * the envelope reader and the reference refuse it.
 */
export function readText(io: CliIo, input: string, maxBytes?: number): ResultAsync<string, CliFault> {
  const opts = { option: "--max-input-bytes", ...(maxBytes === undefined ? {} : { maxBytes }) };
  return readBounded(io, input, opts)
    .mapErr((r): CliFault => ({ code: "input-unreadable", path: r.name, reason: r.reason }))
    .andThen((bytes) => {
      const path = inputName(input);
      const text = utf8WithoutBom(bytes);
      if (text.isOk()) return okAsync(text.value);
      return errAsync<string, CliFault>({ code: text.error === "bom" ? "input-has-bom" : "input-not-utf8", path });
    });
}
