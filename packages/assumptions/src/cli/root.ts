import { okAsync } from "neverthrow";
import type { DirEntry, TreeError, TreeReader } from "../tree.js";

/**
 * `tree` with its root's listing already made (`entries`, from `tree.list("")`): the first
 * `list("")` is answered with it, every later call goes to `tree`. Lets a CLI list the root up
 * front (to report a root it cannot list as the run's fault) without listing it twice.
 */
export function withRootListed(tree: TreeReader, entries: readonly DirEntry[]): TreeReader {
  let first: readonly DirEntry[] | undefined = entries;
  return {
    ...tree,
    list: (path) => {
      if (path !== "" || first === undefined) return tree.list(path);
      const listed = first;
      first = undefined;
      return okAsync<readonly DirEntry[], TreeError>(listed);
    },
  };
}
