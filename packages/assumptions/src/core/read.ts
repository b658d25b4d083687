import { err, ok, type Result } from "neverthrow";
import type { CheckFault, OptionFault } from "./faults.js";
import { type Listings, treeFault } from "./listing.js";
import type { Found } from "./locate.js";

/** Default bound on one file read: 64 MiB. A larger file is refused, never read without bound. */
export const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;

/** Whether a size limit is a bound: a positive safe integer (so the bound plus one byte is exact). */
export function isByteBound(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 1;
}

/**
 * The `maxBytes` option of `checkTree`, `digestPath` and `authorAssumptions`: the default when it
 * is left out, else a positive integer (a safe one, so that the bound plus one byte is exact).
 * Anything else (`NaN` from `Number(process.env.LIMIT)` unset, `0`, a fraction, `Infinity`, a
 * string) is refused here, once, before anything is read: a bound no size is ever over would read
 * files as empty, and a verdict would be judged on text nobody read.
 */
export function maxBytesOption(maxBytes: unknown): Result<number, OptionFault> {
  if (maxBytes === undefined) return ok(DEFAULT_MAX_BYTES);
  if (isByteBound(maxBytes)) return ok(maxBytes);
  const given = typeof maxBytes === "number" ? String(maxBytes) : `a value of type ${maxBytes === null ? "null" : typeof maxBytes}`;
  return err({ code: "option-invalid", option: "maxBytes", issue: `must be a positive integer number of bytes (default ${DEFAULT_MAX_BYTES}), not ${given}` });
}

/**
 * Reads the regular file a found path leads to; `undefined` for a dangling link. A directory,
 * FIFO, socket or device there is a fault: only regular files are ever read.
 */
export function readFound(listings: Listings, found: Found, maxBytes: number): PromiseLike<Result<Uint8Array | undefined, CheckFault>> {
  const { resolved, spelled } = found;
  if (!resolved) return Promise.resolve(ok(undefined));
  if (resolved.type === "directory") return Promise.resolve(err({ code: "not-a-file", path: spelled, entry: "directory" }));
  if (resolved.type === "other") return Promise.resolve(err({ code: "not-a-file", path: spelled, entry: "other" }));
  if (resolved.type === "submodule") return Promise.resolve(err({ code: "submodule", path: spelled }));
  // The reader's own promise, chained once: no async step of its own per file.
  return listings.tree.read(resolved.path, maxBytes).then((read) => (read.isOk() ? ok(read.value) : err(treeFault(read.error))));
}
