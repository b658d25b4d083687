// Tree paths as the core spells them: `/`-separated, `""` for the root.

/** `name` in directory `dir` (`""` for the root). */
export function child(dir: string, name: string): string {
  return dir === "" ? name : `${dir}/${name}`;
}

/** The plan directory a plan path lies in: all but its last component (`""` for the root). */
export function parentOf(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash === -1 ? "" : path.slice(0, slash);
}

/** The last component of a plan path: the name its directory is asked for. */
export function nameOf(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}
