/**
 * The order a check judges rows in, and when each directory's listing may be let go.
 *
 * Rows are grouped by the directory they sit in, and the groups follow one another depth-first
 * (a directory's subdirectories right after it), so every row under a directory is judged in
 * one stretch. Once that stretch is judged, nothing the plan names still needs the listing.
 */
export interface JudgingOrder {
  /** Input indices, in the order they are judged. */
  readonly order: readonly number[];
  /**
   * `release[k]`: the directories (tree paths as the plan spells them) whose last row is the
   * `k`th judged, if any; `""`, the root, is never among them.
   */
  readonly release: readonly (readonly string[] | undefined)[];
}

function parentOf(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash === -1 ? "" : path.slice(0, slash);
}

// Sorts "a/b" right after "a" and before "a-c": "/" compares below every other character.
function depthFirstKey(dir: string): string {
  return dir.replaceAll("/", "\u0000");
}

/** Groups `paths` (plan paths, `/`-separated) by directory, depth-first, and plans the releases. */
export function judgingOrder(paths: readonly string[]): JudgingOrder {
  const groups = new Map<string, number[]>();
  for (let i = 0; i < paths.length; i += 1) {
    const dir = parentOf(paths[i] as string);
    const group = groups.get(dir);
    if (group) group.push(i);
    else groups.set(dir, [i]);
  }
  const dirs = [...groups.keys()].map((dir) => [depthFirstKey(dir), dir] as const);
  dirs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const order: number[] = [];
  const lastUse = new Map<string, number>();
  for (const [, dir] of dirs) {
    const group = groups.get(dir) as number[];
    for (let k = 0; k < group.length; k += 1) order.push(group[k] as number);
    // This group's directory and each of its ancestors are needed at least this far.
    for (let d = dir; d !== ""; d = parentOf(d)) lastUse.set(d, order.length - 1);
  }
  const release: (string[] | undefined)[] = new Array(order.length);
  for (const [dir, k] of lastUse) {
    const at = release[k];
    if (at) at.push(dir);
    else release[k] = [dir];
  }
  return { order, release };
}
