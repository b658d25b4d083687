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
  once(event: "beforeExit", listener: () => void): unknown;
  exit(code?: number | string): unknown;
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
 *
 * When the event loop has drained (`beforeExit`: no write, timer or promise job is left, so
 * nothing can still arrive), the process exits at once with the code set, sparing Node's heap
 * teardown (docs/performance.md); a `beforeExit` listener added after this one never runs. A
 * run that drained without calling `finish` (a promise that never settled) is an internal
 * error, exit 2, never the 0 Node would give it.
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
  let finished = false;
  proc.once("beforeExit", () => {
    // The message may still be on its way (stderr is asynchronous on some platforms): Node then
    // exits by itself once it is written, with the code 2 that crash set.
    if (!finished) crash(new Error("the run ended without an answer"));
    else proc.exit(proc.exitCode);
  });
  const finish = (code: number): void => {
    finished = true;
    proc.exitCode = sealed ? 2 : code;
  };
  return { streams, finish };
}
