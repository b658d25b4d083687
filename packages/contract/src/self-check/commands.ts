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

/** The script of `sh -c SCRIPT` (any single-dash option word holding `c`); null when there is none. */
function shellScript(words: string[]): string | null {
  let sawC = false;
  for (let i = 1; i < words.length; i++) {
    const w = words[i] ?? "";
    if (/^-[a-zA-Z]+$/.test(w)) {
      if (w.includes("c")) sawC = true;
    } else if (w.startsWith("--") || /^[+-]o$/.test(w)) continue;
    else return sawC ? w : null;
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

/** Unwrap one command; recurse into `sh -c` and `bash -c` scripts. */
function visit(words: string[], depth: number, view: RunView): void {
  const argv = unwrap(words);
  const name = programName(argv[0] ?? "");
  if (argv.length === 0) return;
  if (name === "eval" || name === "source" || name === ".") view.opaque.push(name);
  if (SCRIPT_RUNNERS.has(name) && (argv[1] === "run" || argv[1] === "run-script")) {
    view.opaque.push(`${name} ${argv[1]} ${argv[2] ?? ""}`.trim());
  }
  const script = SHELLS.has(name) ? shellScript(argv) : null;
  if (script !== null && depth < 8) {
    const inner = shellWords(script);
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
