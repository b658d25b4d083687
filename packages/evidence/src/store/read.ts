// The one bounded read of the store's files: refused by its size before it is opened, and never
// more than one byte past the limit read if the file grew since (see the port's `readFile`).
import { err, errAsync, ok, type ResultAsync } from "neverthrow";
import type { StoreFault } from "./fault.js";
import type { StoreFs } from "./port.js";

/** The bytes of `path` when it holds at most `limit` of them, else `file-too-large`. */
export function readBounded(fs: StoreFs, path: string, limit: number): ResultAsync<Uint8Array, StoreFault> {
  const tooLarge = (size: number): StoreFault => ({ code: "file-too-large", path, size, limit });
  return fs
    .lstat(path)
    .andThen((s) =>
      s.size > limit
        ? errAsync<Uint8Array, StoreFault>(tooLarge(s.size))
        : fs.readFile(path, limit + 1).andThen((bytes) => (bytes.length > limit ? err(tooLarge(bytes.length)) : ok(bytes))),
    );
}
