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
 * Where the assertions of a pattern are read: `hold`, each may hold (`^`, `$` and `\B` hold at the
 * one position of the empty string already; `\b` and each lookaround `A` become `(?:A|)`);
 * `start`, as at the start of any text (`^` holds, `(?<!A)` may; `$`, `\b`, `\B` and the other
 * lookarounds never do); `end`, as at its end (`$` holds, `(?!A)` may; the rest never do).
 */
type AssertionsAt = "hold" | "start" | "end";

/**
 * The source with its assertions read as `at` says: one that holds becomes nothing (`^`, `$`) or
 * `(?:A|)`, one that never does `(?!)` (a lookaround `(?:(?!)A)`, so a quantifier after it still
 * applies to the whole). Character classes, escapes and groups are copied, so group numbers (and
 * backreferences) keep their meaning. The result matches the empty string exactly when some path
 * through the pattern consumes nothing with its assertions so read.
 */
function withAssertions(source: string, at: AssertionsAt): string {
  const hold = at === "hold";
  let out = "";
  const looks: ("may" | "never" | null)[] = [];
  for (let i = 0; i < source.length; i++) {
    const c = source[i] as string;
    if (c === "\\") {
      const next = source[i + 1] ?? "";
      if (next === "b") out += hold ? "(?:\\b|)" : NEVER;
      else if (next === "B") out += hold ? "\\B" : NEVER;
      else out += `\\${next}`;
      i++;
    } else if (c === "[") {
      // A class runs to its first unescaped `]` (`[]` is the empty class); `\b` in it is a backspace.
      let j = i + 1;
      while (j < source.length && source[j] !== "]") j += source[j] === "\\" ? 2 : 1;
      out += source.slice(i, j + 1);
      i = j;
    } else if (c === "(") {
      const look = LOOKAROUND.find((l) => source.startsWith(l, i));
      const may = hold || (at === "start" && look === "(?<!") || (at === "end" && look === "(?!");
      looks.push(look === undefined ? null : may ? "may" : "never");
      out += look === undefined ? "(" : may ? "(?:(" : `(?:${NEVER}(`;
    } else if (c === ")") {
      const look = looks.pop();
      out += look === "may" ? ")|)" : look === "never" ? "))" : ")";
    } else if (c === "^" || c === "$") {
      // `^` holds at the start of every text, `$` at its end.
      if (hold) out += c;
      else out += (c === "^") === (at === "start") ? "" : NEVER;
    } else out += c;
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
  const relaxed = withAssertions(source, "hold");
  // The rewrite keeps a source that compiles compiling; if it ever did not, refusing is the safe answer.
  return !regexCompiles(relaxed) || new RegExp(relaxed).test("");
}

/**
 * Whether a pattern matches every text: some path through it consumes nothing and needs only
 * assertions that hold at the start of any text (`x?`, `(?:)`, `^`, `(?<!x)`) or at its end (`$`,
 * `(?!x)`), so it matches any output. `^$`, `\bok` or `^(?![\s\S]*ERROR)` ask something and are
 * not such patterns. (Assertions that hold everywhere only together, `\b|\B`, are not seen.)
 */
function matchesAnything(source: string): boolean {
  return (["start", "end"] as const).some((at) => {
    const rewritten = withAssertions(source, at);
    return regexCompiles(rewritten) && new RegExp(rewritten).test("");
  });
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
