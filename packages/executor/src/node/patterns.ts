// A PatternMatcher that stops a regular expression at a time bound: the match runs in a vm
// context whose script V8 terminates at the timeout, backtracking included.
import { createContext, Script } from "node:vm";
import type { PatternMatcher } from "../ports.js";
import { countMatches } from "../run/patterns.js";

/** Options of `nodePatterns`. */
export interface NodePatternsOptions {
  /** Milliseconds one match may take before it is stopped (default 10000). */
  readonly timeoutMs?: number;
}

/** The bound `nodePatterns` and `decay` put on one match. */
export const DEFAULT_PATTERN_TIMEOUT_MS = 10_000;

/** The whole script: it reads its inputs from the context's globals, never from code built out of them. */
const SCRIPT = new Script("count(job.pattern, job.text, job.min)", { filename: "decay-pattern.vm" });

const timedOut = (e: unknown): boolean => (e as { code?: unknown } | null)?.code === "ERR_SCRIPT_EXECUTION_TIMEOUT";

/**
 * A `PatternMatcher` that runs each match in one reused `vm` context with a timeout: a match that
 * runs longer is stopped and answered as a `PatternTimeout` naming the bound. The calling thread
 * waits for the match (at most the bound). Anything but the timeout is rethrown: it is a bug.
 */
export function nodePatterns(options: NodePatternsOptions = {}): PatternMatcher {
  const timeoutMs = options.timeoutMs ?? DEFAULT_PATTERN_TIMEOUT_MS;
  if (!Number.isSafeInteger(timeoutMs) || timeoutMs < 1) throw new RangeError(`nodePatterns: timeoutMs must be a positive integer, not ${timeoutMs}`);
  const context = createContext({ count: countMatches, job: null });
  return {
    atLeast: (pattern, text, min) => {
      context.job = { pattern, text, min };
      try {
        return (SCRIPT.runInContext(context, { timeout: timeoutMs }) as number) >= min;
      } catch (e) {
        if (timedOut(e)) return { timeoutMs };
        throw e;
      } finally {
        context.job = null;
      }
    },
  };
}
