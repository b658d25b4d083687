import { sha256Hex } from "@decay/portable";
import fc from "fast-check";
import { expect, test } from "vitest";
import { portableSha1Hex } from "../adapters/git-natives.js";
import { nodeSha1Hex, nodeSha256Hex } from "./hashes.js";

test("nodeSha1Hex and the portable SHA-1 agree on any parts, split anywhere", () => {
  fc.assert(
    fc.property(fc.array(fc.uint8Array({ maxLength: 300 }), { maxLength: 6 }), (parts) => {
      expect(nodeSha1Hex(parts)).toBe(portableSha1Hex(parts));
    }),
  );
  // git's id of the empty blob: "blob 0\0".
  expect(nodeSha1Hex([new TextEncoder().encode("blob 0\0")])).toBe("e69de29bb2d1d6434b8b29ae775ad8c2e48c5391");
});

test("nodeSha256Hex and the portable SHA-256 agree", () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 5000 }), (bytes) => {
      expect(nodeSha256Hex(bytes)).toBe(sha256Hex(bytes));
    }),
  );
});
