import type { CliWriter, StdStreams } from "./streams.js";

/** The parts of Node's `process` a bin wires up (a narrow shape, so the seal stays testable). */
export interface ProcessLike {
  readonly stdin: AsyncIterable<Uint8Array | string>;
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  readonly env: Readonly<Record<string, string | undefined>>;
  cwd(): string;
  exitCode?: number | string | undefined;
  on(event: "uncaughtException" | "unhandledRejection", listener: (reason: unknown) => void): unknown;
}

function writerOf(stream: NodeJS.WritableStream): CliWriter {
  return {
    write: (text) =>
      new Promise<void>((resolve, reject) => {
        stream.write(text, (e?: Error | null) => (e ? reject(e) : resolve()));
      }),
  };
}

/**
 * Real streams for a bin, sealed: a stdout 'error' (EPIPE or any other) and any uncaught
 * exception or unhandled rejection make the exit code 2, which `finish` never lowers.
 * `label` prefixes the internal-error line on stderr (the CLI's name).
 */
export function sealedProcess(proc: ProcessLike, label: string): { readonly streams: StdStreams; finish(code: number): void } {
  let sealed = false;
  const seal = (): void => {
    sealed = true;
    proc.exitCode = 2;
  };
  proc.stdout.on("error", seal);
  proc.stderr.on("error", () => undefined);
  const crash = (reason: unknown): void => {
    seal();
    proc.stderr.write(`${label}: internal error: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}\n`);
  };
  proc.on("uncaughtException", crash);
  proc.on("unhandledRejection", crash);
  const streams: StdStreams = {
    stdin: proc.stdin,
    stdout: writerOf(proc.stdout),
    stderr: writerOf(proc.stderr),
    env: proc.env,
    cwd: proc.cwd(),
  };
  return { streams, finish: (code) => void (proc.exitCode = sealed ? 2 : code) };
}
