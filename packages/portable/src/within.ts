// Whether one path lies in another, the check every "never inside the repository" rule of the
// decay packages makes. Runtime-neutral: it reads the strings, never the disk, so both paths must
// already be absolute and resolved (realpath) by the caller.

/** A Windows path (`C:\…`, `C:/…`, `\\server\…`): there `\` separates as `/` does, and case does not count. */
const windows = (path: string): boolean => /^(?:[A-Za-z]:|\\\\)/.test(path);

/** `path` with `/` for every separator and no trailing one (`""` for a root). */
function trimmed(path: string, win: boolean): string {
  return (win ? path.replace(/\\/g, "/").toLowerCase() : path).replace(/\/+$/, "");
}

/**
 * True when `path` is `base` or lies below it; both absolute and resolved. Trailing separators are
 * ignored; on POSIX paths a `\` is part of a name and case counts, on Windows paths (as node:path's
 * `win32` reads them) `\` is a separator and case does not count.
 */
export function isWithin(path: string, base: string): boolean {
  const win = windows(path) || windows(base);
  const p = trimmed(path, win);
  const b = trimmed(base, win);
  return p === b || p.startsWith(`${b}/`);
}
