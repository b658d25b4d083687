#!/usr/bin/env node
import { startBundle } from "@decay/cli-kit/code-cache";

// The program is `gate.cjs`; the build leaves V8's code cache of it beside it (docs/performance.md).
try {
  const program = require.resolve("./gate.cjs");
  startBundle(program, program.replace(/\.cjs$/, ".cache"));
} catch (e) {
  // Only a broken install gets here (the program seals its own faults): a fault, exit 2, never a verdict.
  process.stderr.write(`plan-decay: internal error: cannot start: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 2;
}
