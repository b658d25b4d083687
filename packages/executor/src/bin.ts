#!/usr/bin/env node
import { fstatSync, writeSync } from "node:fs";
import { sealedProcess } from "@decay/cli-kit";
import type { CliIo } from "./cli/io.js";
import { main } from "./cli/main.js";

// Ctrl-C parks a run: the signal reaches the adapters, which kill the command in flight (its whole
// process group); the run writes RESUME.md and main exits 1. The library installs no handler.
// SIGTERM (docker stop, a CI cancel, timeout) and SIGHUP (a closed terminal) park it the same way:
// left to their default, they ended decay at once and left the agent's group running, orphaned.
const controller = new AbortController();
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => controller.abort());
const { streams, finish } = sealedProcess(process, "decay", { writeSync, fstatSync });
const io: CliIo = {
  get stdin() {
    return streams.stdin;
  },
  ...(streams.stdinStat === undefined ? {} : { stdinStat: streams.stdinStat }),
  stdout: streams.stdout,
  stderr: streams.stderr,
  env: streams.env,
  cwd: streams.cwd,
  signal: controller.signal,
  live: process.stdout.isTTY ? process.stdout : undefined,
};
// main answers a thrown command itself; were it ever to reject, the seal reports that as an
// internal error (its unhandled-rejection handler), exit 2, never a silent one.
main(process.argv.slice(2), io).then(finish, (e: unknown) => {
  finish(2);
  throw e;
});
