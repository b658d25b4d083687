import { errAsync, okAsync, type Result, type ResultAsync } from "neverthrow";
import type { TreeReader } from "../tree.js";
import type { AssumptionsFault } from "./faults.js";
import { createListings, type Listings } from "./listing.js";
import { locate } from "./locate.js";
import { parsePath } from "./path.js";
import { DEFAULT_MAX_BYTES, readFound } from "./read.js";
import { digestText as digestBytes } from "./text.js";

/** Options of `digestPath`. */
export interface DigestPathOptions {
  readonly tree: TreeReader;
  /** The path as a plan would write it (validated and folded like an assumptions path). */
  readonly path: string;
  /** Largest file read, in bytes; default 64 MiB. */
  readonly maxBytes?: number;
}

/**
 * SHA-256 (lowercase hex) of bytes as normalised text: strict UTF-8, BOM stripped, CRLF/CR
 * folded to LF, NFC. Exactly what an `unchanged` row compares.
 */
export function digestText(bytes: Uint8Array): Result<string, AssumptionsFault> {
  return digestBytes(bytes);
}

/** A digest with the folded path it was taken at. */
export interface PathDigest {
  readonly path: string;
  readonly hex: string;
}

/** The digest of one plan path through a shared listing cache; a missing, variant or dangling path is a fault. */
export function digestAt(listings: Listings, raw: string, maxBytes: number): ResultAsync<PathDigest, AssumptionsFault> {
  const parsed = parsePath(raw);
  if (parsed.isErr()) return errAsync(parsed.error);
  const { path, components, directory } = parsed.value;
  if (directory) return errAsync({ code: "path-directory-for-file", kind: "unchanged", path: raw });
  return locate(listings, components).andThen((located): ResultAsync<PathDigest, AssumptionsFault> => {
    if (located.state === "missing") return errAsync({ code: "tree-not-found", path, message: `"${path}" does not exist` });
    if (located.state === "variant") {
      return errAsync({ code: "tree-not-found", path, message: `"${path}" does not exist; the tree spells it "${located.spelled}"` });
    }
    return readFound(listings, located, maxBytes).andThen((bytes): ResultAsync<PathDigest, AssumptionsFault> => {
      if (bytes === undefined) return errAsync({ code: "tree-not-found", path, message: `"${path}" is a dangling symbolic link` });
      const hex = digestBytes(bytes, located.spelled);
      return hex.isOk() ? okAsync({ path, hex: hex.value }) : errAsync(hex.error);
    });
  });
}

/** The normalised-text SHA-256 of the file at a plan path in a tree (what `unchanged` needs). */
export function digestPath(opts: DigestPathOptions): ResultAsync<string, AssumptionsFault> {
  return digestAt(createListings(opts.tree), opts.path, opts.maxBytes ?? DEFAULT_MAX_BYTES).map((d) => d.hex);
}
