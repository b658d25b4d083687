// The system's error codes as the words a message shows: one table for every decay CLI and store.

/** The sentence of each errno code a decay message may meet, in the words `strerror` uses. */
const SENTENCES: Readonly<Record<string, string>> = {
  ENOENT: "no such file or directory",
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  ELOOP: "too many levels of symbolic links",
  ENOTDIR: "not a directory",
  EISDIR: "is a directory",
  ENAMETOOLONG: "file name too long",
  ENOSPC: "no space left on device",
  EROFS: "read-only file system",
  EEXIST: "file exists",
};

/** The words for an errno code (`ENOENT` is `no such file or directory`); a code not in the table is returned as it is. */
export function errnoSentence(code: string): string {
  return Object.hasOwn(SENTENCES, code) ? (SENTENCES[code] as string) : code;
}

/** The words for an errno code with the code after them (`permission denied (EACCES)`); null for a code the table does not know. */
export function errnoSaid(code: string): string | null {
  return Object.hasOwn(SENTENCES, code) ? `${SENTENCES[code] as string} (${code})` : null;
}

/** The sentences that differ when the path must name a directory (a `--repo`, a store's root). */
const DIRECTORY_SENTENCES: Readonly<Record<string, string>> = {
  ENOENT: "no such directory",
  ENOTDIR: "a part of the path is not a directory",
};

/** The words for an errno code met resolving a path that must be a directory (`ENOENT` is `no such directory`); else as {@link errnoSentence}. */
export function directoryErrnoSentence(code: string): string {
  return Object.hasOwn(DIRECTORY_SENTENCES, code) ? (DIRECTORY_SENTENCES[code] as string) : errnoSentence(code);
}

/**
 * The `code` a thrown value carries (an errno such as `ENOENT`, an isomorphic-git error name such
 * as `NotFoundError`), or undefined when it carries none: safe on any value, `null` included.
 */
export function thrownCode(e: unknown): unknown {
  return typeof e === "object" && e !== null ? (e as { code?: unknown }).code : undefined;
}
