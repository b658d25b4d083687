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
