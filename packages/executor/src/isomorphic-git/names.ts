// Branch names as `git check-ref-format --branch` takes them, and the extra ignore rules a caller
// passes (the global excludes file isomorphic-git never reads). Runtime-neutral.
import type { IsomorphicGitFs } from "./objects.js";

/** Whether `refs/heads/<name>` is a valid ref name (git's check-ref-format rules) naming a branch git would take. */
export function isBranchName(name: string): boolean {
  if (name === "" || name === "@" || name.startsWith("-") || name === "HEAD") return false;
  // Control characters, space, ~ ^ : ? * [ \, "..", "@{", a trailing "/" or ".", "//".
  if (/[\x00-\x20\x7f~^:?*[\\]|\.\.|@\{|\/$|\.$|\/\//.test(name)) return false;
  // No component begins with "." or ends with ".lock"; none is empty.
  return name.split("/").every((part) => part !== "" && !part.startsWith(".") && !part.endsWith(".lock"));
}

const clean = (path: string) => path.replace(/\/+/g, "/").replace(/\/\.\//g, "/");

/**
 * `fs` as isomorphic-git sees it with `rules` added to `<gitdir>/info/exclude`: what it reads of that
 * file is the file's text (when there is one) followed by the rules. Nothing is written.
 */
export function withExcludes(fs: IsomorphicGitFs, gitdir: string, rules: string): IsomorphicGitFs {
  const file = clean(`${gitdir}/info/exclude`);
  const inner = fs.promises as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  const call = (name: string, args: unknown[]) => (inner[name] as (...a: unknown[]) => Promise<unknown>).apply(fs.promises, args);
  const text = async () => {
    const own = await call("readFile", [file, "utf8"]).catch(() => "");
    return `${String(own)}\n${rules}\n`;
  };
  const promises = new Proxy(fs.promises, {
    get(target, key, receiver) {
      if (key === "readFile") {
        return async (path: string, ...rest: unknown[]) => {
          if (clean(path) !== file) return call("readFile", [path, ...rest]);
          const t = await text();
          const wantsText = rest[0] === "utf8" || (typeof rest[0] === "object" && (rest[0] as { encoding?: unknown } | null)?.encoding === "utf8");
          return wantsText ? t : new TextEncoder().encode(t);
        };
      }
      // isomorphic-git reads the file only when a stat of it succeeds.
      if (key === "stat" || key === "lstat") {
        return async (path: string, ...rest: unknown[]) =>
          clean(path) === file ? call(key, [path, ...rest]).catch(() => call(key, [gitdir])) : call(key, [path, ...rest]);
      }
      const v = Reflect.get(target, key, receiver) as unknown;
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
  return { ...fs, promises } as IsomorphicGitFs;
}
