import { afterEnv } from "./env.js";
import { commandWord } from "./npm-commands.js";
import { type ShellLine, shellWords } from "./shell-words.js";
import { commandPath, ownEntry, positionals, programName } from "./words.js";

/** The commands a line really runs, unwrapped, and what the checker could not see into. */
export type RunView = {
  commands: string[][];
  opaque: string[];
  /**
   * For each command, the script it runs in: 0 for the line itself, a new number for each script
   * run in a shell of its own (`sh -c`, `npx -c`, `$(…)`, backquotes), whose parent is in `parents`.
   * A `cd` in one script moves none of the others.
   */
  scopes: number[];
  /** The parent of each script (`-1` for the line itself). */
  parents: number[];
};

const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "ash"]);
const RESERVED = new Set(["!", "{", "}", "then", "do", "else", "elif", "if", "while", "until", "nohup", "builtin", "coproc"]);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** Prefix commands that run the rest of their words, with their options that take a value (`env`'s are read by `afterEnv`). */
const PREFIXES: Record<string, Set<string>> = {
  env: new Set(),
  sudo: new Set(["-u", "-g", "-C", "-h", "-p", "-D", "-r", "-t", "-U", "-T", "--user", "--group"]),
  doas: new Set(["-u", "-C"]),
  nice: new Set(["-n", "--adjustment"]),
  timeout: new Set(["-s", "--signal", "-k", "--kill-after"]),
  xargs: new Set(["-I", "-n", "-P", "-L", "-d", "-E", "-s", "-a", "--max-args", "--max-procs"]),
  stdbuf: new Set(["-i", "-o", "-e"]),
  // Shell words that run the rest with options of their own: `command -p git push`, `time -p …`, `exec -a NAME …`.
  command: new Set(),
  time: new Set(["-f", "--format", "-o", "--output"]),
  exec: new Set(["-a"]),
  setsid: new Set(),
  ionice: new Set(["-c", "--class", "-n", "--classdata", "-p", "--pid", "-P", "--pgid", "-u", "--uid"]),
  // `busybox sh -c …`, `busybox env …`: the applet leads what is left.
  busybox: new Set(),
};

/** `flock`'s options that take a value; the first word after its options is the lock, then the command (or `-c SCRIPT`). */
const FLOCK_VALUE = new Set(["-w", "--wait", "--timeout", "-E", "--conflict-exit-code"]);

/**
 * What a command that runs other commands runs besides itself: `flock LOCK CMD…` or `flock LOCK
 * -c SCRIPT`, `script -c SCRIPT`, `git submodule foreach CMD…` (a script for the shell), and each
 * `find … -exec|-execdir|-ok|-okdir CMD… ;` (or `+`).
 */
function runsInside(argv: string[]): ({ argv: string[] } | { script: string })[] {
  const name = programName(argv[0] ?? "");
  if (name === "flock") {
    let i = 1;
    while (i < argv.length && (argv[i] ?? "").startsWith("-") && argv[i] !== "-c" && argv[i] !== "--command") i += FLOCK_VALUE.has(argv[i] ?? "") ? 2 : 1;
    if (argv[i] === "-c" || argv[i] === "--command") return [{ script: argv[i + 1] ?? "" }];
    const rest = argv.slice(i + 1);
    return rest[0] === "-c" || rest[0] === "--command" ? [{ script: rest[1] ?? "" }] : rest.length > 0 ? [{ argv: rest }] : [];
  }
  if (name === "script") {
    const at = argv.findIndex((w, k) => k > 0 && (w === "-c" || w === "--command" || /^-[a-zA-Z]*c$/.test(w)));
    const joined = argv.find((w) => w.startsWith("--command="));
    if (joined !== undefined) return [{ script: joined.slice("--command=".length) }];
    return at === -1 ? [] : [{ script: argv[at + 1] ?? "" }];
  }
  if (name === "git") {
    const path = commandPath(argv);
    if (path[0] !== "submodule" || path[1] !== "foreach") return [];
    let k = argv.indexOf("foreach") + 1;
    while ((argv[k] ?? "").startsWith("-")) k++;
    return k < argv.length ? [{ script: argv.slice(k).join(" ") }] : [];
  }
  if (name !== "find") return [];
  const inside: { argv: string[] }[] = [];
  for (let i = 1; i < argv.length; i++) {
    if (!["-exec", "-execdir", "-ok", "-okdir"].includes(argv[i] ?? "")) continue;
    const end = argv.findIndex((w, k) => k > i && (w === ";" || w === "+"));
    inside.push({ argv: argv.slice(i + 1, end === -1 ? argv.length : end) });
    if (end !== -1) i = end;
  }
  return inside;
}

/** Drop a prefix command's options (and their values); for `timeout`, also its duration; `env` as `afterEnv` reads it. */
function afterPrefix(name: string, words: string[]): string[] {
  if (name === "env") return afterEnv(words);
  const withValue = ownEntry(PREFIXES, name) ?? new Set<string>();
  let i = 1;
  while (i < words.length) {
    const w = words[i] ?? "";
    if (w === "--") return words.slice(i + 1);
    if (w.startsWith("-") && w.length > 1) i += withValue.has(w) ? 2 : 1;
    else break;
  }
  return name === "timeout" ? words.slice(i + 1) : words.slice(i);
}

type ShellOperand = { kind: "inline" | "file"; word: string } | { kind: "stdin" };

/** The first word after a shell's options: its inline script (`-c`), its script file, or an argument of a script read from stdin (`-s`, or none). */
const operand = (word: string | undefined, sawC: boolean, sawS: boolean): ShellOperand =>
  word === undefined || (sawS && !sawC) ? { kind: "stdin" } : { kind: sawC ? "inline" : "file", word };

/** Long options of a shell that take the next word as their value: the file is not the script. */
const SHELL_VALUE_LONG = new Set(["--rcfile", "--init-file"]);

/**
 * What a shell runs: the script of `sh -c SCRIPT` (any single-dash option word holding `c`,
 * `inline`), the script file of `sh FILE` (`file`), or a script read from stdin (`stdin`: no
 * operand, or `-s`, as in `echo 'git push' | sh`); null for `--version` and `--help`. `-o NAME`, `+o NAME`, `-O NAME`, `+O NAME` (one
 * value per `o`/`O` in a cluster), `--rcfile FILE` and `--init-file FILE` take a value.
 */
function shellOperand(words: string[]): ShellOperand | null {
  let sawC = false;
  let sawS = false;
  for (let i = 1; i < words.length; i++) {
    const w = words[i] ?? "";
    if (/^[-+][a-zA-Z]+$/.test(w)) {
      if (w.startsWith("-") && w.includes("c")) sawC = true;
      if (w.startsWith("-") && w.includes("s")) sawS = true;
      for (const letter of w) if (letter === "o" || letter === "O") i++;
    } else if (SHELL_VALUE_LONG.has(w)) i++;
    else if (w === "--version" || w === "--help") return null;
    else if (w === "--" || w === "-") return operand(words[i + 1], sawC, sawS);
    else if (!w.startsWith("--")) return operand(w, sawC, sawS);
  }
  return { kind: "stdin" };
}

/** Strip assignments, reserved words and prefix commands until the real program leads. */
function unwrap(words: string[]): string[] {
  let rest = words;
  for (;;) {
    const first = rest[0];
    if (first === undefined) return rest;
    const name = programName(first);
    if (ASSIGNMENT.test(first) || RESERVED.has(first)) rest = rest.slice(1);
    else if (ownEntry(PREFIXES, name) !== undefined) rest = afterPrefix(name, rest);
    else return rest;
  }
}

const SCRIPT_RUNNERS = new Set(["npm", "pnpm", "yarn", "bun"]);
/** Package-manager commands that run a package.json script of the same name. */
const SCRIPT_COMMANDS = new Set(["start", "stop", "restart"]);

const EXEC_TOOLS = new Set(["npx", "pnpx", "bunx"]);
const EXEC_SUBCOMMANDS = new Set(["exec", "dlx", "x"]);
const EXEC_VALUE_OPTIONS = new Set(["-p", "--package", "-c", "--call"]);

/**
 * What a package-runner runs (`npx CMD`, `pnpm exec CMD`, `pnpm dlx CMD`, `yarn dlx CMD`, `bunx CMD`):
 * `argv` for the command, or `script` for `npx -c 'SCRIPT'`; null when it runs nothing.
 */
function execInner(argv: string[]): { argv: string[] } | { script: string } | null {
  const name = programName(argv[0] ?? "");
  let i = 1;
  if (!EXEC_TOOLS.has(name)) {
    const sub = SCRIPT_RUNNERS.has(name) ? positionals(argv)[0] : undefined;
    if (sub === undefined || !EXEC_SUBCOMMANDS.has(commandWord(name, sub))) return null;
    i = argv.indexOf(sub, 1) + 1;
  }
  for (; i < argv.length; i++) {
    const w = argv[i] ?? "";
    if (w === "--") return { argv: argv.slice(i + 1) };
    if (w === "-c" || w === "--call") return { script: argv[i + 1] ?? "" };
    if (!w.startsWith("-")) return { argv: argv.slice(i) };
    if (EXEC_VALUE_OPTIONS.has(w)) i++;
  }
  return null;
}

/** Unwrap one command; recurse into `sh -c` scripts and what `npx`/`pnpm exec`/`dlx` run. */
function visit(words: string[], depth: number, view: RunView, scope: number): void {
  const argv = unwrap(words);
  const name = programName(argv[0] ?? "");
  if (argv.length === 0) return;
  if (name === "eval" || name === "source" || name === ".") view.opaque.push(name);
  const sub = SCRIPT_RUNNERS.has(name) && argv[1] !== undefined ? commandWord(name, argv[1]) : undefined;
  if (sub === "run" || sub === "run-script") view.opaque.push(`${name} ${argv[1]} ${argv[2] ?? ""}`.trim());
  if (SCRIPT_COMMANDS.has(sub ?? "")) view.opaque.push(`${name} ${argv[1]}`);
  const operand = SHELLS.has(name) ? shellOperand(argv) : null;
  if (operand?.kind === "file") view.opaque.push(`${name} ${operand.word}`);
  if (operand?.kind === "stdin") view.opaque.push(`${name} reading its script from stdin`);
  if (operand?.kind === "inline" && depth < 8) {
    visitScript(operand.word, depth, view, scope);
    return;
  }
  view.commands.push(argv);
  view.scopes.push(scope);
  if (depth >= 8) return;
  const exec = execInner(argv);
  for (const inner of exec === null ? runsInside(argv) : [exec]) {
    if ("script" in inner) visitScript(inner.script, depth, view, scope);
    else visit(inner.argv, depth + 1, view, scope);
  }
}

/** Read a script one level down (`sh -c SCRIPT`, `npx -c SCRIPT`, `$(SCRIPT)`) the same way as a row's line. */
function visitScript(script: string, depth: number, view: RunView, parent: number): void {
  view.parents.push(parent);
  visitLine(shellWords(script), depth + 1, view, view.parents.length - 1);
}

/** A line's commands in the order they run: the command substitutions among a command's words first. */
function visitLine(line: ShellLine, depth: number, view: RunView, scope: number): void {
  // One push each: a line of a hundred thousand substitutions is too many arguments for a spread.
  for (const o of line.opaque) view.opaque.push(o);
  const { substitutions } = line;
  let k = 0;
  const substituted = (upTo: number) => {
    for (; k < substitutions.length && (substitutions[k]?.before ?? 0) <= upTo; k++) {
      if (depth < 8) visitScript(substitutions[k]?.script ?? "", depth, view, scope);
    }
  };
  line.commands.forEach((c, i) => {
    substituted(i);
    visit(c, depth, view, scope);
  });
  substituted(Number.POSITIVE_INFINITY);
}

/** Every command a shell line runs, seen through chaining, prefixes and `sh -c`. Never throws. */
export function runView(line: string): RunView {
  const view: RunView = { commands: [], opaque: [], scopes: [], parents: [-1] };
  visitLine(shellWords(line), 0, view, 0);
  return view;
}
