// The runtime-neutral `PatternMatcher`: the regular expression run directly, with no time bound.
import type { PatternMatcher } from "../ports.js";

/**
 * Matches of `pattern` in `text` as a global `exec` loop finds them (an empty match steps one
 * position on), counting no further than `limit`.
 */
export function countMatches(pattern: string, text: string, limit: number): number {
  const re = new RegExp(pattern, "g");
  let n = 0;
  while (n < limit) {
    const m = re.exec(text);
    if (m === null) break;
    n += 1;
    if (m[0] === "") re.lastIndex += 1;
  }
  return n;
}

/**
 * The default `PatternMatcher`: runs the regular expression on the calling thread with no time
 * bound, so a pattern that backtracks catastrophically holds the run until it ends. In Node, pass
 * `nodePatterns()` (`@decay/executor/node`), which stops a match at a time bound.
 */
export function directPatterns(): PatternMatcher {
  return { atLeast: (pattern, text, min) => countMatches(pattern, text, min) >= min };
}
