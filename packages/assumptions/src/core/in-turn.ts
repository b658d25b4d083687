import type { TreeReader } from "../tree.js";

/**
 * Calls kept waiting on a reader at once, unless it says otherwise (`TreeReader.inFlight`):
 * enough to overlap a waiting reader's calls, few enough to bound memory.
 */
const IN_FLIGHT = 16;

/** How many calls to keep waiting on `tree` at once: its own `inFlight` when that is a positive integer. */
export function inFlightOf(tree: TreeReader): number {
  const wanted = tree.inFlight;
  return typeof wanted === "number" && Number.isInteger(wanted) && wanted >= 1 ? wanted : IN_FLIGHT;
}

/** Runs `each` over `items` in order, `width` at a time, passing over those `skip` names. */
export async function inTurn<T>(items: readonly T[], width: number, skip: (item: T) => boolean, each: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next++] as T;
      if (!skip(item)) await each(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
}
