// A PatternMatcher that stops a regular expression at a time bound: the match runs in a vm
// context whose script V8 terminates at the timeout, backtracking included.
import { thrownCode } from "@decay/portable";
import { createContext, Script } from "node:vm";
import type { PatternMatcher } from "../ports.js";
import { countMatches } from "../run/patterns.js";

/** Options of `nodePatterns`. */
export interface NodePatternsOptions {
  /** Milliseconds one match may take before it is stopped (default 10000). */
  readonly timeoutMs?: number;
  /**
   * Let Ctrl-C (SIGINT) stop a match at once, answered as `PatternInterrupted` (default `false`).
   * While a match runs, V8 takes SIGINT and holds back the process's own SIGINT listeners; when it
   * stops a match for one, the signal is handed on: to those listeners, called then, or, with none,
   * raised again so the process ends as Ctrl-C would have ended it. Off, a Ctrl-C waits for the
   * match (at most `timeoutMs`).
   */
  readonly breakOnSigint?: boolean;
}

/** The bound `nodePatterns` and `decay` put on one match. */
export const DEFAULT_PATTERN_TIMEOUT_MS = 10_000;

/** The whole script: it reads its inputs from the context's globals, never from code built out of them. */
const SCRIPT = new Script("count(job.pattern, job.text, job.min)", { filename: "decay-pattern.vm" });

// The SIGINT V8 took to stop a match, handed on as if it had arrived just after the match.
function handOnSigint(): void {
  if (process.listenerCount("SIGINT") > 0) process.emit("SIGINT", "SIGINT");
  else process.kill(process.pid, "SIGINT");
}

/**
 * A `PatternMatcher` that runs each match in one reused `vm` context with a timeout: a match that
 * runs longer is stopped and answered as a `PatternTimeout` naming the bound; with `breakOnSigint`,
 * a Ctrl-C stops it too (`PatternInterrupted`). The calling thread waits for the match (at most the
 * bound). Anything else thrown is rethrown: it is a bug.
 */
export function nodePatterns(options: NodePatternsOptions = {}): PatternMatcher {
  const timeoutMs = options.timeoutMs ?? DEFAULT_PATTERN_TIMEOUT_MS;
  if (!Number.isSafeInteger(timeoutMs) || timeoutMs < 1) throw new RangeError(`nodePatterns: timeoutMs must be a positive integer, not ${timeoutMs}`);
  const breakOnSigint = options.breakOnSigint === true;
  const context = createContext({ count: countMatches, job: null });
  return {
    atLeast: (pattern, text, min) => {
      context.job = { pattern, text, min };
      try {
        return (SCRIPT.runInContext(context, { timeout: timeoutMs, breakOnSigint }) as number) >= min;
      } catch (e) {
        if (thrownCode(e) === "ERR_SCRIPT_EXECUTION_TIMEOUT") return { timeoutMs };
        if (breakOnSigint && thrownCode(e) === "ERR_SCRIPT_EXECUTION_INTERRUPTED") {
          handOnSigint();
          return { interrupted: true };
        }
        throw e;
      } finally {
        context.job = null;
      }
    },
  };
}
