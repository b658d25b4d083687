import { directoryErrnoSentence, isAbsolutePath, isWithin, posixJoin, posixRelative } from "@decay/portable";
import { err, errAsync, ok, okAsync, safeTry, type ResultAsync } from "neverthrow";
import { slug } from "../record/slug.js";
import type { StoreFault } from "./fault.js";
import type { GitRun, GitRunner, StoreFs } from "./port.js";
import { checkPrivateDir, makePrivateDirs, projectKey, usableHome } from "./project.js";

/** Where each layout keeps its stores below HOME; the project's slug is the last component. */
export const LAYOUTS = {
  decay: [".decay", "evidence"],
  agentflow: [".sentimony", "agentflow", "implement"],
} as const;

/** A store layout name. */
export type Layout = keyof typeof LAYOUTS;

/** The legacy in-repository store folder. */
export const LEGACY_DIR = ".delivery-evidence";

type Env = Readonly<Record<string, string | undefined>>;

/** Where a store lives, once the location rules have chosen and prepared it. */
export interface Location {
  readonly root: string;
  readonly legacy: boolean;
  readonly unusedLegacy: string | null;
  /** The directory the store's own components start below: HOME, or the checkout for a legacy store. */
  readonly top: string;
  readonly repo: string;
  readonly env: Env;
  /** Asks git about a legacy store; without one, a legacy store is refused (`git-failed`). */
  readonly git: GitRunner | undefined;
}

/** An envelope file name: `*.json` that is not a snapshot (a bare snapshot is not pending state). */
export function isEnvelopeName(name: string): boolean {
  return name.endsWith(".json") && !name.startsWith("snapshot-");
}

/** True when `dir` is a directory holding at least one envelope. */
function populated(fs: StoreFs, dir: string): ResultAsync<boolean, StoreFault> {
  return fs
    .readdir(dir)
    .map((names) => names.some(isEnvelopeName))
    .orElse((e) => (e.errno === "ENOENT" || e.errno === "ENOTDIR" ? ok(false) : err(e)));
}

/** Runs git through the runner given, or refuses when there is none. */
function gitOf(loc: Pick<Location, "git" | "env">, repo: string, args: readonly string[]): ResultAsync<GitRun, StoreFault> {
  if (loc.git === undefined)
    return errAsync({ code: "git-failed", args, detail: "no git runner was given (a legacy store needs one: runGit from @decay/evidence/node)" });
  return loc.git(repo, args, loc.env);
}

/** Asks git whether `rel` (relative to the checkout) is ignored; not ignored is a fault. */
export function requireIgnored(loc: Pick<Location, "git" | "env">, repo: string, rel: string): ResultAsync<void, StoreFault> {
  const args = ["check-ignore", "--quiet", "--", rel];
  return gitOf(loc, repo, args).andThen((run) => {
    if (run.status === 0) return ok(undefined);
    if (run.status === 1) return err<void, StoreFault>({ code: "legacy-not-ignored", path: posixJoin(repo, rel) });
    return err<void, StoreFault>({ code: "git-failed", args, detail: `exit status ${run.status}` });
  });
}

/** A legacy folder is used only as a real directory we own, that git ignores and tracks nothing in. */
function checkLegacy(fs: StoreFs, repo: string, root: string, loc: Pick<Location, "git" | "env">): ResultAsync<void, StoreFault> {
  const args = ["ls-files", "-z", "--", LEGACY_DIR];
  return checkPrivateDir(fs, root, false)
    .andThen(() => requireIgnored(loc, repo, `${LEGACY_DIR}/.ignore-proof`))
    .andThen(() => gitOf(loc, repo, args))
    .andThen((run) => {
      if (run.status !== 0) return err<void, StoreFault>({ code: "git-failed", args, detail: `exit status ${run.status}` });
      return run.stdout === "" ? ok(undefined) : err<void, StoreFault>({ code: "legacy-tracked", path: root });
    });
}

/** The options the location rules read. */
export interface LocateOptions {
  readonly repo: string;
  readonly home?: string | undefined;
  readonly layout?: Layout | undefined;
  readonly env: Env;
  readonly git?: GitRunner | undefined;
}

/**
 * Applies the location rules: the project key from the checkout's git files, a usable HOME
 * outside the project, the new private folder unless only a legacy folder holds envelopes.
 * Every refusal happens before anything is created.
 */
export function locate(fs: StoreFs, opts: LocateOptions): ResultAsync<Location, StoreFault> {
  return safeTry(async function* () {
    if (!isAbsolutePath(opts.repo)) return err<Location, StoreFault>({ code: "not-a-repository-root", repo: opts.repo, detail: "the path is relative" });
    const repo = yield* fs
      .realpath(opts.repo)
      .mapErr(
        (e): StoreFault =>
          e.errno === "ENOENT" || e.errno === "ENOTDIR" ? { code: "not-a-repository-root", repo: opts.repo, detail: directoryErrnoSentence(e.errno) } : e,
      );
    const key = yield* projectKey(fs, repo);
    const home = yield* usableHome(fs, opts.home ?? opts.env.HOME);
    const project = [repo, key].find((p) => isWithin(home, p));
    if (project !== undefined) return err<Location, StoreFault>({ code: "home-inside-project", home, project });
    const names = [...LAYOUTS[opts.layout ?? "decay"], slug(key)];
    const legacyRoot = posixJoin(repo, LEGACY_DIR);
    const newHas = yield* populated(fs, posixJoin(home, ...names));
    const legacyHas = yield* populated(fs, legacyRoot);
    if (!newHas && legacyHas) {
      yield* checkLegacy(fs, repo, legacyRoot, { git: opts.git, env: opts.env });
      return ok({ root: legacyRoot, legacy: true, unusedLegacy: null, top: repo, repo, env: opts.env, git: opts.git });
    }
    const root = yield* makePrivateDirs(fs, home, names);
    return ok({ root, legacy: false, unusedLegacy: legacyHas ? legacyRoot : null, top: home, repo, env: opts.env, git: opts.git });
  });
}

/** Re-checks, before each use, that no component from the top down to the root became a symlink. */
export function checkRootPath(fs: StoreFs, loc: Location): ResultAsync<void, StoreFault> {
  const below = posixRelative(loc.top, loc.root).split("/");
  let chain: ResultAsync<void, StoreFault> = okAsync(undefined);
  let path = loc.top;
  for (const name of below) {
    path = posixJoin(path, name);
    const here = path;
    chain = chain.andThen(() =>
      fs.lstat(here).andThen((s) => (s.type === "symlink" ? err<void, StoreFault>({ code: "symlink-in-store-path", path: here }) : ok(undefined))),
    );
  }
  return chain;
}
