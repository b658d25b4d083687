// Whether a directory is private to its user: the check made of every directory someone else
// could have made first (a name in a shared /tmp, a folder in a shared home) before anything is
// put in it. Runtime-neutral: it reads what lstat said, never the disk.

/** What lstat says of the path; evidence's `StoreStat` fits. */
export interface DirStat {
  readonly type: "file" | "directory" | "symlink" | "other";
  readonly uid: number;
  /** Permission bits; only group and other bits (`0o077`) are read. */
  readonly mode: number;
}

/** Why a path is no private directory of the user's. */
export type PrivateDirIssue =
  | { readonly issue: "symlink" }
  | { readonly issue: "not-a-directory" }
  | { readonly issue: "foreign-owner"; readonly uid: number }
  | { readonly issue: "open"; readonly mode: number };

/**
 * The first reason `stat` (from lstat, never stat: a link is refused, not followed) is no private
 * directory of `uid`'s, in this order: a link, not a directory, another owner, access for group or
 * others (`mode`: its permission bits); null when it is one.
 */
export function privateDirIssue(stat: DirStat, uid: number): PrivateDirIssue | null {
  if (stat.type === "symlink") return { issue: "symlink" };
  if (stat.type !== "directory") return { issue: "not-a-directory" };
  if (stat.uid !== uid) return { issue: "foreign-owner", uid: stat.uid };
  if ((stat.mode & 0o077) !== 0) return { issue: "open", mode: stat.mode & 0o777 };
  return null;
}
