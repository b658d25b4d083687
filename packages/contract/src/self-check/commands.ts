import { shellWords } from "./shell-words.js";

/** The commands a line really runs, unwrapped, and what the checker could not see into. */
export type RunView = { commands: string[][]; opaque: string[] };

const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "ash"]);
const RESERVED = new Set(["!", "{", "}", "then", "do", "else", "elif", "if", "while", "until", "time", "exec", "command", "nohup", "builtin"]);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** Prefix commands that run the rest of their words, with their options that take a value. */
const PREFIXES: Record<string, Set<string>> = {
  env: new Set(["-u", "--unset", "-C", "--chdir"]),
  sudo: new Set(["-u", "-g", "-C", "-h", "-p", "-D", "-r", "-t", "-U", "-T", "--user", "--group"]),
  doas: new Set(["-u", "-C"]),
  nice: new Set(["-n", "--adjustment"]),
  timeout: new Set(["-s", "--signal", "-k", "--kill-after"]),
  xargs: new Set(["-I", "-n", "-P", "-L", "-d", "-E", "-s", "-a", "--max-args", "--max-procs"]),
  stdbuf: new Set(["-i", "-o", "-e"]),
};

/** The program name of a command word: `/usr/bin/git` is `git`. */
export const programName = (word: string): string => word.slice(word.lastIndexOf("/") + 1);

/** Drop a prefix command's options (and their values); for `timeout`, also its duration. */
function afterPrefix(name: string, words: string[]): string[] {
  const withValue = PREFIXES[name] ?? new Set<string>();
  let i = 1;
  while (i < words.length) {
    const w = words[i] ?? "";
    if (w === "--") return words.slice(i + 1);
    if (name === "env" && ASSIGNMENT.test(w)) i++;
    else if (w.startsWith("-") && w.length > 1) i += withValue.has(w) ? 2 : 1;
    else break;
  }
  return name === "timeout" ? words.slice(i + 1) : words.slice(i);
}

/**
 * What a shell runs: the script of `sh -c SCRIPT` (any single-dash option word holding `c`,
 * `inline: true`), or the script file of `sh FILE` (`inline: false`); null when neither.
 */
function shellOperand(words: string[]): { inline: boolean; word: string } | null {
  let sawC = false;
  for (let i = 1; i < words.length; i++) {
    const w = words[i] ?? "";
    if (/^[-+][a-zA-Z]+$/.test(w)) {
      if (w.startsWith("-") && w.includes("c")) sawC = true;
      if (w.includes("o")) i++; // -o NAME, +o NAME, -eo NAME: the option name is not the script
    } else if (w.startsWith("--")) continue;
    else return { inline: sawC, word: w };
  }
  return null;
}

/** Strip assignments, reserved words and prefix commands until the real program leads. */
function unwrap(words: string[]): string[] {
  let rest = words;
  for (;;) {
    const first = rest[0];
    if (first === undefined) return rest;
    const name = programName(first);
    if (ASSIGNMENT.test(first) || RESERVED.has(first)) rest = rest.slice(1);
    else if (name in PREFIXES) rest = afterPrefix(name, rest);
    else return rest;
  }
}

const SCRIPT_RUNNERS = new Set(["npm", "pnpm", "yarn", "bun"]);
/** Package-manager commands that run a package.json script of the same name. */
const SCRIPT_COMMANDS = new Set(["start", "stop", "restart"]);

/** Unwrap one command; recurse into `sh -c` and `bash -c` scripts. */
function visit(words: string[], depth: number, view: RunView): void {
  const argv = unwrap(words);
  const name = programName(argv[0] ?? "");
  if (argv.length === 0) return;
  if (name === "eval" || name === "source" || name === ".") view.opaque.push(name);
  if (SCRIPT_RUNNERS.has(name) && (argv[1] === "run" || argv[1] === "run-script")) {
    view.opaque.push(`${name} ${argv[1]} ${argv[2] ?? ""}`.trim());
  }
  if (SCRIPT_RUNNERS.has(name) && SCRIPT_COMMANDS.has(argv[1] ?? "")) view.opaque.push(`${name} ${argv[1]}`);
  const operand = SHELLS.has(name) ? shellOperand(argv) : null;
  if (operand && !operand.inline) view.opaque.push(`${name} ${operand.word}`);
  if (operand?.inline && depth < 8) {
    const inner = shellWords(operand.word);
    view.opaque.push(...inner.opaque);
    for (const c of inner.commands) visit(c, depth + 1, view);
    return;
  }
  view.commands.push(argv);
}

/** Every command a shell line runs, seen through chaining, prefixes and `sh -c`. Never throws. */
export function runView(line: string): RunView {
  const top = shellWords(line);
  const view: RunView = { commands: [], opaque: [...top.opaque] };
  for (const c of top.commands) visit(c, 0, view);
  return view;
}
