import type { StatLike } from "./input.js";
import { bestEffort, type CliWriter, reasonOf, type StdStreams } from "./streams.js";

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

// A chunk handed to a Node stream; the write's callback settles the promise.
function toStream(stream: NodeJS.WritableStream, chunk: string | Uint8Array): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    stream.write(chunk, (e?: Error | null) => (e ? reject(e) : resolve()));
  });
}

function writerOf(stream: NodeJS.WritableStream): CliWriter {
  return { write: (text) => toStream(stream, text) };
}

/** Node's `fs.writeSync(fd, buffer, offset)`: how many bytes of `buffer` from `offset` were written. */
export type WriteSync = (fd: number, buffer: Uint8Array, offset: number) => number;

/** How `sealedProcess` writes. */
export interface SealOptions {
  /**
   * `fs.writeSync`: stdout and stderr are then written by descriptor (1 and 2), synchronously
   * and whole, and Node's stream objects for them are made only if a write would block
   * (`EAGAIN`). Making a pipe's stream loads Node's `net` module, about 9 ms of a short run.
   */
  readonly writeSync?: WriteSync;
  /**
   * `fs.fstatSync`: standard input is then looked at (descriptor 0) before `-` is read, so a
   * directory given as standard input (`< dir`) is refused instead of read as empty.
   */
  readonly fstatSync?: (fd: number) => StatLike;
}

/**
 * Writes by descriptor, looping over short writes. A write that would block (a non-blocking
 * descriptor) hands what is left, and every later write, to the stream, so the order holds.
 * Any other failure is reported to `failed` and thrown.
 */
function descriptorWriter(fd: number, writeSync: WriteSync, stream: () => NodeJS.WritableStream, failed: () => void): CliWriter {
  let queued: NodeJS.WritableStream | undefined;
  return {
    write(text) {
      if (queued) return toStream(queued, text);
      const bytes = Buffer.from(text, "utf8");
      for (let done = 0; done < bytes.length; ) {
        try {
          done += writeSync(fd, bytes, done);
        } catch (e) {
          if (reasonOf(e) !== "EAGAIN") {
            failed();
            throw e;
          }
          queued = stream();
          return toStream(queued, bytes.subarray(done));
        }
      }
      return undefined;
    },
  };
}

/** A stream got only when first used, with its error listener added then, once. */
function onFirstUse(get: () => NodeJS.WritableStream, onError: () => void): () => NodeJS.WritableStream {
  let stream: NodeJS.WritableStream | undefined;
  return () => {
    if (stream === undefined) {
      stream = get();
      stream.on("error", onError);
    }
    return stream;
  };
}

/**
 * Real streams for a bin, sealed: a failed stdout write (EPIPE or any other, thrown by a
 * descriptor write or reported as the stream's 'error') and any uncaught exception or unhandled
 * rejection make the exit code 2, which `finish` never lowers. `label` prefixes the
 * internal-error line on stderr (the CLI's name). With `options.writeSync` the standard streams
 * are written by descriptor (see `SealOptions`); standard input is touched only when read.
 *
 * When the event loop has drained (`beforeExit`: no write, timer or promise job is left, so
 * nothing can still arrive), the process exits at once with the code set, sparing Node's heap
 * teardown (docs/performance.md); a `beforeExit` listener added after this one never runs. A
 * run that drained without calling `finish` (a promise that never settled) is an internal
 * error, exit 2, never the 0 Node would give it.
 */
export function sealedProcess(proc: ProcessLike, label: string, options: SealOptions = {}): { readonly streams: StdStreams; finish(code: number): void } {
  let sealed = false;
  const seal = (): void => {
    sealed = true;
    proc.exitCode = 2;
  };
  const { writeSync, fstatSync } = options;
  // A stdout error seals; a stderr error is ignored.
  const stdoutOf = onFirstUse(() => proc.stdout, seal);
  const stderrOf = onFirstUse(
    () => proc.stderr,
    () => undefined,
  );
  const stdout = writeSync ? descriptorWriter(1, writeSync, stdoutOf, seal) : writerOf(stdoutOf());
  const stderr = writeSync ? descriptorWriter(2, writeSync, stderrOf, () => undefined) : writerOf(stderrOf());
  const crash = (reason: unknown): void => {
    seal();
    void bestEffort(stderr, `${label}: internal error: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}\n`);
  };
  proc.on("uncaughtException", crash);
  proc.on("unhandledRejection", crash);
  const streams: StdStreams = {
    // Made only if a command reads standard input.
    get stdin() {
      return proc.stdin;
    },
    stdout,
    stderr,
    env: proc.env,
    cwd: proc.cwd(),
    ...(fstatSync === undefined ? {} : { stdinStat: () => fstatSync(0) }),
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
