// fast-check generators for regex sources, shared by the pattern rules' property tests (never exported by the package).
import fc from "fast-check";

/** Pieces that consume a character, assertions and zero-width groups (a capture, a backreference). */
export const piece = fc.constantFrom("a", "b", ".", "[ab]", "\\b", "\\B", "^", "$", "(?=a)", "(?!a)", "(?<=a)", "(?<!b)", "\\1", "[\\b]", "\\n", "x{0}");
/** A quantifier, often none. */
export const quantifier = fc.constantFrom("", "", "", "*", "+", "?", "*?", "{0,2}", "{1,2}");
/** Whether a regex source compiles without flags. */
const compiles = (re: string): boolean => {
  try {
    new RegExp(re);
    return true;
  } catch {
    return false;
  }
};

/** Regex sources that compile, built from `pieces` by sequence, alternation and the groups `opens` (`(`, `(?=`, …). */
export function regexesOf(pieces: fc.Arbitrary<string>, opens: readonly string[]): fc.Arbitrary<string> {
  return fc
    .letrec<{ re: string }>((tie) => ({
      re: fc.oneof(
        { depthSize: "small", withCrossShrink: true },
        fc.tuple(pieces, quantifier).map(([p, q]) => p + q),
        fc.array(tie("re"), { minLength: 1, maxLength: 3 }).map((xs) => xs.join("")),
        fc.tuple(tie("re"), tie("re")).map(([a, b]) => `${a}|${b}`),
        fc.tuple(fc.constantFrom(...opens), tie("re"), quantifier).map(([open, re, q]) => `${open}${re})${open.startsWith("(?<") ? "" : q}`),
      ),
    }))
    .re.filter(compiles);
}

/** Regex sources that compile, built from `piece`s by sequence, alternation, groups and lookarounds. */
export const regexSource = regexesOf(piece, ["(", "(?:", "(?=", "(?!", "(?<=", "(?<!"]);
