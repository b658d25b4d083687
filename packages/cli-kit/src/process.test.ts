import { EventEmitter } from "node:events";
import { Writable } from "node:stream";
import { describe, expect, test } from "vitest";
import { sealedProcess, type ProcessLike } from "./process.js";

function sink(fail: boolean): Writable & { text: string } {
  const w = new Writable({
    write(chunk: Buffer, _enc, done) {
      if (fail) return done(Object.assign(new Error("write EPIPE"), { code: "EPIPE" }));
      w.text += chunk.toString();
      return done();
    },
  }) as Writable & { text: string };
  w.text = "";
  return w;
}

function fakeProcess(failStdout = false) {
  const events = new EventEmitter();
  const exited: (number | string | undefined)[] = [];
  const proc = {
    stdin: (async function* (): AsyncGenerator<Uint8Array> {})(),
    stdout: sink(failStdout),
    stderr: sink(false),
    env: {},
    cwd: () => "/somewhere",
    exitCode: undefined as number | string | undefined,
    on: (event: "uncaughtException" | "unhandledRejection", listener: (reason: unknown) => void) => events.on(event, listener),
    once: (event: "beforeExit", listener: () => void) => events.once(event, listener),
    exit: (code?: number | string) => void exited.push(code),
  } satisfies ProcessLike;
  return { proc, events, exited };
}

describe("sealedProcess: the seal around the real process", () => {
  test("the code main returns becomes the exit code", async () => {
    const { proc } = fakeProcess();
    const { streams: io, finish } = sealedProcess(proc, "error");
    await io.stdout.write("PLAN HOLDS\n");
    finish(0);
    expect(proc.exitCode).toBe(0);
    expect(proc.stdout.text).toBe("PLAN HOLDS\n");
    expect(io.cwd).toBe("/somewhere");
  });

  test("a stdout error (EPIPE) rejects the write and makes the exit 2, whatever main returns", async () => {
    const { proc } = fakeProcess(true);
    const { streams: io, finish } = sealedProcess(proc, "error");
    await expect(io.stdout.write("HALT\n")).rejects.toMatchObject({ code: "EPIPE" });
    finish(1);
    expect(proc.exitCode).toBe(2);
  });

  test("an uncaught exception or rejection is exit 2 with a message, and stays 2", () => {
    for (const event of ["uncaughtException", "unhandledRejection"] as const) {
      const { proc, events } = fakeProcess();
      const { finish } = sealedProcess(proc, "error");
      events.emit(event, new Error("boom"));
      finish(0);
      expect(proc.exitCode).toBe(2);
      expect(proc.stderr.text).toMatch(/^error: internal error: Error: boom/);
    }
  });

  test("once the loop drains, the process exits at once with the code finish set", () => {
    for (const code of [0, 1, 3]) {
      const { proc, events, exited } = fakeProcess();
      const { finish } = sealedProcess(proc, "error");
      finish(code);
      events.emit("beforeExit");
      expect(exited).toEqual([code]);
      expect(proc.stderr.text).toBe("");
    }
  });

  test("a stdout that failed earlier still makes the drained exit 2, whatever finish was given", async () => {
    const { proc, events, exited } = fakeProcess(true);
    const { streams: io, finish } = sealedProcess(proc, "error");
    await expect(io.stdout.write("PLAN HOLDS\n")).rejects.toMatchObject({ code: "EPIPE" });
    finish(0);
    events.emit("beforeExit");
    expect(exited).toEqual([2]);
  });

  test("a run whose loop drained before finish was called (a promise that never settled) ends 2, not 0", () => {
    const { proc, events, exited } = fakeProcess();
    sealedProcess(proc, "plan-decay");
    events.emit("beforeExit");
    // Node exits by itself once the message is out, with the code the seal set.
    expect(exited).toEqual([]);
    expect(proc.exitCode).toBe(2);
    expect(proc.stderr.text).toMatch(/^plan-decay: internal error: Error: the run ended without an answer/);
  });
});

// A process whose streams must not be touched: reading any of them fails the test.
function streamlessProcess() {
  const { proc, events, exited } = fakeProcess();
  const touched: string[] = [];
  const guarded = Object.create(proc) as ProcessLike & { exitCode?: number | string };
  for (const name of ["stdin", "stdout", "stderr"] as const) {
    Object.defineProperty(guarded, name, {
      get() {
        touched.push(name);
        return proc[name];
      },
    });
  }
  Object.defineProperty(guarded, "exitCode", { get: () => proc.exitCode, set: (c) => (proc.exitCode = c) });
  return { proc: guarded, sinks: proc, events, exited, touched };
}

// A writeSync over in-memory descriptors that writes at most `step` bytes per call, and fails
// (with an errno code) once a descriptor has taken `failAfter` bytes.
function descriptors(step: number, failure?: { fd: number; after: number; code: string }) {
  const written = new Map<number, number[]>();
  const writeSync = (fd: number, buffer: Uint8Array, offset: number): number => {
    const out = written.get(fd) ?? [];
    written.set(fd, out);
    if (failure && failure.fd === fd && out.length >= failure.after) {
      throw Object.assign(new Error(`write ${failure.code}`), { code: failure.code });
    }
    const chunk = buffer.subarray(offset, Math.min(buffer.length, offset + step));
    out.push(...chunk);
    return chunk.length;
  };
  const text = (fd: number) => Buffer.from(written.get(fd) ?? []).toString("utf8");
  return { writeSync, text };
}

describe("sealedProcess writing by descriptor (writeSync given)", () => {
  test("writes every byte through short writes, and never makes a stream it does not need", async () => {
    const { proc, touched } = streamlessProcess();
    const fds = descriptors(3);
    const { streams: io, finish } = sealedProcess(proc, "error", { writeSync: fds.writeSync });
    await io.stdout.write("HOLD    line 2: exists \u00e9t\u00e9.md\n");
    await io.stderr.write("error: nothing\n");
    finish(0);
    expect(fds.text(1)).toBe("HOLD    line 2: exists \u00e9t\u00e9.md\n");
    expect(fds.text(2)).toBe("error: nothing\n");
    expect(proc.exitCode).toBe(0);
    expect(touched).toEqual([]);
  });

  test("a failed stdout write (EPIPE) throws and makes the exit 2, whatever main returns", async () => {
    const { proc, events, exited } = streamlessProcess();
    const fds = descriptors(4, { fd: 1, after: 4, code: "EPIPE" });
    const { streams: io, finish } = sealedProcess(proc, "error", { writeSync: fds.writeSync });
    await expect(Promise.resolve().then(() => io.stdout.write("PLAN HOLDS\n"))).rejects.toMatchObject({ code: "EPIPE" });
    finish(0);
    events.emit("beforeExit");
    expect(exited).toEqual([2]);
  });

  test("a write that would block (EAGAIN) hands the rest, and every later write, to the stream, in order", async () => {
    const { proc, sinks, touched } = streamlessProcess();
    const fds = descriptors(5, { fd: 1, after: 5, code: "EAGAIN" });
    const { streams: io, finish } = sealedProcess(proc, "error", { writeSync: fds.writeSync });
    await io.stdout.write("HOLD    line 1\n");
    await io.stdout.write("CHECKED 1\n");
    finish(0);
    expect(fds.text(1) + sinks.stdout.text).toBe("HOLD    line 1\nCHECKED 1\n");
    expect(fds.text(1)).toBe("HOLD ");
    expect(touched).toEqual(["stdout"]);
    expect(proc.exitCode).toBe(0);
  });

  test("an uncaught exception's message goes to stderr by descriptor, and the exit is 2", () => {
    const { proc, events, touched } = streamlessProcess();
    const fds = descriptors(64);
    const { finish } = sealedProcess(proc, "decay-x", { writeSync: fds.writeSync });
    events.emit("uncaughtException", new Error("boom"));
    finish(0);
    expect(fds.text(2)).toMatch(/^decay-x: internal error: Error: boom/);
    expect(proc.exitCode).toBe(2);
    expect(touched).toEqual([]);
  });

  test("standard input is made only when a command reads it", () => {
    const { proc, touched } = streamlessProcess();
    const { streams: io } = sealedProcess(proc, "error", { writeSync: descriptors(8).writeSync });
    expect(touched).toEqual([]);
    expect(io.stdin).toBeDefined();
    expect(touched).toEqual(["stdin"]);
  });
});
