// The files tracked at a commit, listed once a run. A full commit id names content that never
// changes, so what git listed of it holds for the whole run; a stage asks it of the same commits
// again and again (pinning, the execute check, the fix checks). Runtime-neutral.
import { type Result, ResultAsync } from "neverthrow";
import type { ExecFault } from "../fault.js";
import type { Git } from "../ports.js";
import { isFullCommitId } from "./paths.js";

/**
 * How many commits' listings are kept. A stage asks of its base, its execute's commit and each
 * fix's, each only while it and the next are the newest, so a few suffice; more would hold
 * large listings (every path of the repository) for nothing.
 */
const KEPT = 8;

/** The paths of every file tracked at a commit (`Git.listFiles`). */
export type TrackedFiles = (commit: string) => ResultAsync<readonly string[], ExecFault>;

/**
 * `git.listFiles`, asked once for each full commit id while it is among the `kept` most recently
 * asked. A ref or abbreviated id is asked every time; a failure is not kept.
 */
export function listedOnce(git: Pick<Git, "listFiles">, kept = KEPT): TrackedFiles {
  const lists = new Map<string, Promise<Result<readonly string[], ExecFault>>>();
  return (commit) => {
    if (!isFullCommitId(commit)) return git.listFiles(commit);
    const known = lists.get(commit);
    // Asked again: it becomes the newest (a Map keeps insertion order; the oldest is dropped first).
    if (known !== undefined) lists.delete(commit);
    const listed =
      known ??
      Promise.resolve(git.listFiles(commit)).then((r) => {
        if (r.isErr() && lists.get(commit) === listed) lists.delete(commit);
        return r;
      });
    lists.set(commit, listed);
    for (const oldest of lists.keys()) {
      if (lists.size <= kept) break;
      lists.delete(oldest);
    }
    return new ResultAsync(listed);
  };
}
