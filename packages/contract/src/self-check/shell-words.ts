// A small shell-word tokenizer: enough of POSIX sh to see which commands a line runs.

/**
 * The simple commands of a shell line (words after quote removal), what it could not see into, and
 * the scripts of its command substitutions (`$(…)`, backquotes): each runs before the command at
 * index `before`, the one it is a word of.
 */
export type ShellLine = { commands: string[][]; opaque: string[]; substitutions: { before: number; script: string }[] };

type State = { s: string; i: number; word: string | null; words: string[]; out: ShellLine };

// Levels of `$((…))` inside `$((…))` read for the commands they run.
const MAX_ARITHMETIC = 8;
const OPERATORS = new Set(["&", "|", ";", "(", ")", "\n"]);
const REDIRECT = /^\d*(?:&>>?|>>?&?|<<-?|<<<|<&|<>|<)/;

function endWord(st: State): void {
  if (st.word !== null) st.words.push(st.word);
  st.word = null;
}

function endCommand(st: State): void {
  endWord(st);
  if (st.words.length > 0) st.out.commands.push(st.words);
  st.words = [];
}

/** Skip a `$(…)` (nested parentheses and quotes counted) starting at st.i; returns its raw text. */
function skipSubstitution(st: State): string {
  const from = st.i;
  let depth = 0;
  let quote: string | null = null;
  for (; st.i < st.s.length; st.i++) {
    const c = st.s[st.i];
    if (quote) {
      if (c === quote) quote = null;
      else if (c === "\\" && quote === '"') st.i++;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === "\\") st.i++;
    else if (c === "(") depth++;
    else if (c === ")" && --depth === 0) break;
  }
  st.i++;
  return st.s.slice(from, st.i);
}

/**
 * The index of the `)` that closes the `(` at `from` in `s` (quotes and escapes skipped, as
 * `skipSubstitution` counts them), or -1.
 */
function closing(s: string, from: number): number {
  const st: State = { s, i: from, word: null, words: [], out: { commands: [], opaque: [], substitutions: [] } };
  skipSubstitution(st);
  return st.i - 1 < s.length && s[st.i - 1] === ")" ? st.i - 1 : -1;
}

/**
 * A `$(…)` at st.i: opaque (what it prints is not known), its script kept; returns its raw text.
 * `$((…))` is arithmetic, as the shell reads it when the inner parentheses close just before the
 * outer one: no command runs, though a substitution inside it does.
 */
function substitution(st: State, depth = 0): string {
  const from = st.i;
  const raw = skipSubstitution(st);
  if (raw.startsWith("$((") && raw.endsWith("))") && closing(raw, 2) === raw.length - 2) {
    inner(st, from + 3, st.i - 2, depth);
    return raw;
  }
  st.out.opaque.push("$(…)");
  st.out.substitutions.push({ before: st.out.commands.length, script: raw.slice(2, raw.endsWith(")") ? -1 : undefined) });
  return raw;
}

/**
 * The substitutions inside an arithmetic expansion's text, st.s[from, to); st.i is left where it
 * was. Past a few levels of arithmetic in arithmetic, what is inside is opaque: each level reads
 * its text again, and a hostile line must not make that quadratic.
 */
function inner(st: State, from: number, to: number, depth: number): void {
  const end = st.i;
  st.i = from;
  while (st.i < to) {
    const c = st.s[st.i];
    if (c === "$" && st.s[st.i + 1] === "(" && depth < MAX_ARITHMETIC) substitution(st, depth + 1);
    else if (c === "$" && st.s[st.i + 1] === "(") {
      st.out.opaque.push("$((…))");
      skipSubstitution(st);
    } else if (c === "`") backquoted(st);
    else st.i++;
  }
  st.i = end;
}

/** A backquoted command at st.i: opaque, its script kept; st.i moves past the closing backquote. */
function backquoted(st: State): void {
  st.out.opaque.push("`…`");
  const close = st.s.indexOf("`", st.i + 1);
  const end = close === -1 ? st.s.length : close;
  st.out.substitutions.push({ before: st.out.commands.length, script: st.s.slice(st.i + 1, end) });
  st.i = end + 1;
}

/** Read a double-quoted string starting after its opening quote; `$(` and backticks are opaque. */
function doubleQuoted(st: State): string {
  let text = "";
  while (st.i < st.s.length && st.s[st.i] !== '"') {
    const c = st.s[st.i] ?? "";
    const next = st.s[st.i + 1] ?? "";
    if (c === "\\" && '$`"\\\n'.includes(next) && next !== "") {
      if (next !== "\n") text += next;
      st.i += 2;
    } else if (c === "$" && next === "(") {
      text += substitution(st);
    } else if (c === "`") {
      backquoted(st);
    } else {
      text += c;
      st.i++;
    }
  }
  st.i++;
  return text;
}

/** Handle one character outside quotes; returns false when it was an ordinary word character. */
function special(st: State, c: string): boolean {
  const next = st.s[st.i + 1] ?? "";
  if (c === " " || c === "\t" || c === "\r") {
    endWord(st);
    st.i++;
    return true;
  }
  if (c === "#" && st.word === null) {
    const nl = st.s.indexOf("\n", st.i);
    st.i = nl === -1 ? st.s.length : nl;
    return true;
  }
  if (OPERATORS.has(c)) {
    endCommand(st);
    st.i++;
    return true;
  }
  if (c === "\\") {
    if (next !== "\n") st.word = (st.word ?? "") + next;
    st.i += 2;
    return true;
  }
  if (c === "'") {
    const close = st.s.indexOf("'", st.i + 1);
    const end = close === -1 ? st.s.length : close;
    st.word = (st.word ?? "") + st.s.slice(st.i + 1, end);
    st.i = end + 1;
    return true;
  }
  if (c === '"') {
    st.i++;
    st.word = (st.word ?? "") + doubleQuoted(st);
    return true;
  }
  return false;
}

/** Handle `$(…)`, backticks and redirections; false when none applies. */
function expansionOrRedirect(st: State, c: string): boolean {
  if (c === "$" && st.s[st.i + 1] === "(") {
    st.word = (st.word ?? "") + substitution(st);
    return true;
  }
  if (c === "`") {
    backquoted(st);
    st.word = (st.word ?? "") + "`…`";
    return true;
  }
  // Outside quotes `<` and `>` are redirect operators wherever they stand: they end the word before
  // them (`push>/dev/null` is `push` then a redirect), unless that word is a file descriptor's
  // number (`2>`), a short word of digits. Testing a long word would flatten it at every
  // character, which makes one long word quadratic; a `<` or `>` is tested once.
  const redirect = c === "<" || c === ">" ? REDIRECT.exec(st.s.slice(st.i)) : null;
  if (redirect) {
    const fd = st.word !== null && st.word.length <= 9 && /^\d+$/.test(st.word);
    if (fd) st.word = null;
    else endWord(st);
    st.i += redirect[0].length;
    while (st.s[st.i] === " " || st.s[st.i] === "\t") st.i++;
    const target: State = { ...st, word: null, words: [] };
    let ended = false;
    while (target.i < st.s.length && !ended) ended = readOne(target, true);
    st.i = target.i;
    return true;
  }
  return false;
}

/** Consume one character or construct; in target mode, returns true when the word has ended. */
function readOne(st: State, target = false): boolean {
  const c = st.s[st.i] ?? "";
  // A redirect's target ends at a blank, an operator or the next redirect (`>a>b` is two redirects, read in turn, not nested).
  if (target && (c === " " || c === "\t" || c === "<" || c === ">" || OPERATORS.has(c))) return true;
  if (special(st, c) || expansionOrRedirect(st, c)) return false;
  st.word = (st.word ?? "") + c;
  st.i++;
  return false;
}

/** Split a shell line into simple commands on `&&`, `||`, `;`, `|`, `&`, newlines and parentheses. Never throws. */
export function shellWords(line: string): ShellLine {
  const st: State = { s: line, i: 0, word: null, words: [], out: { commands: [], opaque: [], substitutions: [] } };
  while (st.i < st.s.length) readOne(st);
  endCommand(st);
  return st.out;
}
