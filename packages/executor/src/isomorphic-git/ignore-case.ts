// isomorphic-git matches ignore rules ignoring case, where git on Linux matches case as written: a
// file `build/x` under a rule `Build/` is hidden from it, or `keep.txt` under `!Keep.txt` shown. So
// every untracked entry of a directory it listed is judged both ways, by its own rule reading, and a
// difference refuses the status rather than answering it. Runtime-neutral.
import ignore from "ignore";
import type { IsomorphicGitFs } from "./objects.js";

/** The directories a status listed, by their path from the top ("" for the top), and their entries. */
export type Listings = Map<string, readonly string[]>;

/**
 * `fs` as isomorphic-git sees it, recording into `listings` what each `readdir` under `dir` answers.
 * Nothing else changes.
 */
export function listingFs(fs: IsomorphicGitFs, dir: string, listings: Listings): IsomorphicGitFs {
  const top = dir.replace(/\/+$/, "");
  const promises = new Proxy(fs.promises, {
    get(target, key, receiver) {
      const v = Reflect.get(target, key, receiver) as unknown;
      if (typeof v !== "function") return v;
      if (key !== "readdir") return v.bind(target);
      return async (path: string, ...rest: unknown[]) => {
        const names = (await (v as (...a: unknown[]) => Promise<unknown>).apply(target, [path, ...rest])) as unknown;
        const at = path.replace(/\/+$/, "");
        if (Array.isArray(names) && (at === top || at.startsWith(`${top}/`))) {
          listings.set(at === top ? "" : at.slice(top.length + 1), names.map(String));
        }
        return names;
      };
    },
  });
  return { ...fs, promises } as IsomorphicGitFs;
}

type Matcher = ReturnType<typeof ignore>;

/** The rule files read so far, by path: their text, or null when there is none. */
type Texts = Map<string, string | null>;

async function textOf(fs: IsomorphicGitFs, path: string, texts: Texts): Promise<string | null> {
  if (!texts.has(path)) {
    const read = await fs.promises.readFile(path).then(
      (t) => (typeof t === "string" ? t : new TextDecoder().decode(t)),
      () => null,
    );
    texts.set(path, read);
  }
  return texts.get(path) ?? null;
}

/**
 * Whether `filepath` is ignored, read as isomorphic-git reads the rules (info/exclude with the top
 * `.gitignore`, then each directory's `.gitignore` on the way down; an excluded parent ends it; a
 * later file may re-include), with `make` building each file's matcher.
 */
async function ignoredBy(make: (folder: string) => Promise<Matcher>, filepath: string): Promise<boolean> {
  const pieces = filepath.split("/");
  let ignored = false;
  for (let i = 0; i < pieces.length; i++) {
    const rel = pieces.slice(i).join("/");
    const ign = await make(pieces.slice(0, i).join("/"));
    const parent = rel.includes("/") ? rel.slice(0, rel.lastIndexOf("/")) : "";
    if (parent !== "" && ign.ignores(parent)) return true;
    ignored = ignored ? !ign.test(rel).unignored : ign.test(rel).ignored;
  }
  return ignored;
}

/**
 * The first untracked entry of a listed directory (`listings`) that isomorphic-git's rule matching,
 * which ignores case, judges otherwise than matching case as written does; null when none. An entry
 * is untracked when no path in `tracked` is it or lies under it.
 */
export async function caseMismatch(fs: IsomorphicGitFs, dir: string, gitdir: string, listings: Listings, tracked: readonly string[]): Promise<string | null> {
  const known = new Set<string>();
  for (const path of tracked) {
    const parts = path.split("/");
    for (let i = 1; i <= parts.length; i++) known.add(parts.slice(0, i).join("/"));
  }
  const texts: Texts = new Map();
  // One matcher per directory's rules and way of matching (info/exclude goes with the top's).
  const matchers = new Map<string, Matcher>();
  const matcher = (ignorecase: boolean) => async (folder: string) => {
    const key = `${ignorecase}\0${folder}`;
    let m = matchers.get(key);
    if (m === undefined) {
      m = ignore({ ignorecase });
      if (folder === "") m.add((await textOf(fs, `${gitdir}/info/exclude`, texts)) ?? "");
      m.add((await textOf(fs, folder === "" ? `${dir}/.gitignore` : `${dir}/${folder}/.gitignore`, texts)) ?? "");
      matchers.set(key, m);
    }
    return m;
  };
  const [folded, exact] = [matcher(true), matcher(false)];
  for (const [folder, names] of listings) {
    for (const name of names) {
      const path = folder === "" ? name : `${folder}/${name}`;
      if (name === ".git" || known.has(path)) continue;
      if ((await ignoredBy(folded, path)) !== (await ignoredBy(exact, path))) return path;
    }
  }
  return null;
}
