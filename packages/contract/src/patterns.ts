// What an acceptance pattern may be. Patterns are compiled without flags, and `at least` counts
// matches in the whole output; a pattern whose meaning would differ from what its author meant is
// refused here, by the plan reader and the contract reader alike.
import type { PatternProblem } from "./fault.js";
import { regexCompiles } from "./text.js";

/** Whether a regex source holds `\p{` or `\P{` as an escape (not after an escaped backslash). */
function hasPropertyEscape(source: string): boolean {
  for (let i = 0; i < source.length; i++) {
    if (source[i] !== "\\") continue;
    const next = source[i + 1];
    if ((next === "p" || next === "P") && source[i + 2] === "{") return true;
    i++;
  }
  return false;
}

/**
 * Why `source` cannot be an acceptance pattern: it does not compile, it holds `\p{…}` or `\P{…}`
 * (a Unicode property only under the `u` flag), or, for an `at least` count, it matches the empty
 * string; null when it can.
 */
export function patternProblem(source: string, counted: boolean): PatternProblem | null {
  if (!regexCompiles(source)) return "bad-regex";
  if (hasPropertyEscape(source)) return "unicode-escape";
  if (counted && new RegExp(source).test("")) return "empty-match";
  return null;
}
