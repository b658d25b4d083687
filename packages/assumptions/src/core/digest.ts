import { err, errAsync, type Result, ResultAsync } from "neverthrow";
import type { TreeReader } from "../tree.js";
import type { AssumptionsFault } from "./faults.js";
import { locate } from "./locate.js";
import { createLocator, type Locator } from "./plain.js";
import { parsePath } from "./path.js";
import { show } from "./describe.js";
import { maxBytesOption, readFound } from "./read.js";
import { digestText as digestBytes } from "./text.js";

/** Options of `digestPath`. */
export interface DigestPathOptions {
  readonly tree: TreeReader;
  /** The path as a plan would write it (validated and folded like an assumptions path). */
  readonly path: string;
  /** Largest file read, in bytes; default 64 MiB. A positive integer, else an `option-invalid` fault. */
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

/** The digest of one plan path through a shared locator; a missing, variant or dangling path is a fault. */
export async function digestAt(loc: Locator, raw: string, maxBytes: number): Promise<Result<PathDigest, AssumptionsFault>> {
  const parsed = parsePath(raw);
  if (parsed.isErr()) return err(parsed.error);
  const { path, directory } = parsed.value;
  if (directory) return err({ code: "path-directory-for-file", kind: "unchanged", path: raw });
  const located = await locate(loc, path);
  if (located.isErr()) return err(located.error);
  const where = located.value;
  if (where.state === "missing") return err({ code: "tree-not-found", path, message: `${show(path)} does not exist` });
  if (where.state === "variant") {
    return err({ code: "tree-not-found", path, message: `${show(path)} does not exist; the tree spells it ${show(where.spelled)}` });
  }
  const read = await readFound(loc.listings, where, maxBytes);
  if (read.isErr()) return err(read.error);
  if (read.value === undefined) return err({ code: "tree-not-found", path, message: `${show(path)} is a dangling symbolic link` });
  return digestBytes(read.value, where.spelled, loc.listings.tree.sha256Hex).map((hex) => ({ path, hex }));
}

/** The normalised-text SHA-256 of the file at a plan path in a tree (what `unchanged` needs). */
export function digestPath(opts: DigestPathOptions): ResultAsync<string, AssumptionsFault> {
  const maxBytes = maxBytesOption(opts.maxBytes);
  if (maxBytes.isErr()) return errAsync(maxBytes.error);
  return new ResultAsync(digestAt(createLocator(opts.tree), opts.path, maxBytes.value)).map((d) => d.hex);
}
