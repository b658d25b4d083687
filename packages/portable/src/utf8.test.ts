import { Buffer, isUtf8 } from "node:buffer";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { decodeStrictUtf8, firstInvalidUtf8 } from "./utf8.js";

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

describe("decodeStrictUtf8", () => {
  const bytesOf = (...b: number[]) => Uint8Array.from(b);
  const BOM = [0xef, 0xbb, 0xbf];

  test("UTF-8 is its text; one leading BOM is dropped unless kept", () => {
    expect(decodeStrictUtf8(new Uint8Array())._unsafeUnwrap()).toBe("");
    expect(decodeStrictUtf8(new TextEncoder().encode("caf\u00e9 \u{1f600}\n"))._unsafeUnwrap()).toBe("caf\u00e9 \u{1f600}\n");
    expect(decodeStrictUtf8(bytesOf(...BOM, 0x41))._unsafeUnwrap()).toBe("A");
    expect(decodeStrictUtf8(bytesOf(...BOM, ...BOM, 0x41))._unsafeUnwrap()).toBe("\ufeffA");
    expect(decodeStrictUtf8(bytesOf(...BOM, 0x41), { bom: "keep" })._unsafeUnwrap()).toBe("\ufeffA");
    expect(decodeStrictUtf8(bytesOf(0x41, ...BOM), { bom: "drop" })._unsafeUnwrap()).toBe("A\ufeff");
  });

  test("what is not UTF-8 is refused, naming the first bad sequence, never decoded to U+FFFD", () => {
    expect(decodeStrictUtf8(bytesOf(0x41, 0xc0, 0xaf))._unsafeUnwrapErr()).toEqual({ start: 1, end: 1 });
    expect(decodeStrictUtf8(bytesOf(0xed, 0xa0, 0x80))._unsafeUnwrapErr()).toEqual({ start: 0, end: 1 });
    expect(decodeStrictUtf8(bytesOf(0x41, 0x42, 0xe2, 0x82))._unsafeUnwrapErr()).toEqual({ start: 2, end: 4 });
    expect(decodeStrictUtf8(bytesOf(0xf4, 0x90, 0x80, 0x80), { bom: "keep" })._unsafeUnwrapErr()).toEqual({ start: 0, end: 1 });
    expect(decodeStrictUtf8(bytesOf(...BOM, 0xff))._unsafeUnwrapErr()).toEqual({ start: 3, end: 3 });
  });

  // Node's own UTF-8 (Buffer, which keeps a BOM, and isUtf8) is the reference: a decoder apart
  // from the TextDecoder under test.
  const reference = (bytes: Uint8Array): string | undefined => (isUtf8(bytes) ? Buffer.from(bytes).toString("utf8") : undefined);
  const anyBytes = fc.oneof(
    edgy,
    fc.uint8Array({ maxLength: 24 }),
    fc.string({ unit: "binary" }).map((s) => new TextEncoder().encode(s)),
    fc.tuple(fc.string({ unit: "binary" }), edgy).map(([s, tail]) => Uint8Array.from([...BOM, ...new TextEncoder().encode(s), ...tail])),
  );

  test("property: agrees with the reference decoder on any bytes, either way with a BOM", () => {
    fc.assert(
      fc.property(anyBytes, (bytes) => {
        const expected = reference(bytes);
        const kept = decodeStrictUtf8(bytes, { bom: "keep" });
        const dropped = decodeStrictUtf8(bytes);
        if (expected === undefined) {
          expect(kept._unsafeUnwrapErr()).toEqual(firstInvalidUtf8(bytes));
          expect(dropped._unsafeUnwrapErr()).toEqual(kept._unsafeUnwrapErr());
          // Everything before the bad sequence decodes, to what the reference makes of it.
          expect(decodeStrictUtf8(bytes.subarray(0, kept._unsafeUnwrapErr().start), { bom: "keep" })._unsafeUnwrap()).toBe(
            reference(bytes.subarray(0, kept._unsafeUnwrapErr().start)),
          );
          return;
        }
        expect(kept._unsafeUnwrap()).toBe(expected);
        expect(dropped._unsafeUnwrap()).toBe(expected.startsWith("\ufeff") ? expected.slice(1) : expected);
      }),
      { numRuns: 5000 },
    );
  });

  test("property: a refusal names where the bytes stop being UTF-8, as a fatal TextDecoder sees it", () => {
    // `start`: the longest prefix that decodes whole; `end`: the longest that decodes as the start
    // of a stream (a sequence cut short by the prefix's end is not yet a fault there).
    const longest = (bytes: Uint8Array, stream: boolean): number => {
      let n = bytes.length;
      while (n > 0 && !decodes(bytes.subarray(0, n), stream)) n -= 1;
      return n;
    };
    fc.assert(
      fc.property(edgy, (bytes) => {
        const got = decodeStrictUtf8(bytes);
        if (got.isErr()) expect(got.error).toEqual({ start: longest(bytes, false), end: longest(bytes, true) });
      }),
      { numRuns: 5000 },
    );
  });

  test("property: round-trips: the text of UTF-8 encodes back to the same bytes", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (s) => {
        const bytes = new TextEncoder().encode(s);
        expect(new TextEncoder().encode(decodeStrictUtf8(bytes, { bom: "keep" })._unsafeUnwrap())).toEqual(bytes);
      }),
      { numRuns: 2000 },
    );
  });
});
