// A regex source cut into the pieces the pattern rules read: assertions, lookarounds and groups,
// with everything else (characters, escapes, classes, quantifiers, `|`) copied as text. One pass,
// no recursion, so a pattern nested 100,000 groups deep is read as quickly as a flat one.

/** A lookaround as it opens. */
export type Look = "(?=" | "(?!" | "(?<=" | "(?<!";

const LOOKS: readonly Look[] = ["(?=", "(?!", "(?<=", "(?<!"];

/** An assertion outside a lookaround: `^`, `$`, `\b`, `\B`. */
export type Edge = "^" | "$" | "\\b" | "\\B";

/**
 * One piece of a regex source. A lookaround's `key` is its source between the opener and its `)`,
 * so `(?=a)` and `(?!a)` share one; `captures` says whether a capturing group sits inside it, and
 * `within` which lookarounds it sits inside.
 */
export type Token =
  | { t: "text"; s: string }
  | { t: "edge"; s: Edge }
  | { t: "open"; look: null }
  | { t: "open"; look: Look; key: string; captures: boolean; within: Within }
  | { t: "close" };

/** How many lookaheads, lookbehinds and negative lookarounds (of either kind) a lookaround sits inside. */
export type Within = { ahead: number; behind: number; negative: number };

/** A lookaround token. */
export type LookToken = Extract<Token, { t: "open"; look: Look }>;

/** Whether a lookaround looks ahead or behind. */
export const aheadOrBehind = (look: Look): "ahead" | "behind" => (look.startsWith("(?<") ? "behind" : "ahead");

/** Where the class opening at `i` of `source` ends: its first unescaped `]` (`[]` is the empty class), or past the end. */
export function classEnd(source: string, i: number): number {
  let j = i + 1;
  while (j < source.length && source[j] !== "]") j += source[j] === "\\" ? 2 : 1;
  return j;
}

/** The tokens of a source that compiles (a source that does not may give any tokens, never a throw). */
export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  const open: { token: LookToken | null; from: number }[] = [];
  const within: Within = { ahead: 0, behind: 0, negative: 0 };
  for (let i = 0; i < source.length; i++) {
    const c = source[i] as string;
    if (c === "\\") {
      const next = source[i + 1] ?? "";
      tokens.push(next === "b" || next === "B" ? { t: "edge", s: `\\${next}` as Edge } : { t: "text", s: `\\${next}` });
      i++;
    } else if (c === "[") {
      // `\b` in a class is a backspace.
      const j = classEnd(source, i);
      tokens.push({ t: "text", s: source.slice(i, j + 1) });
      i = j;
    } else if (c === "(") {
      const look = LOOKS.find((l) => source.startsWith(l, i));
      if (look === undefined) {
        // `(` alone or `(?<name>` captures; every lookaround around it then holds a capture.
        const capturing = source[i + 1] !== "?" || source[i + 2] === "<";
        if (capturing) for (const o of open) if (o.token) o.token.captures = true;
        tokens.push({ t: "open", look: null });
        open.push({ token: null, from: i + 1 });
      } else {
        const token: LookToken = { t: "open", look, key: "", captures: false, within: { ...within } };
        tokens.push(token);
        open.push({ token, from: i + look.length });
        within[aheadOrBehind(look)]++;
        if (look.endsWith("!")) within.negative++;
        i += look.length - 1;
      }
    } else if (c === ")") {
      const o = open.pop();
      if (o?.token) {
        o.token.key = source.slice(o.from, i);
        within[aheadOrBehind(o.token.look)]--;
        if (o.token.look.endsWith("!")) within.negative--;
      }
      tokens.push({ t: "close" });
    } else if (c === "^" || c === "$") tokens.push({ t: "edge", s: c });
    else tokens.push({ t: "text", s: c });
  }
  return tokens;
}

/**
 * How a reading takes a lookaround: `keep` it as written (its inside read the same way), take it as
 * one that `may` hold (it holds, or its inside is tried), or as one that `never` does.
 */
export type LookReading = "keep" | "may" | "never";

/** What each assertion is taken to be: an edge holds (true) or never does; a lookaround as `LookReading`. */
export type Reading = { edge: (edge: Edge) => boolean; look: (token: LookToken) => LookReading };

const NEVER = "(?!)";

/**
 * The source again with its assertions read as `reading` says: an edge that holds becomes `(?:)`,
 * one that does not `(?!)`; a lookaround that may hold `(?:(?:A)|)`, one that never does
 * `(?:(?!)(?:A))`, so a quantifier after it still applies to the whole. Groups are copied, so group
 * numbers (and backreferences) keep their meaning, and a source that compiled still compiles.
 */
export function rewrite(tokens: readonly Token[], reading: Reading): string {
  let out = "";
  const closers: string[] = [];
  for (const token of tokens) {
    if (token.t === "text") out += token.s;
    else if (token.t === "edge") out += reading.edge(token.s) ? "(?:)" : NEVER;
    else if (token.t === "close") out += closers.pop() ?? ")";
    else if (token.look === null) {
      out += "(";
      closers.push(")");
    } else {
      const how = reading.look(token);
      out += how === "keep" ? token.look : how === "may" ? "(?:(?:" : `(?:${NEVER}(?:`;
      closers.push(how === "keep" ? ")" : how === "may" ? ")|)" : "))");
    }
  }
  return out;
}
