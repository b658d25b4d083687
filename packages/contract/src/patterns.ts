// What an acceptance pattern may be. Patterns are compiled without flags, and `at least` counts
// matches in the whole output; a pattern whose meaning would differ from what its author meant is
// refused here, by the plan reader and the contract reader alike.
import type { PatternProblem } from "./fault.js";
import { aheadOrBehind, classEnd, type LookToken, type Reading, rewrite, type Token, tokenize } from "./regex-tokens.js";
import { matchesEmpty, regexCompiles } from "./text.js";

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

/** Every assertion taken as holding where it may: an edge holds, a lookaround may (its inside is tried, or skipped). */
const HOLD: Reading = { edge: () => true, look: () => "may" };

/**
 * Whether a pattern can match the empty string at some position of some text: `x*`, but also `\b`,
 * `(?=a)` or `(?<=x)`, which match nothing at an empty output and an empty string inside another.
 * A pattern is taken to match empty when a path through it consumes nothing with every assertion
 * holding: this may refuse a pattern whose assertions never hold together (`(?=a)(?!a)`), never
 * accept one that matches empty anywhere.
 */
function canMatchEmpty(tokens: readonly Token[]): boolean {
  const relaxed = rewrite(tokens, HOLD);
  // The rewrite keeps a source that compiles compiling; if it ever did not, refusing is the safe answer.
  return matchesEmpty(relaxed) !== false;
}

/** An end of a text, where a pattern that consumes nothing is read. */
type End = "start" | "end";

/**
 * What the assertions at an end of a text can see there besides lookarounds that look into it:
 * whether the text is empty, and whether its character at that end is a word character (`[A-Za-z0-9_]`,
 * what `\b` reads without flags). Every text is one of these three at each end.
 */
type Side = { empty: boolean; word: boolean };
const SIDES: readonly Side[] = [
  { empty: true, word: false },
  { empty: false, word: true },
  { empty: false, word: false },
];

/** The most lookarounds into the text told apart (2^4 readings per side, so a hostile pattern costs at most 96 runs); past them one is taken as never holding. */
const MAX_UNKNOWNS = 4;

/**
 * The assertions at `end` of a text whose end is `side`: `^` holds at the start, `$` at the end, both
 * at an empty text; `\b` holds where the character at that end is a word character, `\B` where it is
 * not. A lookaround that looks away from the text sees nothing and is kept as written (nothing it
 * holds can consume there). One that looks into it holds as `unknowns` says for its source
 * (`(?=a)` holds exactly when `(?!a)` does not); one not in `unknowns`, or a positive one holding a
 * capture in a pattern with a backreference (`backrefs`), is taken as never holding, since what it
 * would capture, and a backreference then match, is not known.
 */
function readingAt(end: End, side: Side, unknowns: ReadonlyMap<string, boolean>, backrefs: boolean): Reading {
  const into = end === "start" ? "ahead" : "behind";
  return {
    edge: (edge) => (edge === "\\b" ? side.word : edge === "\\B" ? !side.word : side.empty || (edge === "^") === (end === "start")),
    look: (token) => {
      if (aheadOrBehind(token.look) !== into) return "keep";
      const holds = unknowns.get(token.key);
      if (holds === undefined) return "never";
      if (token.look.endsWith("!")) return holds ? "never" : "may";
      return holds && !(backrefs && token.captures) ? "may" : "never";
    },
  };
}

/**
 * Whether a pattern matches the empty string at `end` of every text: it does so in each of the three
 * `SIDES`, with the lookarounds into the text holding in every combination, so an assertion or its
 * negation always holds (`\b|\B`, `(?=a)|(?!a)`). Each reading is run on the empty string, where
 * nothing is consumed and every backreference matches empty, as on a path that consumes nothing.
 */
function matchesEmptyAtEvery(tokens: readonly Token[], end: End): boolean {
  const into = end === "start" ? "ahead" : "behind";
  const looks = tokens.filter((t): t is LookToken => t.t === "open" && t.look !== null && aheadOrBehind(t.look) === into && t.within[into] === 0);
  const keys = [...new Set(looks.map((t) => t.key))].slice(0, MAX_UNKNOWNS);
  // What a lookaround captures matters only to a backreference (`\1`, `\k<n>`; an octal escape counts too).
  const backrefs = tokens.some((t) => t.t === "text" && /^\\[1-9k]/.test(t.s));
  // One taken as never holding (a positive one that captures, one past MAX_UNKNOWNS) is read soundly
  // only where it is not negated: under `(?!…)` or `(?<!…)`, never holding would make the negation hold.
  const inexact = (t: LookToken) => (backrefs && t.captures && !t.look.endsWith("!")) || !keys.includes(t.key);
  if (looks.some((t) => inexact(t) && t.within.negative > 0)) return false;
  for (const side of SIDES) {
    for (let mask = 0; mask < 2 ** keys.length; mask++) {
      const unknowns = new Map(keys.map((key, k) => [key, ((mask >> k) & 1) === 1]));
      const rewritten = rewrite(tokens, readingAt(end, side, unknowns, backrefs));
      if (matchesEmpty(rewritten) !== true) return false;
    }
  }
  return true;
}

/**
 * Whether a pattern matches every text because it matches the empty string at the start of every
 * text (`x?`, `(?:)`, `^`, `(?<!x)`, `\b|\B`) or at the end of every text (`$`, `(?!x)`). `^$`,
 * `\bok`, `\B` or `^(?![\s\S]*ERROR)` ask something and are not such patterns. A pattern that matches
 * every text only by consuming some (`^$|[\s\S]`) is not seen.
 */
function matchesAnything(tokens: readonly Token[]): boolean {
  return matchesEmptyAtEvery(tokens, "start") || matchesEmptyAtEvery(tokens, "end");
}

/** Groups and lookarounds nested deeper than this are refused (`too-deep`). */
export const MAX_GROUP_DEPTH = 256;

/** Repetitions nested inside each other whose counts multiply past this are refused (`too-complex`). */
export const MAX_REPEAT_PRODUCT = 100_000;

// A quantifier at `i` of `source`: the factor it adds to the product of nested repetitions (`?`,
// `*` and `+` 2, `{n,m}` m + 1, at most 4: V8 unrolls counts up to 3 and loops past them), how many
// copies of what it follows may run one after another, counted up to 4 (`*` and `+` as 2) and how
// many of them must, and its length; null where there is none (a `{` that is no quantifier is a
// character).
function quantifierAt(source: string, i: number): { times: number; copies: number; required: number; length: number } | null {
  const c = source[i];
  const lazy = (at: number) => (source[at] === "?" ? 1 : 0);
  if (c === "?") return { times: 2, copies: 1, required: 0, length: 1 + lazy(i + 1) };
  if (c === "*" || c === "+") return { times: 2, copies: 2, required: c === "+" ? 1 : 0, length: 1 + lazy(i + 1) };
  if (c !== "{") return null;
  const m = /^\{(\d+)(,(\d*))?\}\??/.exec(source.slice(i, i + 64));
  if (m === null) return null;
  const low = Number(m[1]);
  const high = m[2] === undefined ? low + 1 : m[3] === "" ? low + 2 : Number(m[3]) + 1;
  const copies = Math.min(high - 1, 4);
  return { times: Math.min(Math.max(high, 2), 4), copies, required: Math.min(low, copies), length: m[0].length };
}

/** More `\\b`/`\\B` than this one after another on some path (nothing consumed between) is refused (`too-complex`). */
export const MAX_BOUNDARY_RUN = 10;

/** More places than this one after another where an empty match can go two ways is refused (`too-complex`). */
export const MAX_CHOICE_RUN = 12;

/** Runs of counted zero-width pieces in a piece of a pattern (NEG when there is no such path). */
interface Runs {
  /** Whether some path through it consumes nothing. */
  readonly empty: boolean;
  /** The most boundaries on a path that consumes nothing. */
  readonly through: number;
  /** The most boundaries before its first consumed character, and after its last. */
  readonly lead: number;
  readonly trail: number;
  /** The most boundaries one after another anywhere in it. */
  readonly most: number;
}

const NEG = Number.NEGATIVE_INFINITY;
const CONSUMES: Runs = { empty: false, through: NEG, lead: 0, trail: 0, most: 0 };
const BOUNDARY: Runs = { empty: true, through: 1, lead: 1, trail: 1, most: 1 };
const ZERO_WIDTH: Runs = { empty: true, through: 0, lead: 0, trail: 0, most: 0 };

function then(a: Runs, b: Runs): Runs {
  return {
    empty: a.empty && b.empty,
    through: a.through + b.through,
    lead: Math.max(a.lead, a.through + b.lead),
    trail: Math.max(b.trail, b.through + a.trail),
    most: Math.max(a.most, b.most, a.trail + b.lead),
  };
}

function either(a: Runs, b: Runs): Runs {
  return {
    empty: a.empty || b.empty,
    through: Math.max(a.through, b.through),
    lead: Math.max(a.lead, b.lead),
    trail: Math.max(a.trail, b.trail),
    most: Math.max(a.most, b.most),
  };
}

/** `r` repeated `copies` times in a row, the copies past the first `required` optional. */
function repeated(r: Runs, copies: number, required: number): Runs {
  const optional = either(r, ZERO_WIDTH);
  let out = required > 0 ? r : optional;
  for (let k = 1; k < copies; k++) out = then(out, k < required ? r : optional);
  return out;
}

/** What makes a piece of a pattern costly to compile or to check (see `costOf`). */
interface Cost {
  /** The largest product of the quantifiers on one chain of nested groups in it. */
  readonly product: number;
  /** Its runs of word-boundary assertions, and of places where an empty match can go two ways. */
  readonly boundaries: Runs;
  readonly choices: Runs;
}

// A place a choice run counts, one however much it holds: what is nested in it is tried inside one
// of its two ways, so nesting adds no way of its own, where pieces in a row multiply theirs.
function counted(r: Runs): Runs {
  return r.empty ? { empty: true, through: Math.max(r.through, 1), lead: Math.max(r.lead, 1), trail: Math.max(r.trail, 1), most: Math.max(r.most, 1) } : r;
}

const piece = (product: number, boundaries: Runs, choices: Runs): Cost => ({ product, boundaries, choices });
const CONSUMING = piece(1, CONSUMES, CONSUMES);
const NOTHING = piece(1, ZERO_WIDTH, ZERO_WIDTH);

/**
 * What in `source` V8 or the empty-match checks pay for beyond its length, read in one pass, small
 * counts unrolled as V8 unrolls them:
 * - `product`: the largest product of the quantifiers on one chain of nested groups
 *   (`(?:(?:a?){2,3}){2,3}`: 2 x 4 x 4). V8 unrolls small counted repetitions, so each level of
 *   such nesting multiplies the compiled pattern: some twenty levels take it minutes, eight a moment.
 * - `boundaries`: the longest run of word-boundary assertions (`\\b`, `\\B`) with nothing consumed
 *   between. V8's code for such a run doubles with each one (sixteen took 2.5 s to compile, twenty
 *   exhausted its memory and aborted the process).
 * - `choices`: the longest run of places where an empty match can go two ways (an alternation with
 *   two alternatives that may match empty, an optional piece that may, a lookaround that may, which
 *   the empty-match checks read as an optional piece). The checks run rewritten patterns on the
 *   empty string, and the engine tries every combination of such a run before it fails.
 * Groups nest at most MAX_GROUP_DEPTH deep (checked first), so the descent is bounded.
 */
function costOf(source: string): { product: number; boundaries: number; choices: number } {
  let i = 0;
  const alternatives = (): Cost => {
    let out = sequence();
    let empties = out.choices.empty ? 1 : 0;
    while (source[i] === "|") {
      i++;
      const next = sequence();
      empties += next.choices.empty ? 1 : 0;
      out = piece(Math.max(out.product, next.product), either(out.boundaries, next.boundaries), either(out.choices, next.choices));
    }
    return empties > 1 ? { ...out, choices: counted(out.choices) } : out;
  };
  const sequence = (): Cost => {
    let out = NOTHING;
    while (i < source.length && source[i] !== "|" && source[i] !== ")") {
      const next = quantified(atom());
      out = piece(Math.max(out.product, next.product), then(out.boundaries, next.boundaries), then(out.choices, next.choices));
    }
    return out;
  };
  const quantified = (c: Cost): Cost => {
    const q = quantifierAt(source, i);
    if (q === null) return c;
    i += q.length;
    const product = Math.min(c.product * q.times, Number.MAX_SAFE_INTEGER);
    if (q.copies === 0) return piece(product, ZERO_WIDTH, ZERO_WIDTH);
    const choices = repeated(c.choices, q.copies, q.required);
    return piece(product, repeated(c.boundaries, q.copies, q.required), c.choices.empty && q.required < q.copies ? counted(choices) : choices);
  };
  const atom = (): Cost => {
    const c = source[i] as string;
    if (c === "\\") {
      const next = source[i + 1] ?? "";
      i += 2;
      if (next === "b" || next === "B") return piece(1, BOUNDARY, ZERO_WIDTH);
      // A backreference may match the empty string.
      if (/[1-9k]/.test(next)) {
        const maybe = either(CONSUMES, ZERO_WIDTH);
        return piece(1, maybe, maybe);
      }
      return CONSUMING;
    }
    if (c === "[") {
      i = classEnd(source, i) + 1;
      return CONSUMING;
    }
    if (c === "(") {
      const open = /^\(\?(?:<[=!]|[:=!]|<[A-Za-z_$][\w$]*>)/.exec(source.slice(i, i + 256))?.[0] ?? "(";
      i += open.length;
      const inner = alternatives();
      i++;
      if (!/^\(\?<?[=!]$/.test(open)) return inner;
      // A lookaround consumes nothing and its inside runs apart from what surrounds it.
      const look = (r: Runs): Runs => ({ ...ZERO_WIDTH, most: r.most });
      return piece(inner.product, look(inner.boundaries), inner.choices.empty ? counted(look(inner.choices)) : look(inner.choices));
    }
    i++;
    return c === "^" || c === "$" ? NOTHING : CONSUMING;
  };
  const all = alternatives();
  return { product: all.product, boundaries: all.boundaries.most, choices: all.choices.most };
}

/** How deep the groups and lookarounds of a pattern nest (a class's `(` is none, nor an escaped one). */
function groupDepth(tokens: readonly Token[]): number {
  let depth = 0;
  let deepest = 0;
  for (const token of tokens) {
    if (token.t === "open") deepest = Math.max(deepest, ++depth);
    else if (token.t === "close") depth--;
  }
  return deepest;
}

/**
 * Why `source` cannot be an acceptance pattern: its groups nest deeper than MAX_GROUP_DEPTH, it does not compile, it holds `\p{…}`, `\P{…}` or
 * `\u{…}` (a Unicode property or code point only under the `u` flag), for an `at least` count it
 * can match the empty string at some position (`canMatchEmpty`), so a count would count
 * positions, and for `matches` it matches every output (`matchesAnything`), so it checks nothing;
 * null when it can.
 */
export function patternProblem(source: string, counted: boolean): PatternProblem | null {
  // First: V8 aborts the whole process compiling lookaheads nested some thousands deep, and the
  // checks below compile the pattern.
  // Tokenising recurses nowhere, so it is safe on any depth; the tokens serve every check below.
  const tokens = tokenize(source);
  if (groupDepth(tokens) > MAX_GROUP_DEPTH) return "too-deep";
  const cost = costOf(source);
  if (cost.product > MAX_REPEAT_PRODUCT || cost.boundaries > MAX_BOUNDARY_RUN || cost.choices > MAX_CHOICE_RUN) return "too-complex";
  if (!regexCompiles(source)) return "bad-regex";
  if (hasUnicodeOnlyEscape(source)) return "unicode-escape";
  if (counted && canMatchEmpty(tokens)) return "empty-match";
  if (!counted && matchesAnything(tokens)) return "matches-anything";
  return null;
}
