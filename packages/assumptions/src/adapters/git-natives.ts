// What a runtime may do faster than gitTree's portable code: SHA-1 and zlib inflation.
import { bytesToHex } from "@noble/hashes/utils";
import { sha1 } from "@noble/hashes/legacy";

/** The SHA-1 of the parts, one after the other, in lowercase hex: how an object is checked against its id. */
export type Sha1Hex = (parts: readonly Uint8Array[]) => string;

/**
 * A faster whole-stream zlib inflater, tried before the portable one: the output of the zlib
 * stream at the start of `compressed` and how many input bytes follow its end, or `undefined`
 * when it cannot say (not valid zlib, cut short, or more than `max` bytes out). On `undefined` the
 * portable inflater decides, so every refusal is worded as without it.
 */
export type Inflate = (compressed: Uint8Array, max: number) => { readonly bytes: Uint8Array; readonly trailing: number } | undefined;

/** What a runtime can do faster than the portable code: hash objects, inflate them. */
export interface StoreNatives {
  readonly sha1Hex?: Sha1Hex;
  readonly inflate?: Inflate;
}

/** The portable SHA-1 (`@noble/hashes`), for any runtime. */
export const portableSha1Hex: Sha1Hex = (parts) => {
  const hash = sha1.create();
  for (const part of parts) hash.update(part);
  return bytesToHex(hash.digest());
};

/**
 * What a given inflater answered, as the port hands bytes out: a plain Uint8Array over the same
 * memory (a Node Buffer is one too, but the port promises the base type).
 */
export function inflatedBy(inflate: Inflate | undefined, compressed: Uint8Array, max: number): { bytes: Uint8Array; trailing: number } | undefined {
  const got = inflate?.(compressed, max);
  if (got === undefined || got.bytes.length > max) return undefined;
  const { bytes } = got;
  return {
    bytes: Object.getPrototypeOf(bytes) === Uint8Array.prototype ? bytes : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length),
    trailing: got.trailing,
  };
}
