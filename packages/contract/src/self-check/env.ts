// What `env` runs: the words after its options and assignments, with `-S STRING` split in place.
import { shellWords } from "./shell-words.js";

/** GNU env's long options (coreutils 9); getopt_long also takes any unique prefix of one (`--split`). */
const LONG = [
  "ignore-environment",
  "null",
  "unset",
  "chdir",
  "split-string",
  "block-signal",
  "default-signal",
  "ignore-signal",
  "list-signal-handling",
  "debug",
  "help",
  "version",
];
/** Long options whose value may be the next word (`--unset NAME`). */
const LONG_VALUE = new Set(["unset", "chdir", "split-string"]);
/** Short options that take a value: the rest of their word, or the next word (`-u NAME`, `-CDIR`, `-S STRING`). */
const SHORT_VALUE = "uCS";
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** The long option a `--name` names (the option itself, or the one it is a unique prefix of); undefined when none. */
function longOption(name: string): string | undefined {
  if (LONG.includes(name)) return name;
  const named = LONG.filter((o) => o.startsWith(name));
  return named.length === 1 ? named[0] : undefined;
}

/**
 * The words `env -S STRING` puts in place of STRING: the string read as a command line (quotes,
 * escapes and comments as the shell reads them, which env's splitting follows). Its operators run
 * nothing under env, so every command's words are kept, in order, as one list.
 */
const splitString = (s: string): string[] => shellWords(s).commands.flat();

/** Where env's words come from: the command line, or a string `-S` split (read before the words after it). */
type Source = { readonly words: readonly string[]; at: number };

/** The words not read yet, in the order env reads them: the innermost split string first. */
const unread = (stack: Source[]): string[] => [...stack].reverse().flatMap((s) => s.words.slice(s.at));

function nextWord(stack: Source[]): string | undefined {
  for (let top = stack.at(-1); top !== undefined; top = stack.at(-1)) {
    if (top.at < top.words.length) return top.words[top.at++];
    stack.pop();
  }
  return undefined;
}

/** Reads one option word of env (its value taken from what follows when it needs one); what a `-S` splits is read next. */
function option(w: string, stack: Source[]): void {
  let split: string | undefined;
  if (w.startsWith("--")) {
    const eq = w.indexOf("=");
    const name = longOption(eq === -1 ? w.slice(2) : w.slice(2, eq));
    const value = eq !== -1 ? w.slice(eq + 1) : name !== undefined && LONG_VALUE.has(name) ? nextWord(stack) : undefined;
    if (name === "split-string") split = value;
  } else {
    const at = [...w.slice(1)].findIndex((letter) => SHORT_VALUE.includes(letter)) + 1;
    const value = at === 0 ? undefined : w.length > at + 1 ? w.slice(at + 1) : nextWord(stack);
    if (w[at] === "S") split = value;
  }
  if (split !== undefined) stack.push({ words: splitString(split), at: 0 });
}

/**
 * The command `env` runs (its first word leads), or [] when it runs none: env's options skipped
 * (`-i`, `-` alone, `-u NAME`, `-C DIR`, a unique prefix of a long option, short options grouped),
 * `NAME=value` assignments skipped, and each `-S STRING`/`--split-string=STRING`/`-SSTRING` split
 * in place (`env -S 'git push' origin` runs `git push origin`), its own options read in turn.
 * Reads each word once.
 */
export function afterEnv(words: readonly string[]): string[] {
  const stack: Source[] = [{ words, at: 1 }];
  for (let w = nextWord(stack); w !== undefined; w = nextWord(stack)) {
    if (w === "--") return unread(stack);
    if (w.startsWith("-")) option(w, stack);
    else if (!ASSIGNMENT.test(w)) return [w, ...unread(stack)];
  }
  return [];
}
