// What an acceptance pattern may be. Patterns are compiled without flags, and `at least` counts
// matches in the whole output; a pattern whose meaning would differ from what its author meant is
// refused here, by the plan reader and the contract reader alike.
import type { PatternProblem } from "./fault.js";
import { regexCompiles } from "./text.js";

/**
 * Whether a regex source holds `\p{`, `\P{` or `\u{` as an escape (not after an escaped backslash):
 * a Unicode property or a code point under the `u` flag; without it the text `p{…}`, and `\u{41}` the
 * letter u 41 times.
 */
function hasUnicodeOnlyEscape(source: string): boolean {
  for (let i = 0; i < source.length; i++) {
    if (source[i] !== "\\") continue;
    const next = source[i + 1];
    if ((next === "p" || next === "P" || next === "u") && source[i + 2] === "{") return true;
    i++;
  }
  return false;
}

const LOOKAROUND = ["(?=", "(?!", "(?<=", "(?<!"];

const NEVER = "(?!)";

/**
 * The source with every assertion made one that always holds (`hold`) or one that never does.
 * Holding: `\b` and each lookahead or lookbehind `A` become `(?:A|)`; `^`, `$` and `\B` hold at
 * the one position of the empty string already. Failing: each becomes or is preceded by `(?!)`.
 * Character classes, escapes and groups are copied, so group numbers (and backreferences) keep
 * their meaning. Holding, the result matches the empty string exactly when some path through the
 * pattern consumes nothing, whatever its assertions would say; failing, when some path consumes
 * nothing and needs no assertion, so it matches at the start of any text.
 */
function withAssertions(source: string, hold: boolean): string {
  let out = "";
  const looks: boolean[] = [];
  for (let i = 0; i < source.length; i++) {
    const c = source[i] as string;
    if (c === "\\") {
      const next = source[i + 1] ?? "";
      if (next === "b" || next === "B") out += hold ? (next === "b" ? "(?:\\b|)" : "\\B") : NEVER;
      else out += `\\${next}`;
      i++;
    } else if (c === "[") {
      // A class runs to its first unescaped `]` (`[]` is the empty class); `\b` in it is a backspace.
      let j = i + 1;
      while (j < source.length && source[j] !== "]") j += source[j] === "\\" ? 2 : 1;
      out += source.slice(i, j + 1);
      i = j;
    } else if (c === "(") {
      const look = LOOKAROUND.some((l) => source.startsWith(l, i));
      looks.push(look);
      out += !look ? "(" : hold ? "(?:(" : `${NEVER}(`;
    } else if (c === ")") out += looks.pop() && hold ? ")|)" : ")";
    else out += !hold && (c === "^" || c === "$") ? NEVER : c;
  }
  return out;
}

/**
 * Whether a pattern can match the empty string at some position of some text: `x*`, but also `\b`,
 * `(?=a)` or `(?<=x)`, which match nothing at an empty output and an empty string inside another.
 * A pattern is taken to match empty when a path through it consumes nothing with every assertion
 * holding: this may refuse a pattern whose assertions never hold together (`(?=a)(?!a)`), never
 * accept one that matches empty anywhere.
 */
function canMatchEmpty(source: string): boolean {
  const relaxed = withAssertions(source, true);
  // The rewrite keeps a source that compiles compiling; if it ever did not, refusing is the safe answer.
  return !regexCompiles(relaxed) || new RegExp(relaxed).test("");
}

/**
 * Whether a pattern matches every text: some path through it consumes nothing and needs no
 * assertion (`x?`, `(?:)`, `a*`), so it matches at the start of any output. `^$`, `\b` or `(?=a)`
 * alone match only some outputs and are not such patterns.
 */
function matchesAnything(source: string): boolean {
  const strict = withAssertions(source, false);
  return regexCompiles(strict) && new RegExp(strict).test("");
}

/**
 * Why `source` cannot be an acceptance pattern: it does not compile, it holds `\p{…}`, `\P{…}` or
 * `\u{…}` (a Unicode property or code point only under the `u` flag), for an `at least` count it
 * can match the empty string at some position (`canMatchEmpty`), so a count would count
 * positions, and for `matches` it matches every output (`matchesAnything`), so it checks nothing;
 * null when it can.
 */
export function patternProblem(source: string, counted: boolean): PatternProblem | null {
  if (!regexCompiles(source)) return "bad-regex";
  if (hasUnicodeOnlyEscape(source)) return "unicode-escape";
  if (counted && canMatchEmpty(source)) return "empty-match";
  if (!counted && matchesAnything(source)) return "matches-anything";
  return null;
}
