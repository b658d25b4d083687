#!/usr/bin/env node
import { realpathSync } from "node:fs";
import { dirname } from "node:path";
import { startBundle } from "@decay/cli-kit/code-cache";

// The program is `gate.cjs`; the build leaves V8's code cache of it beside it (docs/performance.md).
try {
  // Beside the bin's real file, also when it was started through a link with --preserve-symlinks-main.
  const program = require.resolve("./gate.cjs", { paths: [dirname(realpathSync(__filename))] });
  startBundle(program, program.replace(/\.cjs$/, ".cache"));
} catch (e) {
  // Only a broken install gets here (the program seals its own faults): a fault, exit 2, never a verdict.
  process.stderr.write(`plan-decay: internal error: cannot start: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 2;
}
