import type { CliIo, CliWriter } from "./io.js";

/** The parts of Node's `process` the bin wires up. */
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
 * Real io for the bin, sealed: a stdout error (EPIPE or any other) and any uncaught exception
 * or rejection make the exit code 2, which nothing later lowers.
 */
export function processIo(proc: ProcessLike): { readonly io: CliIo; finish(code: number): void } {
  let sealed = false;
  const seal = (): void => {
    sealed = true;
    proc.exitCode = 2;
  };
  proc.stdout.on("error", seal);
  const crash = (reason: unknown): void => {
    seal();
    proc.stderr.write(`decay-evidence: internal error: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}\n`);
  };
  proc.on("uncaughtException", crash);
  proc.on("unhandledRejection", crash);
  const io: CliIo = { stdin: proc.stdin, stdout: writerOf(proc.stdout), stderr: writerOf(proc.stderr), env: proc.env, cwd: proc.cwd() };
  return { io, finish: (code) => void (proc.exitCode = sealed ? 2 : code) };
}
