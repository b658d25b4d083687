// Test support only (never exported from the package): a reader that waits and counts its calls.
import { ResultAsync } from "neverthrow";
import type { TreeError, TreeReader } from "../../src/tree.js";

const later = <T>(answer: T): Promise<T> => new Promise((done) => setImmediate(() => done(answer)));

/**
 * `inner`'s answers, each a turn of the event loop later, with `inFlight` as given; `seen.most`
 * is the most calls (list, read and readLink together) it held waiting at once.
 */
export function countedReader(inner: TreeReader, inFlight: number | undefined): { readonly reader: TreeReader; readonly seen: { most: number } } {
  let waiting = 0;
  const seen = { most: 0 };
  const held = <T>(call: ResultAsync<T, TreeError>): ResultAsync<T, TreeError> => {
    waiting += 1;
    seen.most = Math.max(seen.most, waiting);
    return new ResultAsync(
      Promise.resolve(call)
        .then(later)
        .finally(() => (waiting -= 1)),
    );
  };
  const reader: TreeReader = {
    describe: inner.describe,
    inFlight,
    list: (path) => held(inner.list(path)),
    read: (path, max) => held(inner.read(path, max)),
    readLink: (path) => held(inner.readLink(path)),
  };
  return { reader, seen };
}
