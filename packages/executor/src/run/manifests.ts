import { runView } from "@decay/contract";
import { inRepository } from "./paths.js";

// The files that decide what a command line runs without being named on it: `npm test` runs the
// `scripts.test` of a package.json, `make` the rules of a makefile. Pinning only the words of the
// command would leave those open to a fix that rewrites the script instead of the code.

/** The manifests each program reads, by the program's name. */
const MANIFESTS: Readonly<Record<string, readonly string[]>> = {
  npm: ["package.json"],
  pnpm: ["package.json"],
  yarn: ["package.json"],
  npx: ["package.json"],
  make: ["Makefile", "makefile", "GNUmakefile"],
};

/** Flags that move such a program to another directory (`npm --prefix`, `pnpm -C`, `yarn --cwd`, `make -C`). */
const DIR_FLAGS = ["-C", "--prefix", "--dir", "--cwd", "--directory"];

/** Arguments that make a package manager run scripts of every package of a workspace. */
const WORKSPACE_WIDE = ["-r", "--recursive", "--filter", "-F", "--workspace", "--workspaces", "-w", "-ws", "workspace", "workspaces"];

/** What decides a command line's behaviour besides its words. */
export interface Manifests {
  /** Repository-relative paths (they may not exist). */
  readonly paths: readonly string[];
  /** A workspace-wide run: every package.json and the workspace's own manifest count too. */
  readonly everyPackage: boolean;
}

/** `dir` joined with `rel` inside the repository, `""` for its top; null for an absolute path or one that leaves it. */
function within(dir: string | null, rel: string): string | null {
  // `~` and `$` are the shell's to expand: where they lead is not known here.
  if (dir === null || rel.startsWith("~") || rel.includes("$")) return null;
  return inRepository(dir, rel);
}

/** The directory a program is moved to by its flags (`-C dir`, `--prefix=dir`); `cwd` when none. */
function movedTo(args: readonly string[], cwd: string | null): string | null {
  let dir = cwd;
  args.forEach((a, k) => {
    const flag = DIR_FLAGS.find((f) => a === f || a.startsWith(`${f}=`));
    if (flag !== undefined) dir = within(dir, a === flag ? (args[k + 1] ?? "") : a.slice(flag.length + 1));
  });
  return dir;
}

/** One program a command line runs, with its arguments and every directory it may run in. */
export interface Program {
  /** The program's name without its directory (`node`, `make`). */
  readonly program: string;
  readonly args: readonly string[];
  /**
   * The repository's top (`""`), where the line's `cd` left it, and where `-C`/`--prefix`/`--dir`/
   * `--cwd` move it: repository-relative, each once; a directory not known (`cd -`, `cd $X`) left out.
   */
  readonly dirs: readonly string[];
}

/**
 * The programs a command line runs, in order, each with the directories it may run in (`cd`
 * commands themselves left out). Read through the contract's own reading of a shell line: quotes,
 * chaining, prefixes (`env`, `sudo`, `timeout`, ...) and what `sh -c`, `$(…)` and `npx` run. Each
 * script in a shell of its own starts where its parent stands, and its `cd` moves only itself.
 */
export function programsOf(command: string): Program[] {
  const view = runView(command);
  const cwds = new Map<number, string | null>([[0, ""]]);
  // Where a script starts: where its parent stands when it runs (a directory not known, null after
  // `cd -`, stays unknown below it), through parents that ran no command of their own.
  const cwdOf = (scope: number): string | null => {
    if (!cwds.has(scope)) cwds.set(scope, cwdOf(view.parents[scope] ?? 0));
    return cwds.get(scope) ?? null;
  };
  const out: Program[] = [];
  for (const [k, [first = "", ...args]] of view.commands.entries()) {
    const scope = view.scopes[k] ?? 0;
    const cwd = cwdOf(scope);
    const program = first.slice(first.lastIndexOf("/") + 1);
    if (program === "cd") {
      // `cd` alone or `cd -` goes somewhere the command line does not say: no directory is known.
      cwds.set(scope, args[0] === undefined || args[0] === "-" ? null : within(cwd, args[0]));
      continue;
    }
    const dirs = [...new Set(["", cwd, movedTo(args, cwd)])].filter((d): d is string => d !== null);
    out.push({ program, args, dirs });
  }
  return out;
}

/**
 * The manifests a command line's programs read: package.json for npm, pnpm, yarn, npx and
 * `node --run`, a makefile for make; at the repository's top and in the directory the program
 * runs in (after `cd dir &&`, or moved by `-C`/`--prefix`/`--dir`/`--cwd`). `programs`: the line's
 * `programsOf`, for a caller that has it already.
 */
export function manifestsOf(command: string, programs: readonly Program[] = programsOf(command)): Manifests {
  const paths = new Set<string>();
  let everyPackage = false;
  for (const { program, args, dirs } of programs) {
    const runsScript = program === "node" && args.some((a) => a === "--run" || a.startsWith("--run="));
    const names = runsScript ? ["package.json"] : Object.hasOwn(MANIFESTS, program) ? MANIFESTS[program] : undefined;
    if (names === undefined) continue;
    if (names.includes("package.json") && args.some((a) => WORKSPACE_WIDE.includes(a) || a.startsWith("--filter=") || a.startsWith("--workspace="))) {
      everyPackage = true;
    }
    for (const dir of dirs) for (const n of names) paths.add(dir === "" ? n : `${dir}/${n}`);
  }
  return { paths: [...paths], everyPackage };
}
