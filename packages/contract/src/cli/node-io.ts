import { fstatSync, writeSync } from "node:fs";
import { sealedProcess } from "@decay/cli-kit";
import type { CliIo } from "./io.js";

/**
 * The CLI's io bound to this process, inside the shared seal: a failed stdout write, an
 * uncaught exception or an unhandled rejection makes the exit code 2 whatever `main` returns.
 */
export function processIo(): { readonly io: CliIo; finish(code: number): void } {
  const { streams, finish } = sealedProcess(process, "decay-contract", { writeSync, fstatSync });
  const io: CliIo = {
    stdout: async (text) => streams.stdout.write(text),
    stderr: async (text) => streams.stderr.write(text),
    cwd: streams.cwd,
    get stdin() {
      return streams.stdin;
    },
    env: { ...streams.env },
    ...(streams.stdinStat === undefined ? {} : { stdinStat: streams.stdinStat }),
  };
  return { io, finish };
}
