import fc from "fast-check";
import { expect, test } from "vitest";
import { firstInvalidUtf8 } from "./utf8.js";

const fatal = new TextDecoder("utf-8", { fatal: true });
const decodes = (bytes: Uint8Array, stream = false): boolean => {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes, { stream });
    return true;
  } catch {
    return false;
  }
};

// Bytes near UTF-8's edges: every lead byte range, continuations at their bounds, overlong forms,
// surrogates and code points past U+10FFFF.
const edgy = fc
  .array(
    fc.constantFrom(0x41, 0x0a, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xe1, 0xed, 0xee, 0xef, 0xf0, 0xf1, 0xf4, 0xf5, 0xff),
    {
      maxLength: 16,
    },
  )
  .map((a) => Uint8Array.from(a));

test("property: finds nothing exactly where a fatal TextDecoder refuses nothing; else the sequence it cannot complete", () => {
  fc.assert(
    fc.property(
      fc.oneof(
        edgy,
        fc.uint8Array({ maxLength: 24 }),
        fc.string({ unit: "binary" }).map((s) => new TextEncoder().encode(s)),
      ),
      (bytes) => {
        const bad = firstInvalidUtf8(bytes);
        if (bad === undefined) {
          expect(() => fatal.decode(bytes)).not.toThrow();
          return;
        }
        expect(decodes(bytes)).toBe(false);
        // Everything before the sequence decodes; the sequence up to the byte that shows it is a
        // valid start (a streaming decoder holds it) and that byte, or the end, breaks it.
        expect(decodes(bytes.subarray(0, bad.start))).toBe(true);
        expect(bad.end).toBeGreaterThanOrEqual(bad.start);
        expect(decodes(bytes.subarray(0, bad.end), true)).toBe(true);
        if (bad.end < bytes.length) expect(decodes(bytes.subarray(0, bad.end + 1), true)).toBe(false);
      },
    ),
    { numRuns: 5000 },
  );
});
