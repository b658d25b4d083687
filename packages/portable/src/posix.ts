// POSIX path strings as `node:path/posix` computes them, minus the working directory (a path
// that is still relative after every segment is taken from `/`) and minus trailing slashes
// (`posixNormalize("a/")` is `a`). Runtime-neutral.

/** Whether `path` starts at the root. */
export function isAbsolutePath(path: string): boolean {
  return path.startsWith("/");
}

// `.` and empty segments dropped, `..` applied; a relative path keeps the `..` it cannot apply.
function normalSegments(path: string, absolute: boolean): string[] {
  const out: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part !== "..") out.push(part);
    else if (out.length > 0 && out[out.length - 1] !== "..") out.pop();
    else if (!absolute) out.push("..");
  }
  return out;
}

/** `path` without `.`, `..` where it can be applied, repeated or trailing slashes (`.` for nothing). */
export function posixNormalize(path: string): string {
  const absolute = isAbsolutePath(path);
  const body = normalSegments(path, absolute).join("/");
  if (absolute) return `/${body}`;
  return body === "" ? "." : body;
}

/** The segments joined by `/` and normalised; empty segments are skipped. */
export function posixJoin(...segments: readonly string[]): string {
  const joined = segments.filter((s) => s !== "").join("/");
  return joined === "" ? "." : posixNormalize(joined);
}

/**
 * The absolute path the segments name, read right to left up to the first absolute one, as
 * `path.posix.resolve` does; with no absolute segment the path is taken from `/`.
 */
export function posixResolve(...segments: readonly string[]): string {
  let path = "";
  for (let i = segments.length - 1; i >= 0 && !isAbsolutePath(path); i -= 1) {
    const s = segments[i] as string;
    if (s !== "") path = path === "" ? s : `${s}/${path}`;
  }
  return `/${normalSegments(path, true).join("/")}`;
}

/** The path from `from` to `to` (both resolved first); `""` when they are the same. */
export function posixRelative(from: string, to: string): string {
  const a = normalSegments(posixResolve(from), true);
  const b = normalSegments(posixResolve(to), true);
  let same = 0;
  while (same < a.length && same < b.length && a[same] === b[same]) same += 1;
  return [...a.slice(same).map(() => ".."), ...b.slice(same)].join("/");
}

/** The last segment of `path`, trailing slashes ignored (`""` for `/`). */
export function posixBasename(path: string): string {
  const trimmed = path.replace(/\/+$/, "");
  return trimmed.slice(trimmed.lastIndexOf("/") + 1);
}

/** `path` without its last segment, trailing slashes ignored (`/` for a top-level path, `.` for a bare name). */
export function posixDirname(path: string): string {
  const trimmed = path.replace(/\/+$/, "");
  if (trimmed === "") return path.startsWith("/") ? "/" : ".";
  const at = trimmed.lastIndexOf("/");
  if (at === -1) return ".";
  const dir = trimmed.slice(0, at).replace(/\/+$/, "");
  return dir === "" ? "/" : dir;
}
