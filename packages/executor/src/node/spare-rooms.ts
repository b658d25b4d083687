// Spare worktrees: a disposed worktree room is parked in a private directory of this user's
// outside the repository, and the next room claims it and resets it to its commit, so git rewrites
// only the files that differ instead of every file of the tree.
import { createHash } from "node:crypto";
import { lstat, mkdir, readFile, realpath, rmdir } from "node:fs/promises";
import { basename, dirname } from "node:path";
import { errAsync, okAsync, ResultAsync } from "neverthrow";
import type { ExecFault } from "../fault.js";
import type { RoomHomes } from "../room-home.js";
import type { GitInvoker } from "./git-process.js";
import { gitInvoker } from "./git-process.js";
import { commonDirOf, fsStep, privateDir, removeTree } from "./room-dirs.js";

/** The parked worktrees of one repository. */
export interface Spares {
  /** Moves a spare to `dir` and resets it to `id`: true when `dir` now holds exactly the commit; false leaves nothing at `dir`. */
  claim(dir: string, id: string): ResultAsync<boolean, ExecFault>;
  /** Parks the worktree at `dir`: false when it is not a worktree that can be parked, or every slot is taken. */
  park(dir: string): ResultAsync<boolean, ExecFault>;
  /** Removes every spare and its worktree entry. */
  drain(): ResultAsync<void, ExecFault>;
}

const present = (path: string) =>
  ResultAsync.fromSafePromise(
    lstat(path).then(
      () => true,
      () => false,
    ),
  );

const NO_HOOKS = ["-c", "core.hooksPath=/dev/null"];

/**
 * The filter drivers of the repository's own config (its `config`, the files that includes, a
 * worktree's `config.worktree`; not the user's global one nor the system's), each with its
 * settings as one string. Git asked from `git`'s directory.
 */
export function ownFilters(git: GitInvoker): ResultAsync<ReadonlyMap<string, string>, ExecFault> {
  // -z: a scope, then the key and its value after a line feed, each ended by NUL, so a value that
  // holds a line feed cannot pass for another entry.
  const args = ["config", "-z", "--show-scope", "--get-regexp", "^filter\\."];
  return git.raw(args).andThen((o) => {
    // Exit 1: no such key.
    if (o.exit !== 0 && o.exit !== 1) {
      return errAsync<ReadonlyMap<string, string>, ExecFault>({ code: "git-failed", op: args.join(" "), reason: o.stderr.trim() || `exit ${o.exit}` });
    }
    const settings = new Map<string, string[]>();
    const fields = o.exit === 0 ? o.stdout.split("\0") : [];
    for (let k = 0; k + 1 < fields.length; k += 2) {
      const scope = fields[k] as string;
      const entry = fields[k + 1] as string;
      const key = entry.split("\n", 1)[0] as string;
      const name = /^filter\.(.+)\.[^.]+$/.exec(key)?.[1];
      if (name === undefined || (scope !== "local" && scope !== "worktree")) continue;
      settings.set(name, [...(settings.get(name) ?? []), entry]);
    }
    return okAsync(new Map([...settings].map(([name, lines]) => [name, lines.sort().join("\n")])));
  });
}

/**
 * What every git call that writes or hashes a worktree room's files runs with: no hooks, and no
 * filter driver of the repository's own config (`ownFilters`) but those `trusted` holds with the
 * same settings. A worktree room shares that config (and `info/attributes`) with the working tree
 * agents write to: a smudge filter set or changed there would put its own output in the room for
 * a file the commit holds otherwise. The adapter takes `trusted` before its first room, which a run
 * opens before any agent is called: the repository's own filters (git-crypt, `git lfs install
 * --local`) keep working. (An empty `smudge`, `clean` or `process` is no filter; `required` off
 * lets git copy the blob as it is.)
 */
export function roomGitOptions(git: GitInvoker, trusted: ReadonlyMap<string, string>): ResultAsync<string[], ExecFault> {
  return ownFilters(git).map((current) => {
    const off = [...current].filter(([name, settings]) => trusted.get(name) !== settings).map(([name]) => name);
    return [...NO_HOOKS, ...off.flatMap((name) => ["smudge=", "clean=", "process=", "required=false"].flatMap((v) => ["-c", `filter.${name}.${v}`]))];
  });
}

/** The directory of one repository's spares: its main working tree's name and a digest of its git directory. */
function keyOf(common: string): string {
  const name = basename(basename(common) === ".git" ? dirname(common) : common).replace(/[^A-Za-z0-9._-]+/g, "-");
  return `${name.slice(0, 40)}-${createHash("sha256").update(common).digest("hex").slice(0, 16)}`;
}

/** This user's id; undefined where the platform has none (Windows), and then no spare is kept. */
const userId = (): number | undefined => (typeof process.getuid === "function" ? process.getuid() : undefined);

/**
 * Said once by a worktree room adapter whose per-user spares directory is not this user's private
 * directory (another user made it first on a shared /tmp, it is a link, others can open it) or
 * cannot be made: it keeps no spare from then on, and every room is a fresh worktree.
 */
export interface SparesOff {
  readonly code: "spares-off";
  /** The per-user spares directory, `<dir>/decay-spares-<uid>`. */
  readonly path: string;
  /** Why it is not used (`it is owned by uid 1001, not by this user (uid 1000)`). */
  readonly reason: string;
}

/** The sentence for a `SparesOff`; `dir` names the rooms' directory as the caller set it (`` `dir` ``, `$TMPDIR`). */
export function describeSparesOff(off: SparesOff, dir = "`dir`"): string {
  return `${off.path} cannot hold spare worktree rooms: ${off.reason}; each worktree room is checked out afresh instead; to keep spares, set ${dir} to a directory of your own`;
}

/** What `sparesOf` works with. */
export interface SparesOptions {
  readonly git: GitInvoker;
  readonly repo: string;
  /** How many spares are kept at most; 0 keeps none and never touches the spares directory. */
  readonly count: number;
  readonly env: Readonly<Record<string, string | undefined>> | undefined;
  readonly homes: RoomHomes;
  /** Told once when the spares directory cannot be used (then no spare is kept). */
  readonly onWarning?: ((warning: SparesOff) => void) | undefined;
  /** The filter drivers a room may run (see `roomGitOptions`). */
  readonly trusted: () => ResultAsync<ReadonlyMap<string, string>, ExecFault>;
}

/**
 * The spares of the repository whose git invoker is `git`: at most `count`, in
 * `<rooms dir>/decay-spares-<uid>/<repository key>/spare-k`. The per-user directory is made 0700;
 * when it is not a directory of this user's closed to others (on a shared /tmp anyone can make the
 * name first) or cannot be made, no spare is kept from then on and `onWarning` is told once: a
 * directory that is not this user's is never used, and never stops a room.
 */
export function sparesOf({ git, repo, count, env, homes, onWarning, trusted }: SparesOptions): Spares {
  let common: ResultAsync<string, ExecFault> | undefined;
  const commonDir = () => (common ??= commonDirOf(git, repo));
  const uid = userId();
  let keep = uid === undefined ? 0 : count;
  // This user's checked private directory; null (and no spare from then on) when it is refused.
  const root = () =>
    homes.base().andThen((base) => {
      const path = `${base}/decay-spares-${uid}`;
      return privateDir(path, uid as number).orElse((fault) => {
        if (keep !== 0) onWarning?.({ code: "spares-off", path, reason: fault.reason });
        keep = 0;
        return okAsync(null);
      });
    });
  const slots = (): ResultAsync<string[], ExecFault> => {
    if (keep === 0) return okAsync([]);
    return root().andThen((at) => (at === null ? okAsync([]) : commonDir().map((c) => Array.from({ length: keep }, (_, k) => `${at}/${keyOf(c)}/spare-${k}`))));
  };
  const removeWorktree = (dir: string) =>
    git
      .raw(["worktree", "remove", "--force", "--force", dir])
      .andThen(() => fsStep(dir, () => removeTree(dir)))
      .andThen(() => git.ok(["worktree", "prune"]))
      .map(() => undefined);

  // The room's `.git` must still be the file git wrote, naming a worktree of this repository:
  // otherwise git run inside it would act on whatever repository it names now.
  const ownWorktree = (dir: string) =>
    commonDir().andThen((c) =>
      ResultAsync.fromSafePromise(
        readFile(`${dir}/.git`, "utf8")
          .then((text) => realpath(/^gitdir: (.+)\n?$/.exec(text)?.[1] ?? "\0"))
          .then(
            (gitdir) => gitdir.startsWith(`${c}/worktrees/`),
            () => false,
          ),
      ),
    );
  // The index is rebuilt from the commit (no stat data, no flags a command set), every file's
  // content is hashed against it, and only files that differ are rewritten; then everything
  // untracked or ignored goes.
  const reset = (dir: string, id: string) => {
    const room = gitInvoker(dir, env);
    return trusted()
      .andThen((filters) => roomGitOptions(room, filters))
      .andThen((opts) =>
        room
          .ok([...opts, "read-tree", id])
          .andThen(() => room.raw([...opts, "update-index", "-q", "--refresh"]))
          .andThen(() => room.ok([...opts, "reset", "--hard", "--quiet", id, "--"]))
          .andThen(() => room.ok(["clean", "-ffdxq"]))
          .map(() => true),
      );
  };
  const tryClaim = (slot: string, dir: string, id: string): ResultAsync<boolean, ExecFault> =>
    present(slot).andThen((there) => {
      if (!there) return okAsync(false);
      // A move is one rename: of two claims of the same spare, one finds it gone and fails.
      return git.raw(["worktree", "move", slot, dir]).andThen((moved) => {
        if (moved.exit !== 0) return okAsync(false);
        return ownWorktree(dir)
          .andThen((own) => (own ? reset(dir, id) : okAsync(false)))
          .orElse(() => okAsync(false))
          .andThen((clean) => (clean ? okAsync(true) : removeWorktree(dir).map(() => false)));
      });
    });
  const firstOf = (paths: readonly string[], attempt: (path: string) => ResultAsync<boolean, ExecFault>): ResultAsync<boolean, ExecFault> => {
    const [head, ...rest] = paths;
    if (head === undefined) return okAsync(false);
    return attempt(head).andThen((done) => (done ? okAsync(true) : firstOf(rest, attempt)));
  };
  return {
    claim: (dir, id) => slots().andThen((s) => firstOf(s, (slot) => tryClaim(slot, dir, id))),
    park: (dir) =>
      slots().andThen((s) => {
        const [first] = s;
        if (first === undefined) return okAsync(false);
        return fsStep(first, () => mkdir(dirname(first), { recursive: true, mode: 0o700 })).andThen(() =>
          firstOf(s, (slot) => present(slot).andThen((taken) => (taken ? okAsync(false) : git.raw(["worktree", "move", dir, slot]).map((o) => o.exit === 0)))),
        );
      }),
    drain: () =>
      slots().andThen((s) =>
        s
          .reduce<ResultAsync<void, ExecFault>>(
            (acc, slot) => acc.andThen(() => present(slot)).andThen((there) => (there ? removeWorktree(slot) : okAsync(undefined))),
            okAsync(undefined),
          )
          // The repository's spare directory goes once empty; another adapter may have parked there since.
          .andThen(() => (s[0] === undefined ? okAsync(undefined) : ResultAsync.fromSafePromise(rmdir(dirname(s[0])).catch(() => undefined)))),
      ),
  };
}
