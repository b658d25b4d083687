import { fileURLToPath } from "node:url";
import type { TreeReader } from "../../src/tree.js";
import type { CliIo, CliWriter } from "../../src/cli/io.js";

/** The repository root, so tests name fixtures as a user at the top of the checkout would. */
export const REPO_ROOT = fileURLToPath(new URL("../../../../", import.meta.url));

/** How a test's stdout misbehaves: not at all, by throwing, or by rejecting later. */
export type StdoutMode = "ok" | "throws" | "rejects";

/** Options of `memoryIo`. */
export interface MemoryIoOptions {
  readonly stdin?: string | Uint8Array;
  readonly cwd?: string;
  readonly stdout?: StdoutMode;
  readonly openTree?: (root: string, ref: string | undefined) => TreeReader;
}

function epipe(): Error {
  return Object.assign(new Error("write EPIPE"), { code: "EPIPE" });
}

function collector(sink: string[], mode: StdoutMode): CliWriter {
  return {
    write: (text) => {
      if (mode === "throws") throw epipe();
      if (mode === "rejects") return Promise.reject(epipe());
      sink.push(text);
      return undefined;
    },
  };
}

/** An in-memory CliIo for tests that call `main` directly; read back what was written. */
export function memoryIo(opts: MemoryIoOptions = {}): { io: CliIo; stdout(): string; stderr(): string } {
  const out: string[] = [];
  const err: string[] = [];
  async function* stdin(): AsyncGenerator<Uint8Array | string> {
    if (opts.stdin !== undefined) yield opts.stdin;
  }
  const io: CliIo = {
    stdin: stdin(),
    stdout: collector(out, opts.stdout ?? "ok"),
    stderr: collector(err, "ok"),
    env: {},
    cwd: opts.cwd ?? REPO_ROOT,
    ...(opts.openTree === undefined ? {} : { openTree: opts.openTree }),
  };
  return { io, stdout: () => out.join(""), stderr: () => err.join("") };
}
