import { createHash } from "node:crypto";
import fc from "fast-check";
import { expect, test } from "vitest";
import { sha256Hex } from "./sha256.js";

test("sha256Hex agrees with node:crypto on bytes and on a string's UTF-8", () => {
  expect(sha256Hex("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 300 }), (b) => {
      expect(sha256Hex(b)).toBe(createHash("sha256").update(b).digest("hex"));
    }),
  );
  fc.assert(
    fc.property(fc.string({ unit: "grapheme" }), (s) => {
      expect(sha256Hex(s)).toBe(createHash("sha256").update(s, "utf8").digest("hex"));
    }),
  );
});
