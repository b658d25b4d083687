import { isAbsolutePath, posixBasename, posixDirname, posixJoin, posixResolve, privateDirIssue } from "@decay/portable";
import { err, errAsync, ok, okAsync, type ResultAsync } from "neverthrow";
import type { StoreFault } from "./fault.js";
import type { StoreFs, StoreFsError, StoreStat } from "./port.js";
import { readBounded } from "./read.js";

const text = (b: Uint8Array): string => new TextDecoder().decode(b);

/** The largest `.git` file or `commondir` read: each holds one path. */
const MAX_GIT_FILE_BYTES = 65536;

function notRoot(repo: string, detail: string): StoreFault {
  return { code: "not-a-repository-root", repo, detail };
}

/** Where a path really lies (links followed), and what is there (by lstat of that place). */
function resolvedKind(fs: StoreFs, path: string): ResultAsync<{ real: string; type: StoreStat["type"] }, StoreFsError> {
  return fs.realpath(path).andThen((real) => fs.lstat(real).map((s) => ({ real, type: s.type })));
}

/**
 * Follows a `commondir` file if the git directory has one; the common directory otherwise is
 * itself. As git reads it: through a link, the line ends at its end dropped. Anything but a
 * regular file is refused before it is opened (a FIFO would never answer), and so is an empty
 * one, which git refuses too.
 */
function commonDirOf(fs: StoreFs, repo: string, gitDir: string): ResultAsync<string, StoreFault> {
  const file = `${gitDir}/commondir`;
  return resolvedKind(fs, file)
    .andThen(({ real, type }): ResultAsync<string, StoreFault> => {
      if (type !== "file") return errAsync(notRoot(repo, `${file} is not a regular file`));
      return readBounded(fs, real, MAX_GIT_FILE_BYTES).andThen((b) => {
        // git drops the line ends at the end of the whole file, and nothing else.
        const path = text(b).replace(/[\r\n]+$/, "");
        if (path === "") return err(notRoot(repo, `${file} is empty`));
        return /[\r\n]/.test(path) ? err(notRoot(repo, `${file} holds more than one line`)) : ok(posixResolve(gitDir, path));
      });
    })
    .orElse((e) => (e.code === "store-fs" && e.errno === "ENOENT" ? ok(gitDir) : err<string, StoreFault>(e)));
}

/** The git directory a checkout's `.git` names: the directory itself, or the `gitdir:` of a `.git` file. */
function gitDirOf(fs: StoreFs, repo: string): ResultAsync<string, StoreFault> {
  const dotGit = `${repo}/.git`;
  return resolvedKind(fs, dotGit)
    .mapErr((e): StoreFault => (e.errno === "ENOENT" ? notRoot(repo, "no .git here") : e.errno === "ENOTDIR" ? notRoot(repo, "not a directory") : e))
    .andThen(({ real, type }): ResultAsync<string, StoreFault> => {
      if (type === "directory") return okAsync(real);
      if (type !== "file") return errAsync(notRoot(repo, ".git is neither a directory nor a file"));
      return readBounded(fs, real, MAX_GIT_FILE_BYTES).andThen((b) => {
        const m = /^gitdir: *(.+?)\r?$/m.exec(text(b));
        return m?.[1] ? ok(posixResolve(repo, m[1])) : err(notRoot(repo, `${dotGit} has no gitdir: line`));
      });
    });
}

/**
 * The project key: the main checkout of the repository's git common directory, read from the
 * `.git` / `gitdir:` / `commondir` files (never from inherited `GIT_*` variables), so linked
 * worktrees share one key. `repo` must be a canonical path to a checkout's top level.
 */
export function projectKey(fs: StoreFs, repo: string): ResultAsync<string, StoreFault> {
  return gitDirOf(fs, repo)
    .andThen((gitDir) =>
      fs
        .lstat(`${gitDir}/HEAD`)
        .mapErr((e): StoreFault => (e.errno === "ENOENT" || e.errno === "ENOTDIR" ? notRoot(repo, `${gitDir} is not a git directory`) : e))
        .andThen(() => commonDirOf(fs, repo, gitDir)),
    )
    .andThen((common) => fs.realpath(common).mapErr((e): StoreFault => (e.errno === "ENOENT" ? notRoot(repo, `common dir ${common} is missing`) : e)))
    .map((common) => (posixBasename(common) === ".git" ? posixDirname(common) : common));
}

/** HOME as the store accepts it: set, absolute, existing, a directory; its canonical path. */
export function usableHome(fs: StoreFs, home: string | undefined): ResultAsync<string, StoreFault> {
  if (home === undefined || home === "") return errAsync({ code: "home-unusable", home: null, reason: "unset" });
  if (!isAbsolutePath(home)) return errAsync({ code: "home-unusable", home, reason: "relative" });
  const missing = (e: StoreFsError): StoreFault => (e.errno === "ENOENT" || e.errno === "ENOTDIR" ? { code: "home-unusable", home, reason: "missing" } : e);
  return fs
    .realpath(home)
    .mapErr(missing)
    .andThen((real) =>
      fs
        .lstat(real)
        .mapErr(missing)
        .andThen((s) => (s.type === "directory" ? ok(real) : err<string, StoreFault>({ code: "home-unusable", home, reason: "not-a-directory" }))),
    );
}

/** Checks one existing store directory: a real directory, owned by us; narrows it to 0700 when wider. */
export function checkPrivateDir(fs: StoreFs, path: string, narrow: boolean): ResultAsync<void, StoreFault> {
  return fs.lstat(path).andThen((s): ResultAsync<void, StoreFault> => {
    const found = privateDirIssue(s, fs.uid());
    switch (found?.issue) {
      case undefined:
        return okAsync(undefined);
      case "symlink":
        return errAsync({ code: "symlink-in-store-path", path });
      case "not-a-directory":
        return errAsync({ code: "not-a-directory", path });
      case "foreign-owner":
        return errAsync({ code: "foreign-owner", path, uid: found.uid, expected: fs.uid() });
      case "open":
        return narrow ? fs.chmod(path, 0o700) : okAsync(undefined);
    }
  });
}

/**
 * Creates each of `names` below `base` in turn, 0700; each one (new or old) must be a real
 * directory we own, and is narrowed to 0700 when wider. Stops at the first refusal, so nothing
 * is ever created through a symlink.
 */
export function makePrivateDirs(fs: StoreFs, base: string, names: readonly string[]): ResultAsync<string, StoreFault> {
  let chain: ResultAsync<string, StoreFault> = okAsync(base);
  for (const name of names) {
    chain = chain.andThen((parent) => {
      const path = posixJoin(parent, name);
      return fs
        .lstat(path)
        .map(() => undefined)
        .orElse((e) => (e.errno === "ENOENT" ? fs.mkdir(path, 0o700) : err(e)))
        .orElse((e) => (e.errno === "EEXIST" ? ok(undefined) : err(e)))
        .andThen(() => checkPrivateDir(fs, path, true))
        .map(() => path);
    });
  }
  return chain;
}
