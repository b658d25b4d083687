import { sha256 } from "@noble/hashes/sha2";
import { bytesToHex } from "@noble/hashes/utils";

const encoder = new TextEncoder();

/**
 * Lower-case hex SHA-256 of bytes, or of a string's UTF-8 encoding. Synchronous and runtime-neutral
 * (`@noble/hashes`): the one SHA-256 the decay packages compute.
 */
export function sha256Hex(data: Uint8Array | string): string {
  return bytesToHex(sha256(typeof data === "string" ? encoder.encode(data) : data));
}
