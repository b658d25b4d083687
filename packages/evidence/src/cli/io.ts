import { bestEffort, inputName, readArgument, reasonOf, writeText, type CliWriter, type StdStreams } from "@decay/cli-kit";
import { errAsync, okAsync, ResultAsync } from "neverthrow";
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
}

/** Writes to a stream; any failure becomes a value. */
export function emit(w: CliWriter, text: string): ResultAsync<void, CliFault> {
  return writeText(w, text, (reason): CliFault => ({ code: "stdout-write-failed", reason }));
}

/** Reads a UTF-8 text file (resolved against cwd) or, for `-`, standard input. */
export function readText(io: CliIo, input: string): ResultAsync<string, CliFault> {
  const path = inputName(input);
  return ResultAsync.fromPromise(readArgument(io, input), (e): CliFault => ({
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
