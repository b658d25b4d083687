// Which tasks share a file, found through one tree of path components instead of comparing every
// pair of tasks (resume's rule 2 did, once per done task: quadratic in the tasks with a trace); and,
// through the same tree, whether any path a range of commits or the working tree changed touches a
// task's Files (resume's rule 1 compared every such path with every file of every done task).
//
// Two paths meet when they are equal, or when one lies inside a folder the other names:
// `p.startsWith(f + "/")`, with one trailing `/` of the folder `f` dropped first. Split on `/`,
// that is: the components of `f` (without that trailing empty one) are a proper prefix of the
// components of `p`. So each path is one node of a tree of components; a path meets the paths
// at its own node, the folders on its way down from the root, and the paths below its folder node.
import type { PlanTask } from "./schema.js";

interface Node {
  readonly children: Map<string, Node>;
  /** The tasks (their indexes) listing this exact path. */
  readonly exact: number[];
  /** The tasks listing this path as a folder (its trailing `/` dropped). */
  readonly folder: number[];
  /** The highest task number in `exact`, in `folder`, and among the exact paths strictly below this node (-1: none). */
  exactMax: number;
  folderMax: number;
  belowMax: number;
}

const node = (): Node => ({ children: new Map(), exact: [], folder: [], exactMax: -1, folderMax: -1, belowMax: -1 });

/** The components of a path as a folder: one trailing `/` dropped, then split on `/`. */
const folderParts = (path: string): string[] => (path.endsWith("/") ? path.slice(0, -1) : path).split("/");

/** The tasks indexed by their `Files`, to ask which of them share a file with a task. */
export interface OverlapIndex {
  /** Whether an indexed task numbered above `task` shares a file with it. */
  hasLater(task: PlanTask): boolean;
  /** The indexed tasks numbered above `task` sharing a file with it, in the order they were indexed. */
  later(task: PlanTask): PlanTask[];
}

/** Walks `parts` down from `root`, making the nodes missing when `make`; each node passed is handed to `visit` with its depth. */
function walk(root: Node, parts: readonly string[], make: boolean, visit: (at: Node, depth: number) => void): Node | null {
  let at = root;
  for (let depth = 0; depth < parts.length; depth++) {
    visit(at, depth);
    const part = parts[depth] as string;
    let next = at.children.get(part);
    if (next === undefined) {
      if (!make) return null;
      next = node();
      at.children.set(part, next);
    }
    at = next;
  }
  return at;
}

/** Every task index listed exactly at a node strictly below `from`. */
function below(from: Node, into: Set<number>): void {
  const stack = [from];
  for (let at = stack.pop(); at !== undefined; at = stack.pop()) {
    if (at !== from) for (const i of at.exact) into.add(i);
    for (const child of at.children.values()) stack.push(child);
  }
}

/** Puts `path` into the tree as an exact path of entry `i` ranked `rank`; returns its node. */
function insertExact(root: Node, path: string, i: number, rank: number): Node {
  const exact = walk(root, path.split("/"), true, (at) => {
    at.belowMax = Math.max(at.belowMax, rank);
  }) as Node;
  exact.exact.push(i);
  exact.exactMax = Math.max(exact.exactMax, rank);
  return exact;
}

/**
 * Visits what meets each of `paths` in the tree: the exact paths at its node, the folders above it
 * (when `folder` is given), and the exact paths below its folder node.
 */
function meet(root: Node, paths: readonly string[], exact: (at: Node) => void, folder: ((at: Node) => void) | null, under: (at: Node) => void): void {
  for (const path of paths) {
    const at = walk(root, path.split("/"), false, (above, depth) => folder !== null && depth > 0 && folder(above));
    if (at !== null) exact(at);
    const own = walk(root, folderParts(path), false, () => undefined);
    if (own !== null) under(own);
  }
}

/** Changed paths indexed once, to ask whether any of them touches a task's Files. */
export interface TouchIndex {
  /** Whether an indexed path equals one of `files` or lies inside a folder one of them names (one trailing `/` dropped). */
  touches(files: readonly string[]): boolean;
}

/**
 * Index changed paths once (time and memory linear in their length); each question then costs the
 * length of the files asked about. A changed path never counts as a folder: a task's file inside
 * it is not touched (`git log -- sub/x` does not list a commit that changed a submodule `sub`).
 */
export function touchIndex(paths: readonly string[]): TouchIndex {
  const root = node();
  for (const path of paths) insertExact(root, path, 0, 0);
  return {
    touches(files) {
      let max = -1;
      const seen = (at: Node) => (max = Math.max(max, at.exactMax));
      meet(root, files, seen, null, (at) => (max = Math.max(max, at.belowMax)));
      return max >= 0;
    },
  };
}

/** Index `tasks` by their `Files` once: time and memory linear in the length of their paths. */
export function overlapIndex(tasks: readonly PlanTask[]): OverlapIndex {
  const root = node();
  tasks.forEach((task, i) => {
    for (const path of task.files) {
      insertExact(root, path, i, task.n);
      const folder = walk(root, folderParts(path), true, () => undefined) as Node;
      folder.folder.push(i);
      folder.folderMax = Math.max(folder.folderMax, task.n);
    }
  });
  return {
    hasLater(task) {
      let max = -1;
      meet(
        root,
        task.files,
        (at) => (max = Math.max(max, at.exactMax)),
        (at) => (max = Math.max(max, at.folderMax)),
        (at) => (max = Math.max(max, at.belowMax)),
      );
      return max > task.n;
    },
    later(task) {
      const found = new Set<number>();
      meet(
        root,
        task.files,
        (at) => at.exact.forEach((i) => found.add(i)),
        (at) => at.folder.forEach((i) => found.add(i)),
        (at) => below(at, found),
      );
      return [...found]
        .sort((a, b) => a - b)
        .map((i) => tasks[i] as PlanTask)
        .filter((t) => t.n > task.n);
    },
  };
}
