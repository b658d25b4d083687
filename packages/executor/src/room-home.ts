// Where clean rooms are made: a fresh directory per room (mkdtemp, private to this user) inside a
// directory outside the repository. A room inside the repository would not be clean: Node's module
// resolution, package.json `type`, tsconfig, .npmrc and every tool that searches upward would walk
// out of the room into the working tree and find its ignored `node_modules`. Runtime-neutral.
import { isWithin } from "@decay/portable";
import { errAsync, okAsync, ResultAsync } from "neverthrow";
import { type ExecFault, reasonOf } from "./fault.js";

/** The fs calls a room's home needs: node:fs's and memfs's `promises` both fit. */
export interface HomeFs {
  /** Makes a fresh directory `<prefix>XXXXXX` readable by its owner only (node:fs uses mode 0700). */
  mkdtemp(prefix: string): Promise<string>;
  realpath(path: string): Promise<string>;
  rm(path: string, options: { recursive: true; force: true }): Promise<unknown>;
}

/** Makes and drops the homes of rooms. */
export interface RoomHomes {
  /** The real path of the rooms' directory, checked to lie outside the repository. */
  base(): ResultAsync<string, ExecFault>;
  /** A fresh private home for one room inside `base()`. */
  make(): ResultAsync<string, ExecFault>;
  /** Removes a home and everything in it (gone is fine). */
  drop(home: string): ResultAsync<void, ExecFault>;
}

/** Where a repository's files are, as real paths. */
export interface RepoPlaces {
  /** The directory given as the repository. */
  readonly repo: string;
  /** The top of its working tree; null for a bare repository. */
  readonly top: string | null;
  /**
   * Its common git directory: the main working tree's `.git` (a linked worktree's own git
   * directory lies below it), or a bare repository.
   */
  readonly common: string;
}

/**
 * The real paths no room may lie in: the repository, the top of its working tree, its common git
 * directory and, when that is a `.git`, the main working tree holding it (so a room for a linked
 * worktree is never made in the main checkout).
 */
export function repoDirs(places: RepoPlaces): string[] {
  const main = /^(.*)[/\\]\.git[/\\]*$/.exec(places.common)?.[1];
  return [places.repo, places.common, ...(places.top === null ? [] : [places.top]), ...(main === undefined ? [] : [main === "" ? "/" : main])];
}

/** The fault for a rooms directory inside the repository; `option` names the directory as its caller set it. */
function inside(dir: string, repoDir: string, option: string): ExecFault {
  return {
    code: "option-invalid",
    option,
    issue: `${dir} is inside the repository (${repoDir}): a tool run in a room searches upward (Node's module resolution, package.json, tsconfig) and would reach the working tree; make rooms in a directory outside it`,
  };
}

/**
 * The homes of rooms under `dir`. `placesOf` answers where the repository's files are; `dir` (which
 * must exist) is refused with `option-invalid` when its real path lies inside any of `repoDirs`,
 * the fault's `option` naming `dir` as the caller set it (`dirName`: the option `dir`, or `$TMPDIR`).
 * The check runs once it succeeds; a failure is tried again next time.
 */
export function roomHomes(fs: HomeFs, dir: string, placesOf: () => ResultAsync<RepoPlaces, ExecFault>, dirName = "dir"): RoomHomes {
  let checked: string | undefined;
  const real = (path: string) =>
    ResultAsync.fromPromise(
      Promise.resolve().then(() => fs.realpath(path)),
      (e): ExecFault => ({ code: "workspace-io", path, reason: `the directory for clean rooms cannot be used: ${reasonOf(e)}` }),
    );
  const base = (): ResultAsync<string, ExecFault> => {
    if (checked !== undefined) return okAsync(checked);
    return real(dir).andThen((at) =>
      placesOf().andThen((places) => {
        const hit = repoDirs(places).find((r) => isWithin(at, r));
        if (hit !== undefined) return errAsync(inside(at, hit, dirName));
        checked = at;
        return okAsync(at);
      }),
    );
  };
  return {
    base,
    make: () =>
      base().andThen((at) =>
        ResultAsync.fromPromise(
          Promise.resolve().then(() => fs.mkdtemp(`${at}/decay-room-`)),
          (e): ExecFault => ({ code: "workspace-io", path: at, reason: `could not make a clean room's directory: ${reasonOf(e)}` }),
        ),
      ),
    drop: (home) =>
      ResultAsync.fromPromise(
        Promise.resolve().then(() => fs.rm(home, { recursive: true, force: true })),
        (e): ExecFault => ({ code: "workspace-io", path: home, reason: reasonOf(e) }),
      ).map(() => undefined),
  };
}
